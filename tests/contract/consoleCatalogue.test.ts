import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { consoleCatalogue } from '../../scripts/consoleCataloguePlugin';

const source = readFileSync(new URL('../../schemas/operations.json', import.meta.url), 'utf8');
const full = JSON.parse(source) as Record<string, { path: string; kind: string; title: string }>;
const slim = JSON.parse(consoleCatalogue(source)) as Record<string, Record<string, unknown>>;

describe('the catalogue the console is built with', () => {
  it('keeps every operation, with its path and kind', () => {
    expect(Object.keys(slim)).toEqual(Object.keys(full));
    for (const [name, spec] of Object.entries(full)) {
      expect(slim[name].path, name).toBe(spec.path);
      expect(slim[name].kind, name).toBe(spec.kind);
    }
  });
  it('keeps the title of exports only (the file name when the server sends none), and nothing else', () => {
    const exports = Object.entries(full).filter(([, spec]) => spec.kind === 'blob');
    expect(exports.length).toBeGreaterThan(0);
    for (const [name, spec] of exports) expect(slim[name], name).toEqual({ path: spec.path, kind: 'blob', title: spec.title });
    for (const [name] of Object.entries(full).filter(([, s]) => s.kind !== 'blob')) expect(Object.keys(slim[name]), name).toEqual(['path', 'kind']);
    expect(slim['auth.login']).toEqual({ path: '/auth/web/_login', kind: 'call' });
  });
});
