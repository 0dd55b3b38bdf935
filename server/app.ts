import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AjvCompiler } from '@fastify/ajv-compiler';
import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { loadCatalogue, type Catalogue } from './catalogue';
import type { ServerConfig } from './config';
import type { Database } from './db/database';
import { fileSecretOf } from './domain/fileAccess';
import { fileStoreAt } from './domain/files';
import { ApiFailure, failure, fail, MESSAGES } from './http/envelope';
import { databaseFailureOf } from './http/constraints';
import { clientFailureOf } from './http/errors';
import { serveStoredFiles } from './http/files';
import { API_PREFIX, registerOperations } from './http/routes';
import { registerOperability } from './http/operability';
import { createPlatformMetrics } from './http/platformMetrics';
import { registerHttpReports } from './ingest/httpReports';
import { bridgeBroker, registerBrokerAuth } from './ingest/mqttBridge';
import { startDeviceBroker, type DeviceBroker } from './ingest/mqttBroker';
import { registerLiveEvents } from './live/liveEvents';
import { OperationDurations, type InstanceRecord } from './http/operationDurations';
import { serveConsole } from './http/static';
import { acceptMultipart } from './http/uploads';
import type { OperationDefinition } from './core/operation';
import type { ServerServices } from './core/context';
import { OPERATIONS } from './operations/index';
import { registerOpenApi } from './openApi/index';
import { buildSeed, keepSeedSnapshot, resetToSeed, SEED } from './seed/seed';
import type { SeedData } from './db/bulk';
import { forgetRights } from './security/caller';
import { forgetLongLists } from './core/listQuery';

export interface AppOptions {
  db: Database;
  config: ServerConfig;
  /** Fastify logger options (see log.ts); off by default. */
  logger?: FastifyServerOptions['logger'];
  catalogue?: Catalogue;
  operations?: readonly OperationDefinition[];
  /** The seed rows dev.reset restores; built on first use when not given. */
  seed?: SeedData;
}

const UPLOAD_LIMIT_BYTES = 20 * 1024 * 1024;

/**
 * Fastify's own Ajv compiler, shared by every app this process builds: compiling the operations'
 * schemas takes a second, and with one pool (and the same schema objects, see bodySchemaOf) an
 * app built again reuses them. The server builds one app; the tests build one per file.
 */
const sharedValidators = AjvCompiler();

const brokers = new WeakMap<FastifyInstance, DeviceBroker>();
/** The embedded MQTT broker an app runs (config.mqttPort), or undefined. */
export const deviceBrokerOf = (app: FastifyInstance): DeviceBroker | undefined => brokers.get(app);

/**
 * The platform API (and, with config.staticDir, the console) as a Fastify instance, not listening;
 * with config.mqttPort its MQTT broker listens already (closed with the app).
 */
