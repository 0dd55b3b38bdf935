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
  // A starter names operations of its own, never an unrelated real one (issue 25): npm run check
  // names each until it is catalogued and served, and nothing else.
  const OWN: Record<string, string[]> = { list: ['page'], form: ['detail', 'save'], detail: ['detail'], dashboard: ['statistics'] };
  it.each(['list', 'form', 'detail', 'dashboard'])('writes a starting %s schema whose only problems are the operations it names for the user to add', (kind) => {
    const view = `scaffoldprobe/${kind}Page`;
    const file = join(root, 'schemas/pages', `${view}.json`);
    created.push(file);
    const output = execFileSync(tsx, ['scripts/new-page.ts', view, '--kind', kind, '--title', '试验'], { cwd: root, stdio: 'pipe' }).toString();
    expect(existsSync(file)).toBe(true);
    const page = JSON.parse(readFileSync(file, 'utf8')) as { $schema: string; kind: string; title: string };
    expect(page).toMatchObject({ $schema: '../../page.schema.json', kind, title: '试验' });
    const names = OWN[kind].map((verb) => `scaffoldprobe.${kind}Page.${verb}`);
    expect(output).toContain(`还要登记并实现这些接口操作（npm run check 在此之前指出它们）：${names.join('、')}`);
    expect(checkPage(file, page, loadContext(root)).map((problem) => problem.message)).toEqual(names.map((name) => `接口操作 ${name} 未在 schemas/operations.json 中登记`));
    expect(JSON.stringify(page)).not.toMatch(/system\.loginLog|user\.password|user\.detail|notification\.count/);
  }, 30_000);

  it('refuses a bad view name and an existing file', () => {
    expect(() => execFileSync(tsx, ['scripts/new-page.ts', 'Bad Name', '--kind', 'list'], { cwd: root, stdio: 'pipe' })).toThrow();
    expect(() => execFileSync(tsx, ['scripts/new-page.ts', 'system/loginLog', '--kind', 'list'], { cwd: root, stdio: 'pipe' })).toThrow(/已存在/);
  }, 30_000);
});
