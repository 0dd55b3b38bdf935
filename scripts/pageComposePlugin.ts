import { relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';
import { composePage, pageVariants, parseViewRef, resolveRefs, type ComposeProblem } from '../renderers/schema/compose.ts';
import { entityFile } from '../renderers/schema/entity.ts';
import { paramsKey, type PageVariants } from '../renderers/schema/viewRef.ts';
import { schemaFileReader } from './pageSources.ts';

const ROOT = fileURLToPath(new URL('..', import.meta.url));

/**
 * Composes a page schema file when the console is built (and in `npm run dev` and the unit
 * tests; renderers/schema/compose.ts): its `$ref`s resolved to the fragments they name, its column
 * filters derived, and a page with parameters turned into each combination's page
 * (`{ "$variants": { "feedbackType=app": …, "feedbackType=other": … } }`), so the console loads a
 * page as one chunk and composes nothing. An edited fragment reloads the pages that use it. A
 * file that does not compose fails the build (npm run check names the problem with its file and
 * pointer first).
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
      const view = file.replace(/^schemas\/pages\//, '').replace(/\.json$/, '');
      let source: unknown;
      try {
        source = JSON.parse(code) as unknown;
      } catch {
        return null; // Vite's JSON plugin says what is wrong.
      }
      const resolved = resolveRefs(source, file, read);
      for (const fragment of resolved.files) this.addWatchFile(`${root}/${fragment}`);
      // The entity a page takes its fields from: an edited definition reloads the page.
      const entity = (resolved.value as { entity?: unknown } | null)?.entity;
      if (typeof entity === 'string') this.addWatchFile(`${root}/${entityFile(entity)}`);
      const problems: ComposeProblem[] = [...resolved.problems];
      const variants = pageVariants(view, resolved.value).map((ref) => {
        const { params } = parseViewRef(ref);
        const composed = composePage(resolved.value, params, file, read);
        problems.push(...composed.problems);
        return [paramsKey(params), composed.value] as const;
      });
      if (problems.length) this.error(`页面模式 ${file} 无法组合：\n${problems.map((p) => `${p.file} ${p.pointer} ${p.message}`).join('\n')}`);
      const page: unknown = variants.length === 1 && variants[0][0] === '' ? variants[0][1] : ({ $variants: Object.fromEntries(variants) } satisfies PageVariants);
      return { code: JSON.stringify(page), map: null };
    },
  };
}
