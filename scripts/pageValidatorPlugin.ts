import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Plugin } from 'vite';

/** The module the console imports its page-schema validator from. */
export const PAGE_VALIDATOR_MODULE = 'virtual:page-validator';
const RESOLVED = `\0${PAGE_VALIDATOR_MODULE}`;
const PAGE_SCHEMA = fileURLToPath(new URL('../schemas/page.schema.json', import.meta.url));

/**
 * The page-schema validator as plain JavaScript generated at build time (ajv standalone code).
 * Compiling it in the browser would need `new Function`, which the console's
 * Content-Security-Policy forbids, and would ship ajv's compiler in the bundle.
 */
export function pageValidatorCode(schemaFile = PAGE_SCHEMA): string {
  const schema = JSON.parse(readFileSync(schemaFile, 'utf8')) as object;
  // `unicode: false`: lengths in UTF-16 units, so the code needs no runtime helper from ajv.
  const ajv = new Ajv2020({ allErrors: true, strict: false, discriminator: true, unicode: false, logger: false, code: { source: true, esm: true } });
  const code = standaloneCode(ajv, ajv.compile(schema));
  if (/\brequire\(/.test(code)) throw new Error('page validator: the generated code needs an ajv runtime helper (require), which the browser cannot load');
  return code;
}

export function pageValidatorPlugin(): Plugin {
  return {
    name: 'page-validator',
    resolveId: (id) => (id === PAGE_VALIDATOR_MODULE ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      this.addWatchFile(PAGE_SCHEMA);
      return pageValidatorCode();
    },
  };
}
