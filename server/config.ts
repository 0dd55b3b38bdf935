import { DEFAULT_TIME_ZONE } from './db/database';
import { POSTGRES_DEFAULTS, type PostgresOptions } from './db/postgres';
import { DEFAULT_TIME_LIMIT_MINUTES, TIME_LIMIT_MINUTES } from './domain/upgrades';

/** What the server needs to know besides its database. */
export interface ServerConfig {
  accessTokenTtlSeconds: number;
  refreshTokenTtlSeconds: number;
  /** Serve the dev-only operations (access "dev"): outbox, simulated WeChat scan, reset. */
  dev: boolean;
  /** A built console to serve, with the SPA fallback to its index.html. */
  staticDir?: string;
  /** Where uploaded files are kept; a temporary folder (removed on close) when absent. */
  fileDir?: string;
  /**
   * The key that signs file tickets (FILES_SECRET, at least 32 characters), the same for every
   * instance; without it the first instance stores a random one in the database for all.
   */
  filesSecret?: string;
  /** The time every expiry is measured against (tests move it forward). */
  now: () => Date;
  /**
   * Origins of the shells allowed to embed the console in a frame ("foreign" mode), from
   * EMBED_ORIGINS (space or comma separated); none = only the console itself.
   */
  embedOrigins: string[];
  /**
   * The AMap web service key (MAPS_KEY): place search and reverse geocoding ask AMap, falling back
   * to the offline gazetteer; without it only the gazetteer answers.
   */
  mapsKey?: string;
  /** A request that takes at least this long is logged as a warning with its path (SLOW_REQUEST_MS). */
  slowRequestMs: number;
  /**
   * The business time zone (TIME_ZONE, default Asia/Shanghai): days and months of statistics,
   * "today", dates in codes and exports. The database sessions are pinned to it as well.
   */
  timeZone: string;
  /** Past this event-loop delay a call is answered 503 with Retry-After (MAX_EVENT_LOOP_DELAY_MS; 0 = off). */
  maxEventLoopDelayMs: number;
  /** Past this heap use a call is answered 503 with Retry-After (MAX_HEAP_USED_BYTES; 0 = off). */
  maxHeapUsedBytes: number;
  /** The bearer token of GET /api/metrics (METRICS_TOKEN); without one the metrics are not served. */
  metricsToken?: string;
  /**
   * How often firmware upgrades are checked, in seconds (OTA_CHECK_SECONDS; 0 = never): targets of
   * a scheduled task are offered their package when its time comes, and targets past their task's
   * time limit are failed. Run by the server process (server/ingest/firmwareDelivery.ts).
   */
  otaCheckSeconds: number;
  /** The time limit of a new upgrade task unless it names one, in minutes (OTA_TIME_LIMIT_MINUTES). */
  otaTimeLimitMinutes: number;
  /**
   * The address devices reach the platform's HTTP at (PUBLIC_URL, no trailing slash; by default
   * http://127.0.0.1:PORT): an `ota` command's download is a url under it.
   */
  publicUrl: string;
  /** The token of the data folder's lock file: `npm run backup` asks the running server with it. */
  backupToken?: string;
  /**
   * The embedded MQTT broker devices report to (MQTT_PORT; unset = none, 0 = a free port), on
   * MQTT_HOST (default 0.0.0.0: devices are on the network). `npm start` runs it on 1883.
   */
  mqttPort?: number;
  mqttHost: string;
  /**
   * An external broker instead (MQTT_URL, mqtt:// or mqtts://, with the platform's own user and
   * password): the server subscribes there to MQTT_TOPIC and the broker asks the platform who may
   * sign in (README "Devices report"). Not with MQTT_PORT.
   */
  mqttUrl?: string;
  mqttTopic: string;
  /**
   * Whether the platform keeps MQTT_URL's device accounts itself (MQTT_DYNSEC=1, issue 36): a
   * Mosquitto with the dynamic-security plugin, MQTT_URL's user holding the plugin's admin role. A
   * client per device with a role of its own, created when a credential is issued, its password
   * changed at a reset, disabled in the recycle bin, deleted when purged
   * (server/ingest/mosquittoAccounts.ts). Off: the broker asks the platform (`_auth`, `_acl`).
   */
  mqttDynsec: boolean;
  /** Device readings stored at once by this server (INGEST_CONCURRENCY); the rest wait their turn. */
  ingestConcurrency: number;
  /** Readings stored in one transaction at most (INGEST_BATCH_SIZE; server/ingest/deviceReports.ts ReportBatcher). */
  ingestBatchSize: number;
  /** How long the first reading of a batch waits for others, in milliseconds (INGEST_BATCH_DELAY_MS; 0 = none). */
  ingestBatchDelayMs: number;
  /**
   * Days of device telemetry kept (TELEMETRY_RETENTION_DAYS; 0 = all): older monthly partitions of
   * device_telemetry are dropped whole by the server process (server/ingest/telemetryPartitions.ts).
   */
  telemetryRetentionDays: number;
  /**
   * How often silent devices are marked offline and the offline rules evaluated, in seconds
   * (OFFLINE_SWEEP_SECONDS; 0 = never). Run by the server process (server/ingest/offlineSweep.ts).
   */
  offlineSweepSeconds: number;
  /**
   * How often the outbox's channel messages and the webhooks' deliveries that are due are sent, in
   * seconds (DELIVERY_SECONDS; 0 = never). Run by the server process (server/ingest/delivery.ts).
   */
  deliverySeconds: number;
  /**
   * How long a command waits for its device's reply, in seconds (COMMAND_TTL_SECONDS, 10 minutes by
   * default): past it a command not yet answered is expired (server/ingest/commandDelivery.ts).
   */
  commandTtlSeconds: number;
  /**
   * Whether webhooks may point into the platform's own network (loopback, private, link-local
   * addresses; WEBHOOK_ALLOW_PRIVATE=1). Off by default: a tenant's URL must not reach the
   * platform's internal services (server/ingest/webhookDelivery.ts).
   */
  webhookAllowPrivate: boolean;
  /**
   * Whether the outbox's messages leave the machine (CHANNEL_DELIVERY=send: each through its
   * channel's transport, server/ingest/channels/) or stay in it (outbox, the default: the row is the
   * delivery, as `npm start` and the tests have it).
   */
  channelDelivery: ChannelDelivery;
  /** Where the providers' APIs are: their public addresses, or a test's receiver or a private gateway. */
  channelEndpoints: ChannelEndpoints;
  /** The platform's own mail server for verification codes to mail (SMTP_URL: smtp:// with STARTTLS, smtps:// with TLS). */
  smtpUrl?: string;
  /** The sender of the platform's mail (SMTP_FROM; by default SMTP_URL's user when that is a mail address). */
  smtpFrom?: string;
  /**
   * Whether a tenant's mail channel may name an SMTP server in the platform's own network
   * (loopback, private, link-local addresses; CHANNEL_ALLOW_PRIVATE=1). Off by default, as for webhooks.
   */
  channelAllowPrivate: boolean;
}

