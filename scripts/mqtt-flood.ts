// `npx tsx scripts/mqtt-flood.ts` (issue 30; not in npm test or CI): one device floods the embedded
// broker while twenty others report and /api/health is asked every 20 ms. The server runs as its
// own process (`server/main.ts --memory --dev`, MQTT_PORT); the flooding device runs in a child
// process of this script, so that neither's work shows in the other's figures. Phases (FLOOD_SECONDS
// each, default 10): quiet; 2 MB deeply nested messages, each on a new connection (the issue's
// repro); the largest deeply nested messages the limit lets through (16 KiB of `[`, refused as bad
// JSON); valid small readings at full pace. QoS 0 throughout for the flood (no waiting for an
// answer), QoS 1 for the others (each waits for its PUBACK, as real devices do). Prints per phase
// the health answer times (p50, p99, max), the server's own event-loop delay over the phase (its
// metrics, p99 and max: what the flood costs the server, without the two processes' share of the
// machine), the others' acknowledgement times and what the flood sent.
import { spawn } from 'node:child_process';
import { createServer, type AddressInfo } from 'node:net';
import mqtt, { type MqttClient } from 'mqtt';
import { percentile, startServer } from './bench/common';
import { issueCredentials } from './simulator/run';

const SECONDS = Number(process.env.FLOOD_SECONDS ?? 10);
const OTHERS = 20;
type FloodKind = 'nested-2mb' | 'nested-16k' | 'small';
const PHASES: Array<FloodKind | 'quiet'> = ['quiet', 'nested-2mb', 'nested-16k', 'small'];

interface Device {
  code: string;
  secret: string;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}

const connect = (url: string, device: Device) =>
  mqtt.connectAsync(url, { username: device.code, password: device.secret, clientId: device.code, reconnectPeriod: 0, connectTimeout: 10_000 });

/** The flooding device (this script run as a child with `--flood <kind> <url> <code> <secret>`): floods for SECONDS, prints what it sent. */
async function flood(kind: FloodKind, url: string, device: Device): Promise<void> {
  const until = Date.now() + SECONDS * 1000;
  const topic = `devices/${device.code}/telemetry`;
  let sent = 0;
  let connections = 0;
  if (kind === 'nested-2mb') {
    const payload = Buffer.from('['.repeat(1024 * 1024) + ']'.repeat(1024 * 1024));
    while (Date.now() < until) {
      const client = await connect(url, device).catch(() => null);
      if (!client) continue;
      connections += 1;
      const closed = new Promise<void>((resolve) => client.once('close', () => resolve()));
      client.publish(topic, payload, { qos: 0 });
      sent += 1;
      await Promise.race([closed, sleep(2000)]);
      client.end(true);
    }
  } else {
    const nested = Buffer.from('['.repeat(8000) + ']'.repeat(8000));
    const payload = (k: number) => (kind === 'small' ? JSON.stringify({ batteryLevel: k % 100 }) : nested);
    let client: MqttClient | null = null;
    let pending = 0;
    while (Date.now() < until) {
      if (!client || !client.connected) {
        client = await connect(url, device).catch(() => null);
        if (!client) continue;
        connections += 1;
      }
      // QoS 0: the callback comes once the message is written; at most 64 not yet written.
      if (pending >= 64) {
        await sleep(1);
        continue;
      }
      pending += 1;
      client.publish(topic, payload(sent), { qos: 0 }, () => (pending -= 1));
      sent += 1;
      if (sent % 64 === 0) await new Promise((resolve) => setImmediate(resolve));
    }
    client?.end(true);
  }
  console.log(JSON.stringify({ sent, connections }));
}

/** Runs the flooding device in a child process; resolves with what it printed. */
function runFlooder(kind: FloodKind, url: string, device: Device): Promise<{ sent: number; connections: number }> {
  const child = spawn(process.execPath, ['--import', 'tsx', new URL(import.meta.url).pathname, '--flood', kind, url, device.code, device.secret], { stdio: ['ignore', 'pipe', 'inherit'] });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.once('exit', (code) => {
      const line = output.trim().split('\n').at(-1) ?? '';
      if (code === 0 && line.startsWith('{')) resolve(JSON.parse(line) as { sent: number; connections: number });
      else reject(new Error(`the flooder exited with ${code}: ${output}`));
    });
  });
}

