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
// `--simulate N` (or SIMULATE_DEVICES=N): N simulated devices report over MQTT, so the console moves.
const given = process.argv.slice(2);
const simulateAt = given.indexOf('--simulate');
const simulated = simulateAt >= 0 ? given[simulateAt + 1] : process.env.SIMULATE_DEVICES;
if (simulateAt >= 0) given.splice(simulateAt, 2);
if (simulated !== undefined && !/^[1-9][0-9]{0,3}$/.test(simulated)) {
  console.error(`--simulate / SIMULATE_DEVICES: a number of devices from 1 to 9999, got ${JSON.stringify(simulated)}`);
  process.exit(2);
}
const args = ['server/main.ts', '--static', 'dist', '--dev', '--port', port, ...given];
// tsx as a loader in one process, not its CLI: the CLI relays SIGTERM and kills a server that is too
// busy to acknowledge within 30 ms, so the requests in flight would not be drained.
// Devices report to the embedded MQTT broker on 1883 unless MQTT_PORT says otherwise (empty: none)
// or MQTT_URL names an external broker.
const env = { ...process.env, ...(process.env.MQTT_URL ? {} : { MQTT_PORT: process.env.MQTT_PORT ?? '1883' }) };
const server = spawn(process.execPath, ['--import', 'tsx', ...args], { cwd: root, stdio: 'inherit', env });
// The simulator waits for the server, takes credentials for the first devices of T0001 from the
// dev-only dev.device.credentials and has them report every 5 s, a crossing now and then; a line a minute.
const mqttPort = env.MQTT_PORT;
let simulator = null;
if (simulated !== undefined) {
  if (!process.env.MQTT_URL && (!mqttPort || mqttPort === '0')) console.log('--simulate: no MQTT broker to report to (MQTT_PORT is empty or 0)');
  else {
    const url = process.env.MQTT_URL ? brokerWithoutUser(process.env.MQTT_URL) : `mqtt://127.0.0.1:${mqttPort}`;
    const options = ['--devices', simulated, '--url', url, '--api', `http://127.0.0.1:${port}`, '--wait', '300', '--crossings', '0.005', '--every', '60'];
    simulator = spawn(process.execPath, ['--import', 'tsx', 'scripts/simulate.ts', ...options], { cwd: root, stdio: 'inherit', env });
  }
}
function brokerWithoutUser(address) {
  const url = new URL(address);
  url.username = '';
  url.password = '';
  return url.toString();
}
for (const signal of ['SIGINT', 'SIGTERM']) process.on(signal, () => {
  simulator?.kill(signal);
  server.kill(signal);
});
server.on('exit', (code) => {
  simulator?.kill('SIGTERM');
  process.exit(code ?? 0);
});
