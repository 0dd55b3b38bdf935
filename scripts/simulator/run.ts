import mqtt, { type MqttClient } from 'mqtt';
import { loadCatalogue } from '../../server/catalogue';
import { CommandTaker, COMMAND_HANDLERS, type CommandHandler } from './commands';
import { SimulatedDevice, type CrossingKind, type DeviceStart } from './readings';

/**
 * The device simulator's core (issue 22; scripts/simulate.ts is its command line, npm start runs a
 * small one): it signs devices in to an MQTT broker with their own credentials, then publishes their
 * readings at a total rate spread evenly over time (round robin, one message in flight per device
 * as a real device waits for its PUBACK), QoS 1, counting what was sent, acknowledged and failed.
 * Each device subscribes to its command topic and answers the platform's commands (commands.ts).
 */

/** A device to drive: its credential and where its readings start (what dev.device.credentials answers). */
export interface DeviceCredential extends DeviceStart {
  secret: string;
}

export interface SimulationOptions {
  /** The broker, mqtt://host:port. */
  url: string;
  devices: readonly DeviceCredential[];
  /** Messages per second, all devices together. */
  rate: number;
  /** Stop by itself after this long of publishing (after every device is connected); runs until stop() otherwise. */
  seconds?: number;
  /** The share of reports that begin a threshold crossing (0 = never). */
  crossingChance?: number;
  /** How long a crossing lasts, on average (each lasts half to twice this). */
  crossingSeconds?: number;
  /** Devices signing in at once. */
  connectConcurrency?: number;
  /** After a dropped connection, try again after this long (0 = never). */
  reconnectMs?: number;
  /** Random numbers (tests make them repeatable). */
  random?: () => number;
  /** Told of every connected device while the devices sign in (progress). */
  onConnected?: (connected: number, total: number) => void;
  /** How the devices answer commands (COMMAND_HANDLERS by default; the firmware upgrade adds `ota`). */
  commandHandlers?: Readonly<Record<string, CommandHandler>>;
  /** Told of every command a device answered. */
  onCommand?: (code: string, type: string, result: 'ok' | 'failed') => void;
}

export interface SimulationStats {
  devices: number;
  connected: number;
  /** Devices whose sign-in was refused or failed. */
  connectFailures: number;
  /** Connections lost after sign-in. */
  disconnects: number;
  sent: number;
  acknowledged: number;
  failed: number;
  inFlight: number;
  /** Crossings begun (chance or forced). */
  crossings: number;
  /** Reports due that were not sent because their turn found every device still waiting for a PUBACK. */
  behind: number;
  /** Commands the devices answered. */
  commands: number;
  /** Milliseconds since publishing began. */
  elapsedMs: number;
  /** Acknowledgement times (ms) since the previous stats(). */
  latencies: number[];
  /** What went wrong (connections refused or lost, publishes failed), by message. */
  errors: Record<string, number>;
}

export interface Simulation {
  /** The counters so far; `latencies` are the ones since the previous call (then forgotten). */
  stats(): SimulationStats;
  /** Makes a device's next reports cross a threshold now (the product's first crossing unless told). */
  cross(code: string, kind?: CrossingKind, seconds?: number): void;
  /** Stops publishing, waits up to `drainMs` for the acknowledgements in flight, signs every device out. */
  stop(drainMs?: number): Promise<SimulationStats>;
  /** Settles when the simulation has stopped (by stop() or after `seconds`). */
  done: Promise<SimulationStats>;
}

interface Driven {
  device: SimulatedDevice;
  credential: DeviceCredential;
  client: MqttClient | null;
  waiting: boolean;
  commands: CommandTaker | null;
}

const TICK_MS = 10;

/** Signs one device in; resolves with its client, or null when the broker refused it. */
function connectDevice(url: string, credential: DeviceCredential, reconnectMs: number, onLost: () => void, onError: (message: string) => void): Promise<MqttClient | null> {
  return new Promise((resolve) => {
    const client = mqtt.connect(url, {
      // The broker takes a device's code as its client id, and no other.
      clientId: credential.code,
      username: credential.code,
      password: credential.secret,
      protocolVersion: 4,
      clean: true,
      keepalive: 60,
      connectTimeout: 30_000,
      reconnectPeriod: 0,
    });
    let connected = false;
    client.once('connect', () => {
      connected = true;
      // Reconnect only once signed in: a refused credential is final.
      client.options.reconnectPeriod = reconnectMs;
      resolve(client);
    });
    client.on('close', () => {
      if (connected) onLost();
      else {
        client.end(true);
        resolve(null);
      }
    });
    // An error is followed by the close that counts it; its message says why (a listener also keeps it from throwing).
    client.on('error', (error) => onError(error.message));
  });
}

