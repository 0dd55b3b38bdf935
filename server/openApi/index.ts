import { readFileSync } from 'node:fs';
import fastifySwagger, { type StaticDocumentSpec } from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import type { Catalogue } from '../catalogue';
import type { OperationDefinition } from '../core/operation';
import type { ServerServices } from '../core/context';
import { buildConsoleApiDocument, buildOpenApiDocument } from './document';
import { registerOpenApiRoutes } from './routes';

/** Where the interactive reference is served (its document at `${DOCS_PREFIX}/json`). */
export const DOCS_PREFIX = '/api/docs';
/** The console's whole API as an OpenAPI 3.1 document (generated from the same contracts). */
export const CONSOLE_DOCUMENT_PATH = `${DOCS_PREFIX}/console.json`;

let version: string | undefined;
/** package.json's version, read once. */
function buildVersion(): string {
  version ??= (JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string }).version;
  return version;
}

/**
 * The reference page's Content-Security-Policy: the plugin's own (its inline scripts allowed by
 * hash), with everything from the page's own origin only — no online validator badge, no https:
 * fonts or styles — and inline styles allowed as the console's policy allows them (Swagger UI's
 * highlighter writes style attributes; a hash list would switch 'unsafe-inline' off). Without
 * upgrade-insecure-requests, which would send a plain-HTTP deployment's asset requests to https.
 */
export function docsPolicy(pluginPolicy: string): string {
  const replaced: Readonly<Record<string, string>> = {
    'style-src': "'self' 'unsafe-inline'",
    'font-src': "'self' data:",
    'img-src': "'self' data:",
  };
  return pluginPolicy
    .split(';')
    .map((directive) => directive.trim())
    .filter((directive) => directive !== '' && directive !== 'upgrade-insecure-requests')
    .map((directive) => {
      const name = directive.split(/\s+/)[0];
      return replaced[name] ? `${name} ${replaced[name]}` : directive;
    })
    .join('; ');
}

/**
 * The open platform (issue 23): the open subset's signed routes under /api/open/v1, and their
 * OpenAPI 3.1 document with Swagger UI at /api/docs (`@fastify/swagger` serves the generated
 * document as is, `@fastify/swagger-ui` its own assets from the package: nothing from a CDN).
 */
export async function registerOpenApi(app: FastifyInstance, catalogue: Catalogue, definitions: readonly OperationDefinition[], services: ServerServices): Promise<void> {
  await registerOpenApiRoutes(app, catalogue, definitions, services);
  const document = buildOpenApiDocument(catalogue, definitions, buildVersion());
  // The console's whole API from the same contracts, as a document (no interactive page of its own).
  const consoleDocument = buildConsoleApiDocument(catalogue, buildVersion());
  app.get(CONSOLE_DOCUMENT_PATH, async () => consoleDocument);
  // The plugin's types know OpenAPI 2 and 3.0 documents; a 3.1 one is served the same way.
  await app.register(fastifySwagger, { mode: 'static', specification: { document: document as unknown as StaticDocumentSpec['document'] } });
  await app.register(fastifySwaggerUi, {
    routePrefix: DOCS_PREFIX,
    staticCSP: true,
    transformStaticCSP: docsPolicy,
    theme: { title: '物联网设备平台开放接口' },
    uiConfig: { docExpansion: 'list', deepLinking: true, defaultModelsExpandDepth: 0, validatorUrl: null },
  });
}
