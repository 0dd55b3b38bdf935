import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { resolveRefs } from '../../renderers/schema/compose';
import { schemaFileReader } from '../../scripts/pageSources';
import { bundledPageProblems } from '../../scripts/pageValidatorPlugin';

// The production build refuses a page schema file with a problem (the console then trusts the
// files it was built with and does not download the validator for them).
const pagesDir = new URL('../../schemas/pages', import.meta.url).pathname;
const files = readdirSync(pagesDir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.json'));

describe('page schema files in the production build', () => {
  it('every file of schemas/pages passes', () => {
    expect(files.length).toBeGreaterThan(50);
    // As the build validates them: after scripts/pageComposePlugin.ts has resolved their fragments.
    const read = schemaFileReader();
    for (const file of files) {
      const { value, problems } = resolveRefs(JSON.parse(readFileSync(join(pagesDir, file), 'utf8')) as unknown, `schemas/pages/${file}`, read);
      expect(problems, file).toEqual([]);
      expect(bundledPageProblems(JSON.stringify(value)), file).toEqual([]);
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
