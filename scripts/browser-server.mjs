// One reference server for the browser suite: `--build` builds the console first and marks the
// build with this run's stamp; the others wait for that mark, then serve the same dist/.
// Usage: node scripts/browser-server.mjs --port 4310 --stamp <run> [--build]
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { bin, root } from './deps.mjs';

const { values } = parseArgs({ options: { port: { type: 'string' }, stamp: { type: 'string' }, build: { type: 'boolean', default: false } } });
if (!values.port || !values.stamp) {
  console.error('usage: node scripts/browser-server.mjs --port N --stamp S [--build]');
  process.exit(2);
}
const mark = join(root, '.tmp', 'browser-build.stamp');
const BUILD_WAIT_MS = 300_000;

if (values.build) {
  const built = spawnSync(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  mkdirSync(join(root, '.tmp'), { recursive: true });
  writeFileSync(mark, values.stamp);
} else {
  const started = Date.now();
  while (!(existsSync(mark) && readFileSync(mark, 'utf8') === values.stamp)) {
    if (Date.now() - started > BUILD_WAIT_MS) {
      console.error('the console build did not finish in time');
      process.exit(1);
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

const server = spawn(bin('tsx'), ['server/main.ts', '--memory', '--dev', '--static', 'dist', '--host', '127.0.0.1', '--port', values.port], { cwd: root, stdio: 'inherit' });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