export type ChannelDelivery = 'outbox' | 'send';

/**
 * The providers' API bases (DINGTALK_API_BASE, FEISHU_API_BASE, ALIYUN_SMS_ENDPOINT,
 * ALIYUN_VOICE_ENDPOINT, WECHAT_API_BASE): a robot's webhook keeps its path and query under its
 * base, so a saved webhook is still checked against the robot's own address (WEBHOOK_PREFIXES) and
 * only the send goes elsewhere. For tests and private deployments (a proxy or gateway).
 */
export interface ChannelEndpoints {
  dingtalk: string;
  /** Unset: the webhook's own origin (open.feishu.cn or open.larksuite.com). */
  feishu?: string;
  aliyunSms: string;
  aliyunVoice: string;
  wechat: string;
}

export const DEFAULT_CHANNEL_ENDPOINTS: ChannelEndpoints = {
  dingtalk: 'https://oapi.dingtalk.com',
  aliyunSms: 'https://dysmsapi.aliyuncs.com',
  aliyunVoice: 'https://dyvmsapi.aliyuncs.com',
  wechat: 'https://api.weixin.qq.com',
};

/** Where the platform takes the devices' readings on an external broker: a shared subscription, so instances split them. */
export const DEFAULT_MQTT_TOPIC = '$share/iot-platform/devices/+/telemetry';
/** Readings stored at once: fewer than the pool's 10 connections, so the console's calls keep some. */
export const DEFAULT_INGEST_CONCURRENCY = 6;
export const DEFAULT_INGEST_BATCH_SIZE = 250;
export const DEFAULT_INGEST_BATCH_DELAY_MS = 10;
export const DEFAULT_TELEMETRY_RETENTION_DAYS = 365;
/** The shortest retention: a reading may be 30 days old when it arrives (deviceReports.ts MAX_REPORT_AGE_DAYS), and its month must still be there. */
export const MIN_TELEMETRY_RETENTION_DAYS = 62;
export const DEFAULT_ACCESS_TOKEN_TTL_SECONDS = 7200;
export const DEFAULT_REFRESH_TOKEN_TTL_SECONDS = 604800;
export const DEFAULT_SLOW_REQUEST_MS = 1000;
export const DEFAULT_OTA_CHECK_SECONDS = 15;
export const DEFAULT_OFFLINE_SWEEP_SECONDS = 60;
export const DEFAULT_DELIVERY_SECONDS = 2;
export const DEFAULT_COMMAND_TTL_SECONDS = 600;
/** Off by default: the embedded engine runs each statement on the event loop, so a long one (ANALYZE, a big export) would shed the calls after it. Set it with PostgreSQL (README "Operations"). */
export const DEFAULT_MAX_EVENT_LOOP_DELAY_MS = 0;

