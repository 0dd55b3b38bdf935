// Issue 9, bad schemas: 1,000 page schemas broken from the real ones (fast-check) go to the
// renderer, and every one shows the error panel naming the file and a JSON pointer: never a
// white page, never a crash.
import { act, cleanup, screen } from '@testing-library/react';
import { useState } from 'react';
import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { validatePageSchema } from '../../../renderers/schema/validate';
import { join } from 'node:path';
import { composedPages } from '../../../scripts/pageSources';
import { fakeServices, renderWith } from './harness';
import { DISPLAY_KINDS } from '../../../renderers/displays/displays';

const MUTATED = 1000;

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type Page = Record<string, Json>;

// The pages as the console composes them (fragments, parameters, column filters); a parameterised
// page once per combination, named as a plain view (`feedback/list/feedbackType_app`).
// (The project root from __dirname: in the DOM environment import.meta.url is not a file URL.)
const PAGES: Array<{ view: string; page: Page }> = composedPages(join(__dirname, '../../..')).map(({ view, page }) => ({
  view: view.replace('?', '/').replace(/[=&]/g, '_'),
  page: page as Page,
}));

/** What each kind of page must have (schemas/page.schema.json). */
const REQUIRED: Record<string, string[]> = {
  list: ['schemaVersion', 'kind', 'title', 'operation', 'columns'],
  form: ['schemaVersion', 'kind', 'title', 'schema', 'submit'],
  detail: ['schemaVersion', 'kind', 'title', 'load'],
  dashboard: ['schemaVersion', 'kind', 'title', 'widgets'],
};
/** Arrays of objects the meta-schema describes item by item, per kind. */
const ITEM_LISTS = ['columns', 'widgets', 'sections', 'rowActions', 'toolbar', 'batchActions', 'actions'];

/** A value of another JSON type than `value`'s. */
function otherType(value: Json, pick: number): Json {
  const candidates: Json[] = [42, 'x', true, null, [], { junk: 1 }];
  const differs = candidates.filter((candidate) => typeof candidate !== typeof value || Array.isArray(candidate) !== Array.isArray(value) || (candidate === null) !== (value === null));
  return differs[pick % differs.length];
}

type Mutation = (page: Page, pick: number) => Json;

/** Each breaks a rule the meta-schema states, so each result must be refused. */
const MUTATIONS: Record<string, Mutation> = {
  'drop a required property': (page, pick) => {
    const required = REQUIRED[String(page.kind)];
    const { [required[pick % required.length]]: _dropped, ...rest } = page;
    return rest;
  },
  'give a required property another type': (page, pick) => {
    const required = REQUIRED[String(page.kind)];
    const name = required[pick % required.length];
    return { ...page, [name]: otherType(page[name], pick) };
  },
  'an unknown kind': (page, pick) => ({ ...page, kind: ['table', 'LIST', '', 'chart'][pick % 4] }),
  'a misspelt property': (page, pick) => ({ ...page, [['colums', 'titel', 'operations', 'widget'][pick % 4]]: page.title ?? 'x' }),
  'a newer schema version': (page, pick) => ({ ...page, schemaVersion: 2 + (pick % 5) }),
  'not an object at all': (_page, pick) => [null, [], 'list', 7][pick % 4] as Json,
  'break an item of a list': (page, pick) => {
    const lists = ITEM_LISTS.filter((name) => Array.isArray(page[name]) && (page[name] as Json[]).length > 0);
    if (lists.length === 0) return { ...page, title: pick };
    const name = lists[pick % lists.length];
    const items = [...(page[name] as Json[])];
    const index = pick % items.length;
    const item = items[index] as Record<string, Json>;
    const broken: Record<string, Json>[] = [
      { ...item, type: 'bogus-type' },
      { ...item, display: 'bogus-display' },
      { ...item, unexpected: true },
    ];
    const choice = name === 'columns' ? broken[1 + (pick % 2)] : name === 'sections' ? broken[2] : broken[pick % 2 === 0 ? 0 : 2];
    items[index] = pick % 7 === 0 ? 'not-an-item' : choice;
    return { ...page, [name]: items };
  },
};
const NAMES = Object.keys(MUTATIONS);

const brokenSchemas = fc.sample(
  fc.record({ page: fc.nat(PAGES.length - 1), mutation: fc.nat(NAMES.length - 1), pick: fc.nat(1000) }),
  { numRuns: MUTATED, seed: 20261123 },
);

