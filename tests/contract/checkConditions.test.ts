import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPage, loadContext } from '../../scripts/check';
import { listJson } from '../../scripts/pageSources';
import { compileSimple } from '../../renderers/schema/simpleExpression';
import { TEMPLATE } from '../../renderers/schema/template';

/**
 * One condition language (issue 33): every visibleWhen and disabledWhen of schemas/pages and
 * schemas/fragments is a `{{…}}` expression, the object form `{ field, equals | in | notIn }` is
 * refused by the meta-schema, and the conditions the pages hold compile without the expression
 * engine (so no list page downloads jsep for its row actions).
 */
const root = join(__dirname, '../..');
const files = ['schemas/pages', 'schemas/fragments'].flatMap((dir) => listJson(join(root, dir)));

function conditions(value: unknown, pointer = ''): Array<{ pointer: string; value: unknown }> {
  if (Array.isArray(value)) return value.flatMap((item, i) => conditions(item, `${pointer}/${i}`));
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([key, item]) => [
    ...(key === 'visibleWhen' || key === 'disabledWhen' ? [{ pointer: `${pointer}/${key}`, value: item }] : []),
    ...conditions(item, `${pointer}/${key}`),
  ]);
}

describe('one condition language', () => {
  const found = files.flatMap((path) => conditions(JSON.parse(readFileSync(path, 'utf8'))).map((c) => ({ ...c, file: relative(root, path) })));

  it('no page or fragment holds an object-form condition', () => {
    expect(found.length).toBeGreaterThan(150);
    expect(found.filter((c) => typeof c.value !== 'string').map((c) => `${c.file} ${c.pointer}`)).toEqual([]);
  });

  it('every condition the pages hold is one expression the console evaluates without jsep', () => {
    const needsEngine = found.filter((c) => {
      const matches = [...String(c.value).matchAll(TEMPLATE)];
      return matches.length !== 1 || matches[0][0] !== c.value || !compileSimple(matches[0][1].trim());
    });
    expect(needsEngine.map((c) => `${c.file} ${c.pointer} ${String(c.value)}`)).toEqual([]);
  });

  it('the meta-schema refuses the object form where a condition stands', () => {
    const context = loadContext(root, join(root, 'schemas/pages'));
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '设备',
      operation: 'device.page',
      columns: [{ field: 'code', title: '编号' }],
      rowActions: [{ type: 'refresh', label: '刷新', visibleWhen: { field: 'state', equals: 'created' } }],
    };
    const problems = checkPage('p.json', page, context);
    expect(problems.some((p) => p.pointer === '/rowActions/0/visibleWhen')).toBe(true);
    const fixed = { ...page, rowActions: [{ type: 'refresh', label: '刷新', visibleWhen: "{{record.state === 'created'}}" }] };
    expect(checkPage('p.json', fixed, context).filter((p) => p.pointer.startsWith('/rowActions'))).toEqual([]);
  });
});
