import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { composedPages } from '../../scripts/pageSources';
import { bundledPageProblems } from '../../scripts/pageValidatorPlugin';

// The production build refuses a page schema file with a problem (the console then trusts the
// files it was built with and does not download the validator for them).
const pagesDir = new URL('../../schemas/pages', import.meta.url).pathname;
const files = readdirSync(pagesDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.json'));

describe('page schema files in the production build', () => {
  it('every file of schemas/pages passes', () => {
    expect(files.length).toBeGreaterThan(50);
    // As the build validates them: composed by scripts/pageComposePlugin.ts (fragments, column
    // filters, each combination of a page's parameters).
    for (const { view, page, problems } of composedPages()) {
      expect(problems, view).toEqual([]);
      expect(bundledPageProblems(JSON.stringify(page)), view).toEqual([]);
    }
  });
  it('a file with a wrong kind, a missing title or broken JSON is refused with its pointer', () => {
    const page = JSON.parse(readFileSync(join(pagesDir, files[0]), 'utf8')) as Record<string, unknown>;
    expect(bundledPageProblems(JSON.stringify({ ...page, kind: 'lsit' }))[0]).toMatch(/^\/kind must be equal to one of the allowed values/);
    const { title: _title, ...untitled } = page;
    expect(bundledPageProblems(JSON.stringify(untitled)).join('\n')).toMatch(/must have required property 'title'/);
    expect(bundledPageProblems('{ "kind": ')[0]).toMatch(/^\/ /);
  });
});