interface CommandOptions {
  reconnectMs: number;
  random: () => number;
  handlers: Readonly<Record<string, CommandHandler>>;
  /** Told of every command answered. */
  answered: (code: string, type: string, result: 'ok' | 'failed') => void;
  noteError: (message: string) => void;
}

interface ConnectEvents {
  lost(): void;
  connected(entry: Driven): void;
  refused(): void;
  noteError(message: string): void;
}

/** Signs the devices in, `concurrency` at a time, telling `events` of each one in or refused. */
async function connectAll(driven: Driven[], url: string, concurrency: number, reconnectMs: number, events: ConnectEvents): Promise<void> {
  let next = 0;
  await Promise.all(
    Array.from({ length: Math.min(concurrency, driven.length) }, async () => {
      while (next < driven.length) {
        const entry = driven[next];
        next += 1;
        entry.client = await connectDevice(url, entry.credential, reconnectMs, events.lost, events.noteError);
        if (entry.client) events.connected(entry);
        else events.refused();
      }
    }),
  );
}

/** Subscribes a connected device to its commands (again after each reconnection, by the client) and answers them. */
function answerCommands(entry: Driven, options: CommandOptions): void {
  const client = entry.client!;
  const { code } = entry.credential;
  const topic = `devices/${code}/commands`;
  entry.commands = new CommandTaker(
    {
      device: entry.device,
      publish: async (report) => {
        await client.publishAsync(`devices/${code}/telemetry`, JSON.stringify(report), { qos: 1 });
      },
      reconnect: async (afterMs) => {
        client.options.reconnectPeriod = afterMs;
        // As a device that reboots: its connection ends without a DISCONNECT; the client signs in again after afterMs.
        client.stream.destroy();
        await new Promise<void>((resolve) => client.once('connect', () => resolve()));
        client.options.reconnectPeriod = options.reconnectMs;
      },
      random: options.random,
    },
    async (answer) => {
      await client.publishAsync(`${topic}/reply`, JSON.stringify(answer), { qos: 1 });
    },
    options.handlers,
  );
  client.on('message', (received, payload) => {
    if (received !== topic) return;
    entry.commands?.take(payload).then(
      (answered) => {
        if (answered) options.answered(code, answered.type, answered.result);
      },
      (error: unknown) => options.noteError(error instanceof Error ? error.message : String(error)),
    );
  });
  client.subscribe(topic, { qos: 1 }, (error) => {
    if (error) options.noteError(error.message);
  });
}

/**
 * Every TICK_MS, publishes what `rate` messages a second allow (at most half a second's worth owed),
 * round robin over the devices that are connected, not waiting for a PUBACK and due; tells `behind`
 * what it could not send. Answers the timer (none without a rate or devices).
 */
function startTicking(driven: readonly Driven[], rate: number, publish: (entry: Driven) => void, behind: (count: number) => void): ReturnType<typeof setInterval> | null {
  if (rate <= 0 || driven.length === 0) return null;
  let credit = 0;
  let last = performance.now();
  let turn = 0;
  return setInterval(() => {
    const now = performance.now();
    credit = Math.min(credit + ((now - last) / 1000) * rate, Math.max(1, rate / 2));
    last = now;
    let tried = 0;
    while (credit >= 1 && tried < driven.length) {
      const entry = driven[turn];
      turn = (turn + 1) % driven.length;
      tried += 1;
      if (!entry.client?.connected || entry.waiting || !entry.device.due(Date.now())) continue;
      publish(entry);
      credit -= 1;
    }
    if (credit >= 1) {
      behind(Math.floor(credit));
      credit -= Math.floor(credit);
    }
  }, TICK_MS);
}