export async function buildApp({ db, config, logger = false, catalogue = loadCatalogue(), operations = OPERATIONS, seed: givenSeed }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    // Unique across instances and restarts: an operator follows one call through the logs of all.
    genReqId: () => randomUUID(),
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Reject rather than repair: extra fields and wrong types are "400", never silently dropped.
    schemaController: { compilersFactory: { buildValidator: sharedValidators } },
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false } },
  });

  let seed: SeedData | null = givenSeed ?? null;
  // Freshly seeded in this process (npm start's first run, --memory): keep the reset's copy now.
  if (givenSeed && config.dev) await keepSeedSnapshot(db, givenSeed);
  // Without a configured folder (--memory, tests) uploads live in a temporary one for this instance.
  const fileDir = config.fileDir ?? mkdtempSync(join(tmpdir(), 'iot-console-files-'));
  if (!config.fileDir) app.addHook('onClose', async () => rmSync(fileDir, { recursive: true, force: true }));
  const files = fileStoreAt(fileDir);
  // The key of file tickets, the same on every instance (FILES_SECRET, or the database's).
  const fileSecret = await fileSecretOf(db, config.filesSecret);
  const instance: InstanceRecord = { startedAt: config.now(), durations: new OperationDurations() };
  const metrics = createPlatformMetrics();
  const services: ServerServices = {
    db,
    config,
    log: (message) => app.log.info(message),
    resetToSeed: async () => {
      await resetToSeed(db, async () => (seed ??= await buildSeed(SEED, new Date(), config.timeZone)));
      // The counter of migration 025 starts over with the restored tables: what was read before is forgotten.
      forgetRights(db);
      forgetLongLists(db);
    },
    files,
    fileSecret,
    instance,
    events: metrics.events,
  };

  // Multipart bodies are read by the upload operations (each within its own file limit).
  await acceptMultipart(app, UPLOAD_LIMIT_BYTES);
  app.addHook('preValidation', async (request) => {
    if (request.method === 'POST' && (request.body === undefined || request.body === null)) request.body = {};
  });

  // Slow calls are worth knowing about (which operation, how long), never who made them.
  app.addHook('onResponse', async (request, reply) => {
    if (reply.elapsedTime >= config.slowRequestMs) request.log.warn(`slow request: ${request.method} ${request.url.split('?')[0]} ${Math.round(reply.elapsedTime)} ms`);
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof ApiFailure ? error : clientFailureOf(error);
    if (known) return reply.code(200).send(failure(known));
    // What the database refused (a key taken meanwhile, a reference gone, a timeout): the operator
    // learns which constraint, the caller the product's sentence (http/constraints.ts).
    const refused = databaseFailureOf(error);
    if (refused) {
      request.log.warn({ sqlState: error.code, constraint: (error as { constraint?: unknown }).constraint }, `database refused the call: ${refused.code} ${refused.message}`);
      return reply.code(200).send(failure(refused));
    }
    request.log.error({ err: error }, 'operation failed');
    // The request id goes with the answer: the console shows it with 系统错误 for the user to quote.
    return reply.code(200).send({ code: '500', message: MESSAGES.internal, data: null, requestId: request.id });
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url === API_PREFIX || request.url.startsWith(`${API_PREFIX}/`)) {
      return reply.code(200).send(failure(fail.notFound(MESSAGES.notFound)));
    }
    if (config.staticDir && (request.method === 'GET' || request.method === 'HEAD')) return reply.sendFile('index.html');
    return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
  });

  const broker = config.mqttPort === undefined ? null : await startDeviceBroker(services, config.mqttPort, config.mqttHost);
  if (broker) {
    brokers.set(app, broker);
    app.addHook('onClose', () => broker.close());
  }
  // An external broker instead: it asks the platform who may sign in, the platform subscribes there.
  if (config.mqttUrl) registerBrokerAuth(app, services);
  const bridge = config.mqttUrl ? await bridgeBroker(services, config.mqttUrl, config.mqttTopic) : null;
  if (bridge) app.addHook('onClose', () => bridge.close());
  // Ready also means the devices' broker takes connections (or the external one is reached), where there is one.
  const brokerProblems = () => [
    ...(broker && !broker.listening() ? ['mqtt: the device broker does not take connections'] : []),
    ...(bridge && !bridge.connected() ? ['mqtt: not connected to MQTT_URL'] : []),
  ];
  await registerOperability(app, db, config, instance.durations, metrics.registry, brokerProblems);
  registerOperations(app, catalogue, operations, services);
  registerHttpReports(app, services);
  // The live console's streams end before the server waits for its connections to close.
  const stopLiveEvents = await registerLiveEvents(app, services);
  app.addHook('preClose', stopLiveEvents);
  await registerOpenApi(app, catalogue, operations, services);
  serveStoredFiles(app, { store: files, db, secret: fileSecret, now: config.now });
  if (config.staticDir) await serveConsole(app, config.staticDir, config.embedOrigins);
  return app;
}