/** A token of at least 16 printable characters; anything shorter is refused at start. */
function metricsToken(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const token = raw.trim();
  if (!/^[\x21-\x7e]{16,256}$/.test(token)) throw new Error(`${name} must be 16-256 printable characters without spaces`);
  return token;
}

function positiveInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value <= 0) throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

/** A signing key of 32-512 printable characters; anything shorter is refused at start. */
function filesSecret(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const secret = raw.trim();
  if (!/^[\x21-\x7e]{32,512}$/.test(secret)) throw new Error(`${name} must be 32-512 printable characters without spaces`);
  return secret;
}

/** `https://shell.example.com` style origins; anything else is refused at start. */
function origins(raw: string | undefined, name: string): string[] {
  const list = (raw ?? '').split(/[\s,]+/).filter(Boolean);
  for (const origin of list) {
    if (!/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?$/.test(origin)) throw new Error(`${name}: "${origin}" is not an origin like https://shell.example.com`);
  }
  return list;
}

/** A maps web service key as AMap issues them (letters and digits); anything else is refused at start. */
function mapsKey(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const key = raw.trim();
  if (!/^[A-Za-z0-9]{8,64}$/.test(key)) throw new Error(`${name} must be 8-64 letters or digits`);
  return key;
}

/** An IANA zone name that this runtime knows (`Asia/Shanghai`); anything else is refused at start. */
function timeZone(raw: string | undefined, name: string): string {
  if (raw === undefined || raw.trim() === '') return DEFAULT_TIME_ZONE;
  const zone = raw.trim();
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
  } catch {
    throw new Error(`${name}: "${zone}" is not a time zone name like Asia/Shanghai`);
  }
  if (!/^[A-Za-z0-9/_+-]{1,64}$/.test(zone)) throw new Error(`${name}: "${zone}" is not a time zone name like Asia/Shanghai`);
  return zone;
}