/** Connects the devices and publishes their readings until stopped. Resolves once every device has signed in (or failed to). */
export async function startSimulation(options: SimulationOptions): Promise<Simulation> {
  const random = options.random ?? Math.random;
  const crossingChance = options.crossingChance ?? 0.0005;
  const crossingSeconds = options.crossingSeconds ?? 360;
  const reconnectMs = options.reconnectMs ?? 2000;
  const driven: Driven[] = options.devices.map((credential) => ({ device: new SimulatedDevice(credential, random), credential, client: null, waiting: false, commands: null }));
  const byCode = new Map(driven.map((entry) => [entry.credential.code, entry]));
  const counters = { connectFailures: 0, disconnects: 0, sent: 0, acknowledged: 0, failed: 0, inFlight: 0, crossings: 0, behind: 0, commands: 0 };
  let latencies: number[] = [];
  const errors = new Map<string, number>();
  const noteError = (message: string) => errors.set(message, (errors.get(message) ?? 0) + 1);

  let connectedCount = 0;
  const commandOptions: CommandOptions = {
    reconnectMs,
    random,
    handlers: options.commandHandlers ?? COMMAND_HANDLERS,
    answered: (code, type, result) => {
      counters.commands += 1;
      options.onCommand?.(code, type, result);
    },
    noteError,
  };
  await connectAll(driven, options.url, Math.max(1, options.connectConcurrency ?? 100), reconnectMs, {
    lost: () => {
      counters.disconnects += 1;
    },
    connected: (entry) => {
      answerCommands(entry, commandOptions);
      connectedCount += 1;
      options.onConnected?.(connectedCount, driven.length);
    },
    refused: () => {
      counters.connectFailures += 1;
    },
    noteError,
  });

  const started = performance.now();
  let stopping: Promise<SimulationStats> | null = null;
  let settle: (stats: SimulationStats) => void = () => undefined;
  const done = new Promise<SimulationStats>((resolve) => {
    settle = resolve;
  });

  const publish = (entry: Driven) => {
    const now = Date.now();
    if (crossingChance > 0 && !entry.device.crossingAt(now) && random() < crossingChance) {
      const kinds = entry.device.crossings();
      entry.device.cross(now, crossingSeconds * (0.5 + random() * 1.5), kinds[Math.floor(random() * kinds.length)]);
      counters.crossings += 1;
    }
    const report = entry.device.report(now);
    const sentAt = performance.now();
    entry.waiting = true;
    counters.sent += 1;
    counters.inFlight += 1;
    entry.client!.publish(`devices/${entry.credential.code}/telemetry`, JSON.stringify(report), { qos: 1 }, (error) => {
      entry.waiting = false;
      counters.inFlight -= 1;
      if (error) {
        counters.failed += 1;
        noteError(error.message);
      } else {
        counters.acknowledged += 1;
        latencies.push(performance.now() - sentAt);
      }
    });
  };

  const ticker = startTicking(driven, options.rate, publish, (count) => {
    counters.behind += count;
  });

  const stats = (): SimulationStats => {
    const taken = latencies;
    latencies = [];
    return {
      devices: driven.length,
      connected: driven.filter((entry) => entry.client?.connected).length,
      ...counters,
      elapsedMs: performance.now() - started,
      latencies: taken,
      errors: Object.fromEntries(errors),
    };
  };

  const stop = (drainMs = 10_000): Promise<SimulationStats> => {
    stopping ??= (async () => {
      if (ticker) clearInterval(ticker);
      clearTimeout(timer);
      const until = performance.now() + drainMs;
      while (counters.inFlight > 0 && performance.now() < until) await new Promise((resolve) => setTimeout(resolve, 20));
      const final = stats();
      await Promise.all(driven.map((entry) => (entry.client ? entry.client.endAsync(true) : Promise.resolve())));
      settle(final);
      return final;
    })();
    return stopping;
  };
  const timer = options.seconds === undefined ? undefined : setTimeout(() => void stop(), options.seconds * 1000);

  return {
    stats,
    cross(code, kind, seconds = crossingSeconds) {
      const entry = byCode.get(code);
      if (!entry) throw new Error(`${code} is not a simulated device`);
      entry.device.cross(Date.now(), seconds, kind);
      counters.crossings += 1;
    },
    stop,
    done,
  };
}

/** Where dev.device.credentials is served, under the API's origin. */
export const CREDENTIALS_PATH = `/api${loadCatalogue()['dev.device.credentials'].path}`;

/**
 * Issues credentials for up to `count` live devices of `tenantCode` (or "all") with the dev-only
 * operation dev.device.credentials (served by a server started with --dev, as npm start does).
 * Waits up to `waitSeconds` for a server that is still starting.
 */
export async function issueCredentials(api: string, tenantCode: string, count: number, waitSeconds = 0): Promise<DeviceCredential[]> {
  const url = new URL(CREDENTIALS_PATH, api);
  const deadline = Date.now() + waitSeconds * 1000;
  for (;;) {
    let response: Response;
    try {
      response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ param: { tenantCode, count } }) });
    } catch (error) {
      if (Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 500));
        continue;
      }
      throw new Error(`no platform server answers at ${api}: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
    }
    const body = (await response.json().catch(() => ({}))) as { code?: string; message?: string; data?: DeviceCredential[] };
    if (body.code === '200' && Array.isArray(body.data)) return body.data;
    if (body.code === '404' && body.message === '接口不存在') throw new Error(`${api} does not serve dev operations: start the server with --dev (npm start does)`);
    throw new Error(`dev.device.credentials answered ${body.code ?? response.status}: ${body.message ?? response.statusText}`);
  }
}
