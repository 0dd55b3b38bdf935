// The page schemas as the console sees them, for Node: npm run check and the tests that read page
// files (renderers/schema/compose.ts says what composing does). A parameterised page file gives one
// page per combination of its parameters' values, under its view reference (`feedback/list?feedbackType=app`).
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import { jsonSyntaxMessage } from './checkJsonSyntax.ts';
import { composeFile, formatViewRef, pageVariants, parseViewRef, type ComposeProblem, type ReadSchemaFile } from '../renderers/schema/compose.ts';

const projectRoot = new URL('..', import.meta.url).pathname;

/** Reads a schema file by its path from `root`: undefined when there is none, throws on broken JSON. */
export function schemaFileReader(root = projectRoot): ReadSchemaFile {
  return (file) => {
    const path = join(root, file);
    if (!existsSync(path) || !statSync(path).isFile()) return undefined;
    const text = readFileSync(path, 'utf8');
    try {
      return JSON.parse(text) as unknown;
    } catch (error) {
      // Where it broke, in Chinese (composing says which $ref or entity led there).
      throw new Error(jsonSyntaxMessage(text), { cause: error });
    }
  };
}

export interface ComposedPage {
  /** The view reference that opens it: `device/all`, `feedback/list?feedbackType=app`. */
  view: string;
  /** The page file, from the project root. */
  file: string;
  page: unknown;
  problems: ComposeProblem[];
}

/** Every .json file under `dir`, in name order (folders descended). */
export function listJson(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .flatMap((name) => {
      const path = join(dir, name);
      return statSync(path).isDirectory() ? listJson(path) : name.endsWith('.json') ? [path] : [];
    });
}

/** The composed page of a view reference, or null when the view has no page file. */
export function composedPage(viewRef: string, root = projectRoot): ComposedPage | null {
  const { view, params } = parseViewRef(viewRef);
  const file = `schemas/pages/${view}.json`;
  const read = schemaFileReader(root);
  const source = read(file);
  if (source === undefined) return null;
  const { value, problems } = composeFile(source, file, params, read);
  return { view: formatViewRef(view, params), file, page: value, problems };
}

/**
 * Every page of schemas/pages, composed: one per file, or one per combination of a parameterised
 * file's values. A file that is not JSON throws (npm run check reports it on its own).
 */
export function composedPages(root = projectRoot, pagesDir = join(root, 'schemas/pages')): ComposedPage[] {
  const read = schemaFileReader(root);
  return listJson(pagesDir).flatMap((path) => {
    const file = relative(root, path).split(sep).join('/');
    const view = relative(pagesDir, path).split(sep).join('/').replace(/\.json$/, '');
    const source = read(file);
    return pageVariants(view, source).map((ref) => {
      const { value, problems } = composeFile(source, file, parseViewRef(ref).params, read);
      return { view: ref, file, page: value, problems };
    });
  });
}

/** Composed pages by view reference. */
export function composedPageMap(root = projectRoot): Map<string, unknown> {
  return new Map(composedPages(root).map(({ view, page }) => [view, page]));
}
