import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// `npm run bench` builds its pages (scripts/bench/app: the console's renderer beside hand-written
// antd baselines) with scripts/bench/vite.config.ts before it measures anything. That build once
// validated page files without composing them first and stopped at 构建基准页 (issue 35), unseen
// because nothing in `npm test` ran it: this does.
const root = new URL('../..', import.meta.url).pathname;
const outDir = mkdtempSync(join(tmpdir(), 'bench-pages-'));
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

describe('the benchmark pages', () => {
  it('build as npm run bench builds them, every page file composed and valid', () => {
    execFileSync(join(root, 'node_modules/.bin/vite'), ['build', '--config', 'scripts/bench/vite.config.ts', '--outDir', outDir, '--logLevel', 'error'], {
      cwd: root,
      stdio: 'pipe',
      env: { ...process.env, NODE_ENV: 'production' },
    });
    expect(existsSync(join(outDir, 'index.html'))).toBe(true);
    expect(readdirSync(join(outDir, 'assets')).some((file) => file.endsWith('.js'))).toBe(true);
  }, 180_000);
});
