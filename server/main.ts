import { randomBytes } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { buildApp, deviceBrokerOf } from './app';
import { configFromEnv, postgresSettingsFromEnv } from './config';
import { folderInUse, liveServerLock, removeServerLock, writeServerLock } from './db/dataFolderLock';
import { DatabaseTooNew } from './db/migrate';
import { openDatabase } from './openDatabase';
import { loggerOptions, logLevelOf, terminalStream } from './log';
import { formatDemoAccounts } from './seed/accounts';
import { startCommandExpiry } from './ingest/commandDelivery';
import { startFirmwareChecks } from './ingest/firmwareDelivery';
import { startOfflineSweep, type OfflineSweep } from './ingest/offlineSweep';
import { startDeliveryLoop, type DeliveryLoop } from './ingest/delivery';
import { outboxQueue } from './ingest/outboxDelivery';
import { channelTransport } from './ingest/channels';
import { webhookQueue } from './ingest/webhookDelivery';
import { startTelemetryPartitions } from './ingest/telemetryPartitions';
import type { PeriodicTask } from './periodicTask';

const USAGE = `用法: tsx server/main.ts [--port 3000] [--host 127.0.0.1] [--memory | --dump seeded.tar] [--data-dir .data/pglite] [--files-dir <data-dir>/files] [--static dist] [--dev]
环境变量: PORT, HOST, DATABASE_URL, DATABASE_POOL_MAX (10), DATABASE_STATEMENT_TIMEOUT_MS (30000), DATABASE_IDLE_TIMEOUT_MS (30000), DATABASE_CONNECT_TIMEOUT_MS (10000), DATABASE_PREPARED_STATEMENTS (on；PgBouncer 1.21 之前的事务模式须 off), TIME_ZONE (Asia/Shanghai), LOG_LEVEL (info), METRICS_TOKEN, MAX_EVENT_LOOP_DELAY_MS (0 = 关), MAX_HEAP_USED_BYTES (0), FILES_DIR, ACCESS_TOKEN_TTL_SECONDS (7200), REFRESH_TOKEN_TTL_SECONDS (604800), CONSOLE_DEV=1 (同 --dev)
上传文件: --files-dir / FILES_DIR；默认在数据目录下的 files（DATABASE_URL 时为 .data/files，--memory 时为临时目录）`;

const DEFAULT_DATA_DIR = '.data/pglite';

/** A start the operator must act on (another server holds the folder): a sentence, no stack. */
class StartRefused extends Error {}

/** Where uploads are kept: given, else beside the data (none in memory mode: a temporary folder). */
function filesDirOf(given: string | undefined, memory: boolean, databaseUrl: string | undefined, dataDir: string | undefined): string | undefined {
  if (given) return given;
  if (databaseUrl) return '.data/files';
  if (memory) return undefined;
  return join(dataDir ?? DEFAULT_DATA_DIR, 'files');
}

