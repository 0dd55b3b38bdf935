// `npm run simulate -- --devices 10000 --rate 2000`: simulated devices report over MQTT (issue 22).
// Issues credentials for the devices with the dev-only operation dev.device.credentials (a server
// started with --dev, as npm start is), signs them in to the broker and publishes their readings at
// the given total rate, QoS 1, printing every few seconds how many are connected and how many
// messages per second were sent and acknowledged. Each device subscribes to its command topic and
// answers the platform's commands as a device would (scripts/simulator/commands.ts: reboot drops off
// and reconnects, report_interval changes its period, a valve command shows in its next metrics).
// Stops on Ctrl-C or after --seconds.
import { parseArgs } from 'node:util';
import { issueCredentials, startSimulation, type SimulationStats } from './simulator/run';

const USAGE = `usage: npm run simulate -- [--devices 10000] [--rate 2000] [--url mqtt://127.0.0.1:1883] [--api http://127.0.0.1:3000]
       [--tenant T0001|all] [--seconds N] [--crossings 0.0005] [--crossing-seconds 360] [--every 5] [--wait 0]`;

const { values } = parseArgs({
  options: {
    devices: { type: 'string', default: '100' },
    rate: { type: 'string' },
    url: { type: 'string', default: process.env.SIMULATE_MQTT_URL ?? `mqtt://127.0.0.1:${process.env.MQTT_PORT || '1883'}` },
    api: { type: 'string', default: process.env.SIMULATE_API ?? `http://127.0.0.1:${process.env.PORT ?? '3000'}` },
    tenant: { type: 'string', default: 'T0001' },
    seconds: { type: 'string' },
    crossings: { type: 'string', default: '0.0005' },
    'crossing-seconds': { type: 'string', default: '360' },
    every: { type: 'string', default: '5' },
    wait: { type: 'string', default: '0' },
    quiet: { type: 'boolean', default: false },
    help: { type: 'boolean', default: false },
  },
});

function numberOf(name: string, raw: string | undefined, min: number, max: number): number {
  const value = Number(raw);
  if (raw === undefined || raw.trim() === '' || !Number.isFinite(value) || value < min || value > max) {
    console.error(`--${name} must be a number from ${min} to ${max}, got ${JSON.stringify(raw)}\n${USAGE}`);
    process.exit(2);
  }
  return value;
}

if (values.help) {
  console.log(USAGE);
  process.exit(0);
}
const count = Math.floor(numberOf('devices', values.devices, 1, 20_000));
// One report per device every 5 s unless told.
const rate = values.rate === undefined ? Math.max(1, count / 5) : numberOf('rate', values.rate, 0.1, 100_000);
const seconds = values.seconds === undefined ? undefined : numberOf('seconds', values.seconds, 1, 7 * 86_400);
const every = numberOf('every', values.every, 1, 3600);
const tag = '[simulate]';

const percentile = (sorted: number[], p: number) => (sorted.length ? sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] : 0);
const thousands = (value: number) => value.toLocaleString('en-US');

const credentials = await issueCredentials(values.api, values.tenant, count, numberOf('wait', values.wait, 0, 600)).catch((error: unknown) => {
  console.error(`${tag} ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
if (credentials.length < count) {
  const whose = values.tenant === 'all' ? 'the tenants have' : `${values.tenant} has`;
  console.log(`${tag} ${whose} ${credentials.length} live devices: simulating those${values.tenant === 'all' ? '' : ' (--tenant all for every tenant’s)'}`);
}
console.log(`${tag} ${credentials.length} devices sign in to ${values.url}, then report ${rate} messages/s (QoS 1)${seconds ? ` for ${seconds} s` : ''}; Ctrl-C stops`);

let signedIn = 0;
const progress = setInterval(() => console.log(`${tag} signing in: ${thousands(signedIn)}/${thousands(credentials.length)}`), every * 1000);
const simulation = await startSimulation({
  url: values.url,
  devices: credentials,
  rate,
  seconds,
  crossingChance: numberOf('crossings', values.crossings, 0, 1),
  crossingSeconds: numberOf('crossing-seconds', values['crossing-seconds'], 1, 86_400),
  onConnected: (connected) => {
    signedIn = connected;
  },
  // Each command a device answers is worth a line: it is what the console is waiting for.
  onCommand: (code, type, result) => {
    if (!values.quiet) console.log(`${tag} ${code} answered ${type}: ${result}`);
  },
});
clearInterval(progress);

let previous: SimulationStats = simulation.stats();
console.log(`${tag} connected ${thousands(previous.connected)}/${thousands(previous.devices)}${previous.connectFailures ? `, ${previous.connectFailures} refused` : ''}`);
const line = (now: SimulationStats) => {
  const span = Math.max(0.001, (now.elapsedMs - previous.elapsedMs) / 1000);
  const sorted = now.latencies.sort((a, b) => a - b);
  const text = [
    `${tag} ${Math.round(now.elapsedMs / 1000)}s`,
    `connected ${thousands(now.connected)}/${thousands(now.devices)}`,
    `sent ${Math.round((now.sent - previous.sent) / span)}/s`,
    `acked ${Math.round((now.acknowledged - previous.acknowledged) / span)}/s`,
    `ack p50 ${Math.round(percentile(sorted, 0.5))} ms p99 ${Math.round(percentile(sorted, 0.99))} ms`,
    `in flight ${now.inFlight}`,
    `failed ${now.failed}`,
    ...(now.behind > previous.behind ? [`behind ${now.behind - previous.behind}`] : []),
    ...(now.disconnects ? [`disconnects ${now.disconnects}`] : []),
    `crossings ${now.crossings}`,
    ...(now.commands ? [`commands ${now.commands}`] : []),
  ].join('  ');
  previous = now;
  console.log(text);
};
const reporter = values.quiet ? null : setInterval(() => line(simulation.stats()), every * 1000);

let interrupted = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (interrupted) process.exit(130);
    interrupted = true;
    console.log(`${tag} stopping: waiting for the acknowledgements in flight (again to quit at once)`);
    void simulation.stop();
  });
}

const final = await simulation.done;
if (reporter) clearInterval(reporter);
const took = final.elapsedMs / 1000;
console.log(
  `${tag} done after ${took.toFixed(1)} s: sent ${thousands(final.sent)}, acknowledged ${thousands(final.acknowledged)} (${Math.round(final.acknowledged / took)}/s), ` +
    `failed ${final.failed}, unacknowledged ${final.inFlight}, refused sign-ins ${final.connectFailures}, disconnects ${final.disconnects}, crossings ${final.crossings}, commands answered ${final.commands}`,
);
if (Object.keys(final.errors).length) console.log(`${tag} errors: ${Object.entries(final.errors).map(([message, times]) => `${message} ×${times}`).join('; ')}`);
process.exit(final.failed || final.inFlight || final.connectFailures ? 1 : 0);
