// The server's layers, checked (issue 32): no import cycle in server/, http/ and security/ never
// import operations/, domain/ and db/ never import seed/, and a ratchet — the imports from one
// business area into another are at most what was reached on 2026-12-02. A ratchet only goes down:
// when a move lowers the figure, lower its ceiling here in the same commit (README "Server
// architecture" says the figures). The figures are those `npm run architecture` prints.
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import {
  areaOf,
  countPlaceholders,
  crossAreaImports,
  importCycles,
  longFunctions,
  serverFigures,
  type ImportEdge,
  type ServerModule,
} from '../../scripts/serverArchitecture';

/** Cross-area imports reached on 2026-12-02 (268 before server/core): may only go down. */
const CROSS_AREA_CEILING = 0;

const lines = (edges: readonly ImportEdge[]): string => edges.map(({ from, to }) => `${from} → ${to}`).join('\n');

const moduleOf = (path: string, imports: string[], text = ''): ServerModule => ({
  path,
  imports,
  source: ts.createSourceFile(path, text, ts.ScriptTarget.Latest, true),
});

describe('the figures are counted as the script says', () => {
  it('a strongly connected component is a cycle, a chain is not', () => {
    const modules = [
      moduleOf('http/routes.ts', ['core/context.ts']),
      moduleOf('core/context.ts', ['domain/platformEvents.ts']),
      moduleOf('domain/platformEvents.ts', ['ingest/deviceReports.ts']),
      moduleOf('ingest/deviceReports.ts', ['core/context.ts']),
      moduleOf('seed/seed.ts', ['seed/seed.ts']),
    ];
    expect(importCycles(modules)).toEqual([['core/context.ts', 'domain/platformEvents.ts', 'ingest/deviceReports.ts'], ['seed/seed.ts']]);
    expect(importCycles(modules.slice(0, 3))).toEqual([]);
  });

  it('an area is the first folder under operations/, a file directly there its own; the core (the list-query module included) and the registry are no area', () => {
    expect(areaOf('operations/cards/orders.ts')).toBe('cards');
    expect(areaOf('operations/auth.ts')).toBe('auth');
    expect(areaOf('core/listQuery.ts')).toBeNull();
    expect(areaOf('core/access.ts')).toBeNull();
    const modules = [
      moduleOf('operations/index.ts', ['operations/cards/index.ts']),
      moduleOf('operations/mall/goods.ts', ['operations/cards/access.ts', 'operations/mall/access.ts', 'core/listQuery.ts', 'core/params.ts']),
    ];
    expect(crossAreaImports(modules)).toEqual([{ from: 'operations/mall/goods.ts', to: 'operations/cards/access.ts' }]);
  });

  it('a hand-numbered placeholder is a substitution right after a `$`', () => {
    const text = 'const a = `x = $${params.length} AND y = ANY($${n + 1}::text[]) AND z = ${alias}.code`; const b = `$1`;';
    expect(countPlaceholders([moduleOf('operations/x.ts', [], text)])).toBe(2);
  });

  it('the module that numbers parameters (db/parameters.ts, bind) is the one place not counted', () => {
    const text = 'export const bind = (params: unknown[], value: unknown) => { params.push(value); return `$${params.length}`; };';
    expect(countPlaceholders([moduleOf('db/parameters.ts', [], text)])).toBe(0);
    expect(countPlaceholders([moduleOf('db/other.ts', [], text)])).toBe(1);
  });
});

describe('long functions', () => {
  it('counts a function from its first line to its last against its folder’s limit', () => {
    const body = (n: number) => `function f() {\n${'  x();\n'.repeat(n - 2)}}\n`;
    expect(longFunctions([moduleOf('operations/a.ts', [], body(120)), moduleOf('operations/b.ts', [], body(121))])).toEqual([{ path: 'operations/b.ts', line: 1, name: 'f', lines: 121 }]);
    expect(longFunctions([moduleOf('seed/a.ts', [], body(150)), moduleOf('seed/b.ts', [], `const g = () => {\n${'  x();\n'.repeat(149)}};\n`)])).toEqual([{ path: 'seed/b.ts', line: 1, name: '(anonymous)', lines: 151 }]);
  });
});

describe('server/ layering', () => {
  const figures = serverFigures();

  it('has no import cycle (type-only imports included)', () => {
    expect(figures.cycles.map((cycle) => cycle.join(' ↔ '))).toEqual([]);
  });

  it('http/ and security/ never import operations/', () => {
    expect(lines(figures.httpSecurityToOperations)).toBe('');
  });

  it(`cross-area imports are at most ${CROSS_AREA_CEILING} (a ratchet: it only goes down)`, () => {
    expect(figures.crossArea.length, lines(figures.crossArea)).toBeLessThanOrEqual(CROSS_AREA_CEILING);
  });

  it('domain/ and db/ never import seed/', () => {
    expect(lines(figures.domainDbToSeed)).toBe('');
  });

  it('no statement numbers a parameter by hand: every placeholder comes from db/parameters.ts (bind, Conditions)', () => {
    expect(figures.placeholders).toBe(0);
  });

  it('no function is longer than 120 lines (150 in the seed, whose generators expand its fixtures)', () => {
    expect(figures.longFunctions.map(({ path, line, name, lines }) => `${path}:${line} ${name} ${lines}`)).toEqual([]);
  });

  it('no operation writes out defineOperation generics: every param type is read off its paramSchema (issue 32 asked ≤ 20; 465 before)', () => {
    expect(figures.generics).toBe(0);
  });
});