async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      host: { type: 'string' },
      memory: { type: 'boolean', default: false },
      dump: { type: 'string' },
      'data-dir': { type: 'string' },
      'files-dir': { type: 'string' },
      static: { type: 'string' },
      dev: { type: 'boolean', default: false },
      help: { type: 'boolean', short: 'h', default: false },
    },
  });
  if (values.help) {
    console.log(USAGE);
    return;
  }
  const port = Number(values.port ?? process.env.PORT ?? 3000);
  const host = values.host ?? process.env.HOST ?? '127.0.0.1';
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`invalid port: ${values.port ?? process.env.PORT}`);
  // A dump (the test suites' seeded world) is loaded into memory: nothing is kept after the process.
  const memory = values.memory || values.dump !== undefined;
  // --memory and --dump name the embedded database: a DATABASE_URL in the shell is not touched.
  const databaseUrl = memory ? undefined : process.env.DATABASE_URL || undefined;
  const fileDir = filesDirOf(values['files-dir'] ?? (process.env.FILES_DIR || undefined), memory, databaseUrl, values['data-dir']);
  // The embedded database's data folder, when it keeps one: one server at a time (dataFolderLock.ts).
  const dataDir = memory || databaseUrl ? undefined : (values['data-dir'] ?? DEFAULT_DATA_DIR);
  const inUse = dataDir ? liveServerLock(dataDir) : null;
  if (dataDir && inUse) throw new StartRefused(folderInUse(dataDir, inUse));
  const config = configFromEnv(process.env, {
    ...(values.dev ? { dev: true } : {}),
    ...(values.static ? { staticDir: values.static } : {}),
    ...(fileDir ? { fileDir } : {}),
    ...(dataDir ? { backupToken: randomBytes(24).toString('hex') } : {}),
  });

  const { db, description, seed, catalogueLine, entityLine } = await openDatabase({
    databaseUrl,
    dataDir: values['data-dir'],
    memory,
    timeZone: config.timeZone,
    postgres: { ...postgresSettingsFromEnv(process.env), log: (message) => console.warn(message) },
    ...(values.dump ? { dump: new Blob([readFileSync(values.dump)]) } : {}),
  });
  const app = await buildApp({ db, config, seed: seed ?? undefined, logger: loggerOptions(terminalStream((text) => process.stdout.write(text)), logLevelOf(process.env.LOG_LEVEL)) });
  // SIGTERM (a process manager, a rolling restart) drains: no new connection is accepted, new
  // requests on kept-alive ones get 503, the requests in flight are answered, then the pool closes.
  let firmwareChecks: PeriodicTask | null = null;
  let commandExpiry: PeriodicTask | null = null;
  let offlineSweep: OfflineSweep | null = null;
  let deliveries: DeliveryLoop | null = null;
  let partitions: PeriodicTask | null = null;
  const shutdown = async (signal: string) => {
    console.log(`${signal}: 正在停止，等待进行中的请求完成…`);
    try {
      await app.close();
      await firmwareChecks?.stop();
      await commandExpiry?.stop();
      await offlineSweep?.stop();
      await deliveries?.stop();
      await partitions?.stop();
      await db.close();
      if (dataDir) removeServerLock(dataDir);
      process.exit(0);
    } catch (error) {
      console.error(error);
      process.exit(1);
    }
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));

  await app.listen({ port, host });
  // Firmware upgrades: scheduled targets offered their package at their time, overdue ones failed (OTA_CHECK_SECONDS).
  firmwareChecks = startFirmwareChecks(db, config, (message) => app.log.warn(message));
  // Commands not answered before their expiry (COMMAND_TTL_SECONDS) are expired on every instance.
  commandExpiry = startCommandExpiry(db, config.now, (message) => app.log.info(message), (message) => app.log.warn(message));
  offlineSweep = startOfflineSweep(db, config.offlineSweepSeconds, config.now, config.timeZone, (message) => app.log.info(message), (message) => app.log.warn(message));
  // The outbox's messages (through the channels' transports with CHANNEL_DELIVERY=send; else the outbox row is the delivery) and the webhooks.
  deliveries = startDeliveryLoop(db, [outboxQueue(channelTransport(db, config)), webhookQueue(db, { allowPrivate: config.webhookAllowPrivate })], config.deliverySeconds, config.now, (message) => app.log.warn(message));
  // The telemetry history's monthly partitions: created ahead, the expired ones dropped (TELEMETRY_RETENTION_DAYS).
  partitions = startTelemetryPartitions(db, config.telemetryRetentionDays, config.now, (message) => app.log.info(message), (message) => app.log.warn(message));
  const address = app.server.address();
  const actualPort = typeof address === 'object' && address ? address.port : port;
  if (dataDir && config.backupToken) writeServerLock(dataDir, { pid: process.pid, url: `http://${host}:${actualPort}`, token: config.backupToken });
  console.log(`数据库：${description}${seed ? '（已写入演示数据）' : ''}${config.dev ? '；开发模式：已开放 dev.* 接口' : ''}`);
  if (catalogueLine) console.log(catalogueLine);
  if (entityLine) console.log(entityLine);
  const broker = deviceBrokerOf(app);
  if (broker) console.log(`设备接入：MQTT ${config.mqttHost}:${broker.port}（上报 devices/<设备编码>/telemetry，指令 devices/<设备编码>/commands，回复 devices/<设备编码>/commands/reply），HTTP POST /api/device/telemetry/_report 与 /api/device/commands/_reply`);
  console.log(`READY http://${host}:${actualPort}`);
  console.log(formatDemoAccounts());
}

main().catch((error: unknown) => {
  // A refusal the operator acts on is a sentence; anything else is a fault with its stack.
  console.error(error instanceof DatabaseTooNew || error instanceof StartRefused ? error.message : error instanceof Error ? (error.stack ?? error.message) : error);
  process.exit(1);
});
