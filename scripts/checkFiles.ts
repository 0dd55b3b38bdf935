// `npm run check`: reading the data files of schemas/ (menus, dictionaries, operations, entities,
// pages, fragments) so that a broken one is a problem naming the file, the line and the column, in
// Chinese, and never a stack trace that hides the other problems (issue 33).
import Ajv2020 from 'ajv/dist/2020.js';
import { existsSync, readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { describeSchemaErrors } from '../renderers/schema/describeError';
import type { Problem } from './check';
import { jsonSyntaxMessage } from './checkJsonSyntax';
import { listJson } from './pageSources';

export { jsonSyntaxMessage };

export type ReadResult = { ok: true; value: unknown } | { ok: false; problem: Problem };

/** Parses a JSON text of `file`; a syntax error is a problem naming the line and the column. */
export function parseJsonText(file: string, text: string): ReadResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: { file, pointer: '/', message: jsonSyntaxMessage(text, error as Error) } };
  }
}

/** Reads `file` (from `root`): its value, or the problem (missing, unreadable, not JSON). */
export function readJsonFile(root: string, file: string): ReadResult {
  const path = join(root, file);
  if (!existsSync(path)) return { ok: false, problem: { file, pointer: '/', message: '文件不存在' } };
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    return { ok: false, problem: { file, pointer: '/', message: `无法读取：${(error as NodeJS.ErrnoException).code ?? '未知错误'}` } };
  }
  return parseJsonText(file, text);
}

/**
 * Runs one part of the check; a part that throws is one problem naming it (the others still run),
 * never a stack trace that ends the run.
 */
export async function guarded(part: string, file: string, run: () => Problem[] | Promise<Problem[]>): Promise<Problem[]> {
  try {
    return await run();
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    return [{ file, pointer: '/', message: `${part}未能完成：${reason}（其余检查照常进行）` }];
  }
}

/**
 * The data files: operations.json, menus.json and dictionaries.json against their JSON Schemas
 * (every sentence Chinese, with the allowed values), and every fragment file readable.
 */
export function checkDataFiles(root: string): Problem[] {
  const problems: Problem[] = [];
  const ajv = new Ajv2020({ allErrors: true, strict: false, discriminator: true });
  for (const name of ['operations', 'menus', 'dictionaries']) {
    const file = `schemas/${name}.json`;
    const schemaFile = `schemas/${name}.schema.json`;
    const read = readJsonFile(root, file);
    if (!read.ok) {
      problems.push(read.problem);
      continue;
    }
    const schema = readJsonFile(root, schemaFile);
    if (!schema.ok) {
      problems.push(schema.problem.message === '文件不存在' ? { file: schemaFile, pointer: '/', message: '缺少 JSON Schema' } : schema.problem);
      continue;
    }
    const validate = ajv.compile(schema.value as object);
    if (!validate(read.value)) for (const problem of describeSchemaErrors(validate.errors)) problems.push({ file, ...problem });
  }
  for (const path of listJson(join(root, 'schemas/fragments'))) {
    const read = readJsonFile(root, relative(root, path).split(sep).join('/'));
    if (!read.ok) problems.push(read.problem);
  }
  return problems;
}