/** An MQTT broker's address (mqtt://, mqtts://, ws://, wss://); anything else is refused at start. */
/** An http(s) origin with an optional path, without a trailing slash: where devices reach the platform. */
function publicUrl(raw: string | undefined, portText: string | undefined): string {
  if (raw === undefined || raw.trim() === '') return `http://127.0.0.1:${portText?.trim() || '3000'}`;
  const url = raw.trim().replace(/\/+$/, '');
  if (!/^https?:\/\/[A-Za-z0-9.-]+(:[0-9]{1,5})?(\/[A-Za-z0-9._~%!$&'()*+,;=:@/-]*)?$/.test(url)) throw new Error('PUBLIC_URL must be an http(s) address like https://iot.example.com');
  return url;
}

/** Minutes within an upgrade task's bounds. */
function timeLimitMinutes(raw: string | undefined): number {
  const minutes = positiveInteger(raw, DEFAULT_TIME_LIMIT_MINUTES, 'OTA_TIME_LIMIT_MINUTES');
  if (minutes < TIME_LIMIT_MINUTES.min || minutes > TIME_LIMIT_MINUTES.max) throw new Error(`OTA_TIME_LIMIT_MINUTES must be from ${TIME_LIMIT_MINUTES.min} to ${TIME_LIMIT_MINUTES.max}`);
  return minutes;
}

function brokerUrl(raw: string | undefined, name: string): string | undefined {
  if (raw === undefined || raw.trim() === '') return undefined;
  const url = raw.trim();
  if (!/^(mqtts?|wss?):\/\/[^\s]+$/.test(url)) throw new Error(`${name} must be a broker address like mqtt://user:password@broker:1883`);
  return url;
}

/** A TCP port, 0-65535 (0: the system picks a free one). */
function port(raw: string, name: string): number {
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535) throw new Error(`${name} must be a port number from 0 to 65535, got "${raw}"`);
  return value;
}

/** Days of telemetry kept: 0 (all) or at least MIN_TELEMETRY_RETENTION_DAYS. */
function retentionDays(raw: string | undefined, name: string): number {
  const days = nonNegativeInteger(raw, DEFAULT_TELEMETRY_RETENTION_DAYS, name);
  if (days !== 0 && days < MIN_TELEMETRY_RETENTION_DAYS) throw new Error(`${name} must be 0 (keep all) or at least ${MIN_TELEMETRY_RETENTION_DAYS} days, got "${raw}"`);
  return days;
}

function nonNegativeInteger(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < 0) throw new Error(`${name} must be a whole number of 0 or more, got "${raw}"`);
  return value;
}

/** An API base, http(s)://host[:port][/path] without a trailing slash; anything else is refused at start. */
function endpoint(raw: string | undefined, fallback: string | undefined, name: string): string | undefined {
  if (raw === undefined || raw.trim() === '') return fallback;
  const base = raw.trim().replace(/\/+$/, '');
  if (!/^https?:\/\/[A-Za-z0-9.-]+(:\d{1,5})?(\/[A-Za-z0-9._~/-]*)?$/.test(base)) throw new Error(`${name} must be an address like https://gateway.example.com, got "${raw}"`);
  return base;
}

function channelEndpoints(env: NodeJS.ProcessEnv): ChannelEndpoints {
  const defaults = DEFAULT_CHANNEL_ENDPOINTS;
  return {
    dingtalk: endpoint(env.DINGTALK_API_BASE, defaults.dingtalk, 'DINGTALK_API_BASE') ?? defaults.dingtalk,
    feishu: endpoint(env.FEISHU_API_BASE, undefined, 'FEISHU_API_BASE'),
    aliyunSms: endpoint(env.ALIYUN_SMS_ENDPOINT, defaults.aliyunSms, 'ALIYUN_SMS_ENDPOINT') ?? defaults.aliyunSms,
    aliyunVoice: endpoint(env.ALIYUN_VOICE_ENDPOINT, defaults.aliyunVoice, 'ALIYUN_VOICE_ENDPOINT') ?? defaults.aliyunVoice,
    wechat: endpoint(env.WECHAT_API_BASE, defaults.wechat, 'WECHAT_API_BASE') ?? defaults.wechat,
  };
}

function channelDelivery(raw: string | undefined): ChannelDelivery {
  const value = raw?.trim().toLowerCase() ?? '';
  if (value === '' || value === 'outbox') return 'outbox';
  if (value === 'send') return 'send';
  throw new Error(`CHANNEL_DELIVERY must be outbox or send, got "${raw}"`);
}

const MAIL_ADDRESS = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;

/** SMTP_URL (smtp:// or smtps://, user and password in it) and its sender: SMTP_FROM, else the URL's user if a mail address. */
function platformMail(env: NodeJS.ProcessEnv): { smtpUrl?: string; smtpFrom?: string } {
  const raw = env.SMTP_URL?.trim();
  if (!raw) return {};
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error('SMTP_URL must be an address like smtps://user:password@smtp.example.com:465');
  }
  if (url.protocol !== 'smtp:' && url.protocol !== 'smtps:') throw new Error('SMTP_URL must start with smtp:// (STARTTLS) or smtps:// (TLS)');
  const from = env.SMTP_FROM?.trim() || decodeURIComponent(url.username);
  if (!MAIL_ADDRESS.test(from)) throw new Error('SMTP_FROM must be the mail address the platform sends from (SMTP_URL\'s user is not one)');
  return { smtpUrl: raw, smtpFrom: from };
}

