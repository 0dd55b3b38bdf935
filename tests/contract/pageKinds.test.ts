import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { KIND_LOADERS, PAGE_KIND_MODULES, PAGE_KIND_NAMES, pageKindModule } from '../../renderers/kinds';
import { checkPage, formatProblem, loadContext } from '../../scripts/check';

// Issue 20: one module per page kind (renderers/kinds/<kind>.ts): its renderer, the references
// npm run check follows, the starter new:page writes. The console, check and new:page iterate it.
const root = new URL('../..', import.meta.url).pathname;
type Json = Record<string, unknown>;

describe('the page kinds', () => {
  it('are the kinds of the page meta-schema, each with a module', () => {
    const schema = JSON.parse(readFileSync(join(root, 'schemas/page.schema.json'), 'utf8')) as { oneOf: Array<{ $ref: string }>; $defs: Record<string, { properties: { kind: { const: string } } }> };
    const kinds = schema.oneOf.map(({ $ref }) => schema.$defs[$ref.split('/').pop() as string].properties.kind.const);
    expect([...PAGE_KIND_NAMES].sort()).toEqual([...kinds].sort());
    expect(Object.keys(KIND_LOADERS).sort()).toEqual(Object.keys(PAGE_KIND_MODULES).sort());
    for (const kind of PAGE_KIND_NAMES) {
      const module = PAGE_KIND_MODULES[kind];
      expect(typeof module.load, kind).toBe('function');
      expect(typeof module.references, kind).toBe('function');
      expect(module.starter('试验', 'probe/page'), kind).toMatchObject({ title: '试验' });
    }
    expect(pageKindModule('toString')).toBeUndefined();
    expect(pageKindModule('wizard')).toBeUndefined();
  });

  it('each starter checks clean but for its own operations, which are yet to be catalogued', () => {
    const context = loadContext(root);
    for (const kind of PAGE_KIND_NAMES) {
      const module = PAGE_KIND_MODULES[kind];
      const page: Json = { schemaVersion: 1, kind, ...module.starter('试验', 'probe/page') };
      const own = Object.values(module.starterOperations('probe/page'));
      expect(own.length, kind).toBeGreaterThan(0);
      const problems = checkPage('probe.json', page, context).map(formatProblem);
      expect(problems, kind).toEqual(own.map((name) => expect.stringContaining(`接口操作 ${name} 未在 schemas/operations.json 中登记`)));
    }
  });

  it('check follows what each kind names: a wrong operation in each is found', () => {
    const context = loadContext(root);
    const wrong: Record<string, Json> = {
      list: { title: 't', operation: 'no.such.page', columns: [{ field: 'a', title: 'A' }] },
      form: { title: 't', submit: { operation: 'no.such.save' }, schema: { type: 'object', properties: {} } },
      detail: { title: 't', load: { operation: 'no.such.detail' }, sections: [] },
      dashboard: { title: 't', widgets: [{ type: 'statistic', title: '数', operation: 'no.such.statistics', valueField: 'n' }] },
    };
    for (const kind of PAGE_KIND_NAMES) {
      const problems = checkPage('probe.json', { schemaVersion: 1, kind, ...wrong[kind] }, context).map(formatProblem);
      expect(problems.some((line) => /接口操作 no\.such\.\w+ 未在/.test(line)), `${kind}: ${problems.join('; ')}`).toBe(true);
    }
  });
});
