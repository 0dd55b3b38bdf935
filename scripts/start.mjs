// `npm start`: install what is missing, build the console when its sources changed, then start
// the reference server on its embedded database (demo data on first start) serving the console.
import { spawn } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { bin, ensureDependencies, root, run } from './deps.mjs';

ensureDependencies();

function newest(path) {
  if (!existsSync(path)) return 0;
  const stat = statSync(path);
  if (!stat.isDirectory()) return stat.mtimeMs;
  return readdirSync(path).reduce((max, name) => Math.max(max, newest(join(path, name))), stat.mtimeMs);
}

const sources = ['src', 'renderers', 'schemas', 'index.html', 'vite.config.ts', 'scripts/pageValidatorPlugin.ts', 'scripts/consoleCataloguePlugin.ts', 'package-lock.json'].map((p) => join(root, p));
const built = existsSync(join(root, 'dist', 'index.html')) ? statSync(join(root, 'dist', 'index.html')).mtimeMs : 0;
if (Math.max(...sources.map(newest)) > built) {
  console.log('构建控制台…');
  if (run(bin('vite'), ['build', '--logLevel', 'warn']) !== 0) process.exit(1);
}

const port = process.env.PORT ?? '3000';
const args = ['server/main.ts', '--static', 'dist', '--dev', '--port', port, ...process.argv.slice(2)];
// tsx as a loader in one process, not its CLI: the CLI relays SIGTERM and kills a server that is too
// busy to acknowledge within 30 ms, so the requests in flight would not be drained.
// Devices report to the embedded MQTT broker on 1883 unless MQTT_PORT says otherwise (empty: none)
// or MQTT_URL names an external broker.
const env = { ...process.env, ...(process.env.MQTT_URL ? {} : { MQTT_PORT: process.env.MQTT_PORT ?? '1883' }) };
const server = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, stdio: 'inherit', env });
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => server.kill(signal));
server.on('exit', (code) => process.exit(code ?? 0));
