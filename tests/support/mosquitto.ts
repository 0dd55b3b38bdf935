import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { connect, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

/**
 * Debian's Mosquitto 2 for the tests (issue 36): started on a free loopback port with a config file
 * and a dynamic-security file of its own in a temporary folder, stopped (and started again, its
 * accounts kept in that file) by the test. The platform's account is made as README "Brokers" says:
 * `mosquitto_ctrl dynsec init` makes it the plugin's admin, and one ACL lets it publish commands.
 */

export const MOSQUITTO = '/usr/sbin/mosquitto';
export const MOSQUITTO_CTRL = '/usr/bin/mosquitto_ctrl';
/** Debian's multiarch folder of the plugin (x86_64-linux-gnu, aarch64-linux-gnu …); '' when none has it. */
export const DYNSEC_PLUGIN = dynsecPlugin();

function dynsecPlugin(): string {
  const folders = existsSync('/usr/lib') ? readdirSync('/usr/lib').filter((name) => name.endsWith('-linux-gnu')) : [];
  return folders.map((folder) => `/usr/lib/${folder}/mosquitto_dynamic_security.so`).find((file) => existsSync(file)) ?? '';
}
export const INSTALL_MOSQUITTO = 'Mosquitto 测试需要 Debian 的 mosquitto（含 mosquitto_ctrl 与动态安全插件）：apt-get install -y mosquitto';

const run = promisify(execFile);

/** The test's own account on the plugin (not the platform's). */
const OPERATOR = { user: 'test-operator', password: 'test-operator-password-1' };

export interface Mosquitto {
  port: number;
  /** The broker's address with a user's credentials. */
  url(user: string, password: string): string;
  /** Runs `mosquitto_ctrl dynsec …` against the broker as the test's own admin account; answers what it printed. */
  ctrl(...args: string[]): Promise<string>;
  /** `ctrl` for a command that prints what it read (getClient, getRole, listClients, listRoles): asked again when it printed nothing. */
  read(...args: string[]): Promise<string>;
  /** What the broker logged. */
  log(): string;
  /** Stops the broker (SIGTERM, waited for). */
  stop(): Promise<void>;
  /** Starts it again on the same port, with the accounts it had. */
  start(): Promise<void>;
  /** Stops it and removes its folder. */
  dispose(): Promise<void>;
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      server.close(() => resolve(port));
    });
  });
}

function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

/** Starts a Mosquitto whose dynamic-security admin is `admin` (the platform's MQTT_URL user). */
export async function startMosquitto(admin: { user: string; password: string }): Promise<Mosquitto> {
  if (![MOSQUITTO, MOSQUITTO_CTRL, DYNSEC_PLUGIN].every((file) => existsSync(file))) throw new Error(INSTALL_MOSQUITTO);
  const dir = mkdtempSync(join(tmpdir(), 'iot-mosquitto-'));
  const port = await freePort();
  const dynsecFile = join(dir, 'dynamic-security.json');
  await run(MOSQUITTO_CTRL, ['dynsec', 'init', dynsecFile, admin.user, admin.password]);
  const configFile = join(dir, 'mosquitto.conf');
  writeFileSync(
    configFile,
    [
      'per_listener_settings false',
      `listener ${port} 127.0.0.1`,
      'allow_anonymous false',
      `plugin ${DYNSEC_PLUGIN}`,
      `plugin_opt_config_file ${dynsecFile}`,
      // Sessions in memory: a restart forgets them (the platform subscribes again).
      'persistence false',
      // A member of a shared subscription that is away keeps being handed its share until it is taken over.
      'max_queued_messages 100000',
      'log_dest stdout',
      'log_type error',
      'log_type warning',
      'log_type notice',
      'log_type information',
      // As root Mosquitto would switch to the `mosquitto` user, who cannot write this folder.
      `user ${userInfo().username}`,
      '',
    ].join('\n'),
  );
  let child: ChildProcess | null = null;
  let output = '';
  const start = async () => {
    const started = spawn(MOSQUITTO, ['-c', configFile], { stdio: ['ignore', 'pipe', 'pipe'] });
    child = started;
    started.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    started.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    const until = Date.now() + 10_000;
    while (!(await accepts(port))) {
      if (started.exitCode !== null || Date.now() > until) throw new Error(`mosquitto did not start:\n${output}`);
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  };
  const stop = async () => {
    const running = child;
    child = null;
    if (!running || running.exitCode !== null) return;
    const exited = new Promise((resolve) => running.once('exit', resolve));
    running.kill('SIGTERM');
    await exited;
  };
  const ctrlAs = async (user: string, password: string, args: string[]) => {
    const { stdout } = await run(MOSQUITTO_CTRL, ['-h', '127.0.0.1', '-p', String(port), '-u', user, '-P', password, 'dynsec', ...args]);
    return stdout;
  };
  await start();
  // README "Brokers": the plugin's admin role may already subscribe and receive everywhere; it may publish the devices' commands too.
  await ctrlAs(admin.user, admin.password, ['addRoleACL', 'admin', 'publishClientSend', 'devices/+/commands', 'allow']);
  // The test's own hands on the plugin, with a role of their own (a test may take rights from the platform's).
  for (const args of [
    ['createRole', OPERATOR.user],
    ['addRoleACL', OPERATOR.user, 'publishClientSend', '$CONTROL/dynamic-security/#', 'allow'],
    ['addRoleACL', OPERATOR.user, 'subscribePattern', '$CONTROL/dynamic-security/#', 'allow'],
    ['addRoleACL', OPERATOR.user, 'publishClientReceive', '$CONTROL/dynamic-security/#', 'allow'],
    ['createClient', OPERATOR.user, '-p', OPERATOR.password],
    ['addClientRole', OPERATOR.user, OPERATOR.user],
  ])
    await ctrlAs(admin.user, admin.password, args);
  const ctrl = (...args: string[]) => ctrlAs(OPERATOR.user, OPERATOR.password, args);
  // The plugin answers every admin connection on one topic: mosquitto_ctrl may take the platform's answer for its own and print nothing.
  const read = async (...args: string[]) => {
    for (let attempt = 1; ; attempt += 1) {
      const printed = await ctrl(...args);
      if (printed.trim() !== '' || attempt === 5) return printed;
    }
  };
  return {
    port,
    url: (user, password) => `mqtt://${encodeURIComponent(user)}:${encodeURIComponent(password)}@127.0.0.1:${port}`,
    ctrl,
    read,
    log: () => output,
    stop,
    start,
    dispose: async () => {
      await stop();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
