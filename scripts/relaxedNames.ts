// schemas/names.schema.json (written by scripts/metaSchema.ts, `npm run schemas`) as npm run check,
// the build's page validator and the console validate with: every list of names a plain string,
// so a wrong name is told once, by the semantic check's own sentence (editors keep the enums).
// No import beyond node: the Vite config loads this file.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

const projectRoot = new URL('..', import.meta.url).pathname;
export const NAMES_SCHEMA_FILE = 'schemas/names.schema.json';
/** The definitions that are lists of names. */
export const NAME_DEFS = ['operation', 'permission', 'dictType', 'validator', 'display', 'component', 'filterComponent', 'widget', 'page', 'route', 'entity'] as const;

type Json = Record<string, unknown>;

/** The names schema with every list of names a plain string. */
export function relaxedNames(schema: Json): Json {
  const defs = { ...(schema.$defs as Json) };
  for (const name of NAME_DEFS) defs[name] = { type: 'string' };
  return { ...schema, $defs: defs };
}

/** The relaxed names schema of the file under `root`. */
export function relaxedNamesSchema(root = projectRoot): Json {
  const path = join(root, NAMES_SCHEMA_FILE);
  if (!existsSync(path)) throw new Error(`${NAMES_SCHEMA_FILE} 不存在：运行 npm run schemas 生成它`);
  return relaxedNames(JSON.parse(readFileSync(path, 'utf8')) as Json);
}
