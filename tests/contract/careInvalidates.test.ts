import { readdirSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { isStaleAfter } from '../../renderers/data/invalidation';
import { composeFile, pageVariants, parseViewRef } from '../../renderers/schema/compose';
import { schemaFileReader } from '../../scripts/pageSources';

// Issue 20: a device put under care (关注) or taken out of it shows at once on every open page that
// shows the care state (设备列表's 我关注的, 全部设备's 关注/取消关注, 设备详情), in any tab: each
// care change declares what it makes stale, and the data layer reloads those answers.
const root = new URL('../..', import.meta.url).pathname;
const pagesDir = join(root, 'schemas/pages');
const read = schemaFileReader(root);
type Json = Record<string, unknown>;

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    return statSync(path).isDirectory() ? files(path) : name.endsWith('.json') ? [path] : [];
  });
}

/** Every page as the console composes it, once per combination of its parameters. */
const pages: Array<{ ref: string; page: Json }> = files(pagesDir).flatMap((path) => {
  const file = relative(root, path);
  const view = relative(pagesDir, path).replace(/\.json$/, '');
  const source = read(file);
  return pageVariants(view, source).map((ref) => ({ ref, page: composeFile(source, file, parseViewRef(ref).params, read).value as Json }));
});

/** Does the value name the care mark anywhere (a column, a field, a condition `{{record.followed …}}`)? */
const namesCare = (value: unknown): boolean =>
  typeof value === 'string'
    ? /\brecord\.followed\b/.test(value)
    : Array.isArray(value)
      ? value.some(namesCare)
      : value && typeof value === 'object'
        ? Object.entries(value).some(([key, item]) => (key === 'field' && item === 'followed') || namesCare(item))
        : false;

/** The answers that show the care state: those of the pages naming `followed`, and the followed devices' list. */
const showing = new Set<string>(['device.care.page']);
for (const { page } of pages) {
  if (!namesCare(page)) continue;
  if (page.kind === 'list') showing.add(String(page.operation));
  if (page.kind === 'detail') showing.add(String((page.load as Json).operation));
}

/** Every care change: call actions (chain steps too) and form submits of device.care.add / remove. */
const changes: Array<{ where: string; operation: string; invalidates: string[] }> = [];
const CARE = ['device.care.add', 'device.care.remove'];
const walk = (ref: string, pointer: string, value: unknown): void => {
  if (Array.isArray(value)) return value.forEach((item, i) => walk(ref, `${pointer}/${i}`, item));
  if (!value || typeof value !== 'object') return;
  const node = value as Json;
  if (node.type === 'call' && CARE.includes(String(node.operation))) changes.push({ where: `${ref} ${pointer}`, operation: String(node.operation), invalidates: (node.invalidates as string[] | undefined) ?? [] });
  for (const [key, item] of Object.entries(node)) walk(ref, `${pointer}/${key}`, item);
};
for (const { ref, page } of pages) {
  walk(ref, '', page);
  const submit = page.kind === 'form' ? (page.submit as Json) : undefined;
  if (submit && CARE.includes(String(submit.operation))) changes.push({ where: `${ref} /submit`, operation: String(submit.operation), invalidates: (submit.invalidates as string[] | undefined) ?? [] });
}

describe('the care state after 关注 / 取消关注 (issue 20)', () => {
  it('is shown by 设备列表 (statistics), 全部设备 (device page) and 设备详情, and changed from four places', () => {
    expect([...showing].sort()).toEqual(expect.arrayContaining(['device.care.page', 'device.detail', 'device.page', 'device.statistics']));
    expect(changes.map((change) => change.where.split(' ')[0]).sort()).toEqual(['device/all', 'device/all', 'device/care', 'device/careForm', 'device/detail', 'device/detail']);
  });

  it('every care change makes every answer that shows the care state stale', () => {
    const missed = changes.flatMap((change) => [...showing].filter((shown) => !isStaleAfter(change.operation, shown, change.invalidates)).map((shown) => `${change.where}: ${shown}`));
    expect(missed).toEqual([]);
  });
});