/** The PostgreSQL pool's settings from DATABASE_POOL_MAX, DATABASE_STATEMENT_TIMEOUT_MS, … */
export function postgresSettingsFromEnv(env: NodeJS.ProcessEnv): Omit<PostgresOptions, 'connectionString' | 'timeZone' | 'log'> {
  return {
    poolMax: positiveInteger(env.DATABASE_POOL_MAX, POSTGRES_DEFAULTS.poolMax, 'DATABASE_POOL_MAX'),
    statementTimeoutMs: nonNegativeInteger(env.DATABASE_STATEMENT_TIMEOUT_MS, POSTGRES_DEFAULTS.statementTimeoutMs, 'DATABASE_STATEMENT_TIMEOUT_MS'),
    idleTimeoutMs: nonNegativeInteger(env.DATABASE_IDLE_TIMEOUT_MS, POSTGRES_DEFAULTS.idleTimeoutMs, 'DATABASE_IDLE_TIMEOUT_MS'),
    connectTimeoutMs: nonNegativeInteger(env.DATABASE_CONNECT_TIMEOUT_MS, POSTGRES_DEFAULTS.connectTimeoutMs, 'DATABASE_CONNECT_TIMEOUT_MS'),
    preparedStatements: onOff(env.DATABASE_PREPARED_STATEMENTS, POSTGRES_DEFAULTS.preparedStatements, 'DATABASE_PREPARED_STATEMENTS'),
  };
}

/** A switch: on/off, true/false, 1/0 (any case); the fallback when unset. */
function onOff(raw: string | undefined, fallback: boolean, name: string): boolean {
  if (raw === undefined || raw === '') return fallback;
  const value = raw.trim().toLowerCase();
  if (['on', 'true', '1'].includes(value)) return true;
  if (['off', 'false', '0'].includes(value)) return false;
  throw new Error(`${name} must be on or off, got "${raw}"`);
}