afterEach(cleanup);

describe('bad page schemas', () => {
  it(`has ${MUTATED} broken schemas from the ${PAGES.length} real ones, using every mutation`, () => {
    expect(PAGES.length).toBeGreaterThan(100);
    expect(brokenSchemas).toHaveLength(MUTATED);
    expect(new Set(brokenSchemas.map((sample) => sample.mutation)).size).toBe(NAMES.length);
    // The real ones are valid, so each problem below is the mutation's.
    expect(PAGES.filter(({ page }) => !validatePageSchema(page).ok).map(({ view }) => view)).toEqual([]);
  });

  it('names an unregistered display with its pointer, as npm run check does', () => {
    const list = { schemaVersion: 1, kind: 'list', title: '设备', operation: 'device.page', columns: [{ field: 'code', title: '编码' }, { field: 'state', title: '状态', display: 'sparkle' }] };
    expect(validatePageSchema(list)).toEqual({ ok: false, problems: [{ pointer: '/columns/1/display', message: `未注册的展示方式 sparkle（可用：${DISPLAY_KINDS.names().join('、')}）` }] });
    const board = { schemaVersion: 1, kind: 'dashboard', title: '看板', widgets: [{ type: 'statistic', title: '总数', operation: 'dashboard.overview', display: 'glow' }] };
    expect(validatePageSchema(board)).toEqual({ ok: false, problems: [{ pointer: '/widgets/0/display', message: `未注册的展示方式 glow（可用：${DISPLAY_KINDS.names().join('、')}）` }] });
  });

  it('an action is a built-in by its type, or the console’s by a name with a dot, each with its own fields', () => {
    const listWith = (action: Json) => ({ schemaVersion: 1, kind: 'list', title: '设备', operation: 'device.page', columns: [{ field: 'code', title: '编码' }], rowActions: [action] });
    expect(validatePageSchema(listWith({ type: 'map.locate', label: '定位', params: { code: '{{record.code}}' } })).ok).toBe(true);
    expect(validatePageSchema(listWith({ type: 'call', label: '删除', operation: 'device.delete' })).ok).toBe(true);
    // The console's action takes params, not a built-in's fields; a type with neither shape is refused at its pointer.
    const extra = validatePageSchema(listWith({ type: 'map.locate', label: '定位', operation: 'device.delete' }));
    expect(extra.ok ? [] : extra.problems.map((problem) => problem.pointer)).toContain('/rowActions/0/operation');
    const unknown = validatePageSchema(listWith({ type: 'locate', label: '定位' }));
    expect(unknown.ok ? [] : unknown.problems.map((problem) => problem.pointer)).toContain('/rowActions/0/type');
  });

  it('refuses every one with a pointer, and the renderer shows the error panel with the file', async () => {
    // One mounted console tree; each broken schema in turn replaces the last.
    let show: (next: { view: string; schema: Json }) => void = () => undefined;
    function Harness() {
      const [shown, setShown] = useState<{ view: string; schema: Json } | null>(null);
      show = setShown;
      return shown ? <PageRenderer view={shown.view} schema={shown.schema} /> : null;
    }
    renderWith(<Harness />, fakeServices());
    for (const [index, { page, mutation, pick }] of brokenSchemas.entries()) {
      const { view, page: original } = PAGES[page];
      const broken = MUTATIONS[NAMES[mutation]](structuredClone(original), pick);
      const context = `#${index} ${view}: ${NAMES[mutation]}`;
      const checked = validatePageSchema(broken);
      expect(checked.ok, context).toBe(false);
      if (checked.ok) continue;
      expect(checked.problems.length, context).toBeGreaterThan(0);
      expect(checked.problems.every((problem) => problem.pointer.startsWith('/') && problem.message !== ''), context).toBe(true);

      const file = `schemas/pages/fuzz/${index}/${view}.json`;
      await act(async () => show({ view: `fuzz/${index}/${view}`, schema: broken }));
      // act() has run the renderer's validation (the validator loads once) and its render: the panel is there now.
      const panel = screen.getByText(`页面模式有误：${file}`);
      expect(panel.closest('[data-testid="schema-error"]')?.querySelector('code')?.textContent, context).toMatch(/^\//);
    }
  }, 240_000);
});
