import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { resolveRefs } from '../renderers/schema/compose';
import { schemaFileReader } from './pageSources';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Resolves the `$ref`s of a page schema file to the fragments they name at build time (and in
 * `npm run dev` and the unit tests), so the console loads each page as one chunk with its fragments
 * in it; an edited fragment reloads the pages that use it. A `$ref` that names nothing fails the
 * build (npm run check names it with its file and pointer first). Parameters and column filters are
 * composed when the page is opened (renderers/pages.ts).
 */
export function pageComposePlugin(root = ROOT): Plugin {
  const read = schemaFileReader(root);
  return {
    name: 'page-compose',
    // Before Vite's JSON plugin and the page validator, which read the file as JSON.
    enforce: 'pre',
    transform(code, id) {
      if (!/\/schemas\/pages\/.+\.json$/.test(id)) return null;
      const file = relative(root, id).split(sep).join('/');
      if (!code.includes('"$ref"')) return null;
      const resolved = resolveRefs(JSON.parse(code) as unknown, file, read);
      for (const fragment of resolved.files) this.addWatchFile(`${root}/${fragment}`);
      if (resolved.problems.length) this.error(`页面模式 ${file} 的片段引用有问题：\n${resolved.problems.map((p) => `${p.file} ${p.pointer} ${p.message}`).join('\n')}`);
      return { code: JSON.stringify(resolved.value), map: null };
    },
  };
}
