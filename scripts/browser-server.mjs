// One reference server for the browser suite: `--build` builds the console and writes the seeded
// database's dump (unless SEEDED_DUMP names one that `npm test` already wrote), then
// marks both with this run's stamp; every server waits for that mark, then serves the same dist/
// from its own in-memory copy of the same dump.
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

const shared = process.env.SEEDED_DUMP;
const dump = shared && existsSync(shared) ? shared : join(root, '.tmp', 'browser-seeded.tar');

if (values.build) {
  const built = spawnSync(bin('vite'), ['build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
  if (built.status !== 0) process.exit(built.status ?? 1);
  mkdirSync(join(root, '.tmp'), { recursive: true });
  if (dump !== shared) {
    const seeded = spawnSync(bin('tsx'), ['scripts/seed-dump.ts', dump], { cwd: root, stdio: 'inherit' });
    if (seeded.status !== 0) process.exit(seeded.status ?? 1);
  }
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

// tsx as a loader in one process (see scripts/start.mjs: its CLI kills a busy server on SIGTERM).
const server = spawn(process.execPath, ['--import', 'tsx', 'server/main.ts', '--dump', dump, '--dev', '--static', 'dist', '--host', '127.0.0.1', '--port', values.port], {
  cwd: root,
  stdio: 'inherit',
  // A line per call from two servers would bury the test report: slow calls and faults only.
  // The offline sweep every 5 s instead of every minute: a test that makes a device silent
  // (dev.device.silence) sees it go offline in seconds.
  env: { ...process.env, LOG_LEVEL: process.env.LOG_LEVEL ?? 'warn', OFFLINE_SWEEP_SECONDS: process.env.OFFLINE_SWEEP_SECONDS ?? '5' },
});
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 1));
