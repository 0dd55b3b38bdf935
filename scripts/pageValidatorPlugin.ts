import Ajv2020 from 'ajv/dist/2020.js';
import standaloneCode from 'ajv/dist/standalone/index.js';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { ValidateFunction } from 'ajv';
import type { Plugin } from 'vite';
import { isPageVariants } from '../renderers/schema/viewRef.ts';
import { relaxedNamesSchema } from './relaxedNames.ts';

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
  // The names (operations, permissions …) relaxed to strings: npm run check tells a wrong one.
  ajv.addSchema(relaxedNamesSchema());
  const code = standaloneCode(ajv, ajv.compile(schema));
  if (/\brequire\(/.test(code)) throw new Error('page validator: the generated code needs an ajv runtime helper (require), which the browser cannot load');
  return code;
}

/**
 * Validates a page schema file as the console would, for the production build: the console trusts
 * the files it was built with and does not download the validator for them
 * (renderers/schema/checkPage.ts), so a file with a problem must fail the build instead.
 */
export function bundledPageProblems(json: string, schemaFile = PAGE_SCHEMA): string[] {
  bundledValidator ??= new Ajv2020({ allErrors: true, strict: false, discriminator: true, unicode: false, logger: false }).addSchema(relaxedNamesSchema()).compile(
    JSON.parse(readFileSync(schemaFile, 'utf8')) as object,
  );
  const validate = bundledValidator;
  let page: unknown;
  try {
    page = JSON.parse(json) as unknown;
  } catch (error) {
    return [`/ ${(error as Error).message}`];
  }
  if (validate(page)) return [];
  return (validate.errors ?? []).map((error) => `${error.instancePath || '/'} ${error.message ?? error.keyword} ${JSON.stringify(error.params)}`);
}
let bundledValidator: ValidateFunction | undefined;

export function pageValidatorPlugin(): Plugin {
  return {
    name: 'page-validator',
    // Before Vite's JSON plugin: the transform below reads the page file as JSON.
    enforce: 'pre',
    transform(code, id) {
      if (this.environment.mode !== 'build' || !/\/schemas\/pages\/.+\.json$/.test(id)) return null;
      // Composed by scripts/pageComposePlugin.ts: a page with parameters is each combination's page.
      const parsed = JSON.parse(code) as unknown;
      const pages = isPageVariants(parsed) ? Object.entries(parsed.$variants).map(([key, page]) => [`?${key} `, JSON.stringify(page)]) : [['', code]];
      const problems = pages.flatMap(([variant, json]) => bundledPageProblems(json).map((problem) => `${variant}${problem}`));
      if (problems.length > 0) this.error(`页面模式 ${id} 不合法：\n${problems.join('\n')}`);
      return null;
    },
    resolveId: (id) => (id === PAGE_VALIDATOR_MODULE ? RESOLVED : null),
    load(id) {
      if (id !== RESOLVED) return null;
      this.addWatchFile(PAGE_SCHEMA);
      this.addWatchFile(fileURLToPath(new URL('../schemas/names.schema.json', import.meta.url)));
      return pageValidatorCode();
    },
  };
}
