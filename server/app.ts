import Fastify, { LogController, type FastifyError, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { loadCatalogue, type Catalogue } from './catalogue';
import type { ServerConfig } from './config';
import type { Database } from './db/database';
import { ApiFailure, failure, fail, MESSAGES } from './http/envelope';
import { clientFailureOf } from './http/errors';
import { API_PREFIX, registerOperations } from './http/routes';
import { serveConsole } from './http/static';
import type { OperationDefinition, ServerServices } from './operations/define';
import { OPERATIONS } from './operations/index';
import { buildSeed, resetToSeed, type SeedData } from './seed/seed';

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

/** The platform API (and, with config.staticDir, the console) as a Fastify instance, not listening. */
export async function buildApp({ db, config, logger = false, catalogue = loadCatalogue(), operations = OPERATIONS, seed: givenSeed }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    logger,
    logController: new LogController({ disableRequestLogging: true }),
    bodyLimit: 1024 * 1024,
    // Reject rather than repair: extra fields and wrong types are "400", never silently dropped.
    ajv: { customOptions: { removeAdditional: false, coerceTypes: false, useDefaults: true, allErrors: false } },
  });

  let seed: SeedData | null = givenSeed ?? null;
  const services: ServerServices = {
    db,
    config,
    log: (message) => app.log.info(message),
    resetToSeed: async () => {
      seed ??= await buildSeed();
      await resetToSeed(db, seed);
    },
  };

  // Multipart uploads are accepted (and so far answered "501"), not refused as an unknown type.
  app.addContentTypeParser('multipart/form-data', { parseAs: 'buffer', bodyLimit: UPLOAD_LIMIT_BYTES }, (_request, _body, done) => done(null, {}));
  app.addHook('preValidation', async (request) => {
    if (request.method === 'POST' && (request.body === undefined || request.body === null)) request.body = {};
  });

  app.setErrorHandler((error: FastifyError, request, reply) => {
    const known = error instanceof ApiFailure ? error : clientFailureOf(error);
    if (known) return reply.code(200).send(failure(known));
    request.log.error({ err: error }, 'operation failed');
    return reply.code(200).send({ code: '500', message: MESSAGES.internal, data: null });
  });

  app.setNotFoundHandler((request, reply) => {
    if (request.url === API_PREFIX || request.url.startsWith(`${API_PREFIX}/`)) {
      return reply.code(200).send(failure(fail.notFound(MESSAGES.notFound)));
    }
    if (config.staticDir && (request.method === 'GET' || request.method === 'HEAD')) return reply.sendFile('index.html');
    return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
  });

  registerOperations(app, catalogue, operations, services);
  if (config.staticDir) await serveConsole(app, config.staticDir);
  return app;
}