/** Asks /api/health every 20 ms until stopped; answers the answer times (ms). */
function probeHealth(url: string): { stop: () => Promise<number[]> } {
  const times: number[] = [];
  let running = true;
  const loop = (async () => {
    while (running) {
      const started = performance.now();
      await fetch(`${url}/api/health`).then((reply) => reply.arrayBuffer());
      times.push(performance.now() - started);
      await sleep(20);
    }
  })();
  return {
    stop: async () => {
      running = false;
      await loop;
      return times;
    },
  };
}

/** Each of the other devices publishes a reading every 200 ms (QoS 1, waiting for its PUBACK); answers the acknowledgement times. */
function reportQuietly(clients: readonly MqttClient[], codes: readonly string[]): { stop: () => Promise<{ acks: number[]; failed: number }> } {
  const acks: number[] = [];
  let failed = 0;
  let running = true;
  const loops = clients.map(async (client, k) => {
    while (running) {
      const started = performance.now();
      try {
        await client.publishAsync(`devices/${codes[k]}/telemetry`, JSON.stringify({ batteryLevel: 50 + (k % 40) }), { qos: 1 });
        acks.push(performance.now() - started);
      } catch {
        failed += 1;
      }
      await sleep(200);
    }
  });
  return {
    stop: async () => {
      running = false;
      await Promise.all(loops);
      return { acks, failed };
    },
  };
}

const ms = (values: number[], p: number) => (values.length ? percentile(values, p).toFixed(1) : '-');
const METRICS_TOKEN = 'mqtt-flood-metrics-token-0123456789';

/** The server's event-loop delay since the last scrape (prom-client resets it at each), p99 and max in ms. */
async function eventLoopDelay(url: string): Promise<{ p99: number; max: number }> {
  const text = await (await fetch(`${url}/api/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } })).text();
  const read = (name: string) => Number(new RegExp(`^iot_nodejs_eventloop_lag_${name}_seconds (\\S+)$`, 'm').exec(text)?.[1] ?? Number.NaN) * 1000;
  return { p99: read('p99'), max: read('max') };
}

async function main(): Promise<void> {
  const mqttPort = await freePort();
  const server = await startServer(['--memory', '--dev', '--port', '0', '--host', '127.0.0.1'], 600_000, {
    MQTT_PORT: String(mqttPort),
    MQTT_HOST: '127.0.0.1',
    MQTT_URL: undefined,
    DATABASE_URL: undefined,
    SIMULATE_DEVICES: undefined,
    METRICS_TOKEN,
  });
  const url = `mqtt://127.0.0.1:${mqttPort}`;
  try {
    const [flooder, ...others] = await issueCredentials(server.url, 'T0001', OTHERS + 1);
    const clients = await Promise.all(others.map((device) => connect(url, device)));
    console.log(`phase        health p50 / p99 / max (ms)   event loop p99 / max (ms)   others' PUBACK p50 / p99 (ms)   flood sent (connections)`);
    for (const phase of PHASES) {
      await eventLoopDelay(server.url);
      const health = probeHealth(server.url);
      const quiet = reportQuietly(
        clients,
        others.map((device) => device.code),
      );
      const flooded = phase === 'quiet' ? sleep(SECONDS * 1000).then(() => null) : runFlooder(phase, url, flooder);
      const sent = await flooded;
      const times = await health.stop();
      const { acks, failed } = await quiet.stop();
      const lag = await eventLoopDelay(server.url);
      console.log(
        [
          phase.padEnd(12),
          `${ms(times, 50)} / ${ms(times, 99)} / ${Math.max(...times).toFixed(1)}`.padEnd(29),
          `${lag.p99.toFixed(1)} / ${lag.max.toFixed(1)}`.padEnd(27),
          `${ms(acks, 50)} / ${ms(acks, 99)}${failed ? ` (${failed} failed)` : ''}`.padEnd(31),
          sent ? `${sent.sent} (${sent.connections})` : '-',
        ].join(' '),
      );
    }
    await Promise.all(clients.map((client) => client.endAsync(true)));
  } finally {
    await server.stop();
  }
}

const args = process.argv.slice(2);
if (args[0] === '--flood') {
  const [, kind, url, code, secret] = args;
  flood(kind as FloodKind, url, { code, secret }).then(
    () => process.exit(0),
    (error: unknown) => {
      console.error(error);
      process.exit(1);
    },
  );
} else {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