/** The configuration with the environment's token lifetimes (ACCESS_/REFRESH_TOKEN_TTL_SECONDS). */
export function configFromEnv(env: NodeJS.ProcessEnv, overrides: Partial<ServerConfig> = {}): ServerConfig {
  const config: ServerConfig = {
    accessTokenTtlSeconds: positiveInteger(env.ACCESS_TOKEN_TTL_SECONDS, DEFAULT_ACCESS_TOKEN_TTL_SECONDS, 'ACCESS_TOKEN_TTL_SECONDS'),
    refreshTokenTtlSeconds: positiveInteger(env.REFRESH_TOKEN_TTL_SECONDS, DEFAULT_REFRESH_TOKEN_TTL_SECONDS, 'REFRESH_TOKEN_TTL_SECONDS'),
    dev: env.CONSOLE_DEV === '1',
    now: () => new Date(),
    embedOrigins: origins(env.EMBED_ORIGINS, 'EMBED_ORIGINS'),
    mapsKey: mapsKey(env.MAPS_KEY, 'MAPS_KEY'),
    slowRequestMs: positiveInteger(env.SLOW_REQUEST_MS, DEFAULT_SLOW_REQUEST_MS, 'SLOW_REQUEST_MS'),
    timeZone: timeZone(env.TIME_ZONE, 'TIME_ZONE'),
    filesSecret: filesSecret(env.FILES_SECRET, 'FILES_SECRET'),
    maxEventLoopDelayMs: nonNegativeInteger(env.MAX_EVENT_LOOP_DELAY_MS, DEFAULT_MAX_EVENT_LOOP_DELAY_MS, 'MAX_EVENT_LOOP_DELAY_MS'),
    maxHeapUsedBytes: nonNegativeInteger(env.MAX_HEAP_USED_BYTES, 0, 'MAX_HEAP_USED_BYTES'),
    metricsToken: metricsToken(env.METRICS_TOKEN, 'METRICS_TOKEN'),
    otaCheckSeconds: nonNegativeInteger(env.OTA_CHECK_SECONDS, DEFAULT_OTA_CHECK_SECONDS, 'OTA_CHECK_SECONDS'),
    otaTimeLimitMinutes: timeLimitMinutes(env.OTA_TIME_LIMIT_MINUTES),
    publicUrl: publicUrl(env.PUBLIC_URL, env.PORT),
    mqttPort: env.MQTT_PORT === undefined || env.MQTT_PORT === '' ? undefined : port(env.MQTT_PORT, 'MQTT_PORT'),
    mqttHost: env.MQTT_HOST?.trim() || '0.0.0.0',
    mqttUrl: brokerUrl(env.MQTT_URL, 'MQTT_URL'),
    mqttTopic: env.MQTT_TOPIC?.trim() || DEFAULT_MQTT_TOPIC,
    mqttDynsec: onOff(env.MQTT_DYNSEC, false, 'MQTT_DYNSEC'),
    ingestConcurrency: positiveInteger(env.INGEST_CONCURRENCY, DEFAULT_INGEST_CONCURRENCY, 'INGEST_CONCURRENCY'),
    ingestBatchSize: positiveInteger(env.INGEST_BATCH_SIZE, DEFAULT_INGEST_BATCH_SIZE, 'INGEST_BATCH_SIZE'),
    ingestBatchDelayMs: nonNegativeInteger(env.INGEST_BATCH_DELAY_MS, DEFAULT_INGEST_BATCH_DELAY_MS, 'INGEST_BATCH_DELAY_MS'),
    telemetryRetentionDays: retentionDays(env.TELEMETRY_RETENTION_DAYS, 'TELEMETRY_RETENTION_DAYS'),
    offlineSweepSeconds: nonNegativeInteger(env.OFFLINE_SWEEP_SECONDS, DEFAULT_OFFLINE_SWEEP_SECONDS, 'OFFLINE_SWEEP_SECONDS'),
    deliverySeconds: nonNegativeInteger(env.DELIVERY_SECONDS, DEFAULT_DELIVERY_SECONDS, 'DELIVERY_SECONDS'),
    commandTtlSeconds: positiveInteger(env.COMMAND_TTL_SECONDS, DEFAULT_COMMAND_TTL_SECONDS, 'COMMAND_TTL_SECONDS'),
    webhookAllowPrivate: env.WEBHOOK_ALLOW_PRIVATE === '1',
    channelDelivery: channelDelivery(env.CHANNEL_DELIVERY),
    channelEndpoints: channelEndpoints(env),
    ...platformMail(env),
    channelAllowPrivate: env.CHANNEL_ALLOW_PRIVATE === '1',
    ...overrides,
  };
  if (config.mqttUrl && config.mqttPort !== undefined) throw new Error('MQTT_URL and MQTT_PORT: choose one broker (an external one, or the embedded one)');
  if (config.mqttDynsec && !config.mqttUrl) throw new Error('MQTT_DYNSEC needs MQTT_URL: the Mosquitto whose device accounts the platform keeps');
  return config;
}

export function defaultConfig(overrides: Partial<ServerConfig> = {}): ServerConfig {
  return configFromEnv({}, overrides);
}
