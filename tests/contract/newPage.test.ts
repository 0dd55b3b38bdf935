import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkPage, loadContext } from '../../scripts/check';

const root = new URL('../..', import.meta.url).pathname;
const tsx = join(root, 'node_modules/.bin/tsx');
const created: string[] = [];

afterEach(() => {
  for (const path of created.splice(0)) rmSync(path, { force: true });
  rmSync(join(root, 'schemas/pages/scaffoldprobe'), { recursive: true, force: true });
});

describe('npm run new:page', () => {
  it.each(['list', 'form', 'detail', 'dashboard'])('writes a valid starting %s schema', (kind) => {
    const view = `scaffoldprobe/${kind}Page`;
    const file = join(root, 'schemas/pages', `${view}.json`);
    created.push(file);
    execFileSync(tsx, ['scripts/new-page.ts', view, '--kind', kind, '--title', '试验'], { cwd: root, stdio: 'pipe' });
    expect(existsSync(file)).toBe(true);
    const page = JSON.parse(readFileSync(file, 'utf8')) as { $schema: string; kind: string; title: string };
    expect(page).toMatchObject({ $schema: '../../page.schema.json', kind, title: '试验' });
    expect(checkPage(file, page, loadContext(root))).toEqual([]);
  }, 30_000);

  it('refuses a bad view name and an existing file', () => {
    expect(() => execFileSync(tsx, ['scripts/new-page.ts', 'Bad Name', '--kind', 'list'], { cwd: root, stdio: 'pipe' })).toThrow();
    expect(() => execFileSync(tsx, ['scripts/new-page.ts', 'system/loginLog', '--kind', 'list'], { cwd: root, stdio: 'pipe' })).toThrow(/已存在/);
  }, 30_000);
});
