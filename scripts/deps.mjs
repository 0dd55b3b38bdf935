// Installs what is missing before `npm start` and `npm test` (plain Node: runs before any install).
import { spawnSync } from 'node:child_process';
import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';

export const root = new URL('..', import.meta.url).pathname;

function mtime(path) {
  return existsSync(path) ? statSync(path).mtimeMs : 0;
}

/** True when node_modules is missing or older than package.json / package-lock.json. */
export function dependenciesStale() {
  const installed = mtime(join(root, 'node_modules', '.package-lock.json'));
  if (!installed) return true;
  return mtime(join(root, 'package.json')) > installed || mtime(join(root, 'package-lock.json')) > installed;
}

export function ensureDependencies() {
  if (!dependenciesStale()) return;
  const ci = process.env.CI === 'true' && existsSync(join(root, 'package-lock.json'));
  console.log(ci ? '安装依赖（npm ci）…' : '安装依赖（npm install）…');
  const result = spawnSync('npm', [ci ? 'ci' : 'install', '--no-audit', '--no-fund'], {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' },
  });
  if (result.status !== 0) {
    console.error('依赖安装失败');
    process.exit(result.status ?? 1);
  }
}

export function bin(name) {
  return join(root, 'node_modules', '.bin', name);
}

/** Runs a command in the project folder, inheriting the terminal; answers its exit code. */
export function run(command, args, env = {}) {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  return result.status ?? 1;
}
