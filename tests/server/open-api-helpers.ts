// Signed calls of the open API (issue 23) for the open-api*.test.ts files, and the check that every
// answer they receive matches the OpenAPI document the server publishes.
import { randomBytes } from 'node:crypto';
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { expect } from 'vitest';
import type { Envelope } from '../../server/http/envelope';
import type { IssuedKey } from '../../server/operations/frame/openApi';
import { signRequest } from '../../server/openApi/signature';
import { OPEN_API_PREFIX } from '../../server/openApi/subset';
import { catalogue, type TestServer } from './harness';

export interface OpenKey {
  accessKey: string;
  secret: string;
}

/** A new key and secret for the tenant of `loginName` (openApi.key.reset). */
export async function issueKey(server: TestServer, loginName = 'tadmin'): Promise<OpenKey> {
  const reply = await server.call<IssuedKey>('openApi.key.reset', {}, { token: await server.login(loginName) });
  if (reply.code !== '200' || !reply.data) throw new Error(`openApi.key.reset for ${loginName}: ${reply.code} ${reply.message}`);
  return { accessKey: reply.data.accessKey, secret: reply.data.secret };
}

export interface SignedOptions {
  /** Unix seconds (the server's clock unless told). */
  timestamp?: number;
  nonce?: string;
  /** Replaces the computed signature. */
  signature?: string;
  /** Headers to add, or to drop (undefined). */
  headers?: Record<string, string | undefined>;
  /** The body as sent (the payload's JSON unless told). */
  rawBody?: string;
}

export interface OpenAnswer<T = unknown> {
  status: number;
  body: Envelope<T> & { requestId?: string };
  headers: Record<string, string | string[] | number | undefined>;
}

export const newNonce = (): string => randomBytes(16).toString('hex');

/** The headers of a signed POST of `body` to `path`. */
export function signedHeaders(key: OpenKey, path: string, body: string, timestamp: number, nonce: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    'x-access-key': key.accessKey,
    'x-timestamp': String(timestamp),
    'x-nonce': nonce,
    'x-signature': signRequest(key.secret, { method: 'POST', path, accessKey: key.accessKey, timestamp, nonce, body }),
  };
}

/** POSTs a signed request to an open path (`/api/open/v1/...`). */
export async function signedPost<T = unknown>(server: TestServer, key: OpenKey, path: string, payload: unknown, options: SignedOptions = {}): Promise<OpenAnswer<T>> {
  const body = options.rawBody ?? JSON.stringify(payload);
  const timestamp = options.timestamp ?? Math.floor(server.now().getTime() / 1000);
  const headers: Record<string, string | undefined> = { ...signedHeaders(key, path, body, timestamp, options.nonce ?? newNonce()) };
  if (options.signature !== undefined) headers['x-signature'] = options.signature;
  for (const [name, value] of Object.entries(options.headers ?? {})) headers[name] = value;
  const sent = Object.fromEntries(Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined));
  const response = await server.app.inject({ method: 'POST', url: path, headers: sent, payload: body });
  return { status: response.statusCode, body: response.json(), headers: response.headers };
}

/** The open path of a catalogued operation. */
export const openPath = (name: string): string => `${OPEN_API_PREFIX}${catalogue[name].path}`;

/** Calls the open operation `name` with a signed request; the answer is checked against the published document. */
export async function openCall<T = unknown>(server: TestServer, key: OpenKey, name: string, payload: unknown = {}, options: SignedOptions = {}): Promise<OpenAnswer<T>> {
  const answer = await signedPost<T>(server, key, openPath(name), payload, options);
  expect(answer.status).toBe(200);
  await expectDocumented(server, name, answer.body);
  return answer;
}

// ── the published document ──────────────────────────────────────────────────────────────────

export interface PublishedDocument {
  openapi: string;
  info: { title: string; description: string };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, { post: { operationId: string; tags: string[]; summary: string; requestBody: unknown; responses: Record<string, unknown> } }>;
  components: { schemas: Record<string, unknown> };
}

const DOCUMENT_ID = 'https://open-api.test/openapi.json';
const validators = new Map<string, ValidateFunction>();
let published: PublishedDocument | null = null;
let ajv: Ajv2020 | null = null;

/** The document as `GET /api/docs/json` serves it. */
export async function publishedDocument(server: TestServer): Promise<PublishedDocument> {
  if (published) return published;
  const response = await server.app.inject({ method: 'GET', url: '/api/docs/json' });
  expect(response.statusCode).toBe(200);
  published = response.json<PublishedDocument>();
  return published;
}

/** Ajv (JSON Schema 2020-12, the dialect of OpenAPI 3.1) holding the published document. */
async function documentAjv(server: TestServer): Promise<Ajv2020> {
  if (ajv) return ajv;
  const document = await publishedDocument(server);
  const instance = new Ajv2020({ strict: false, allErrors: true });
  addFormats.default(instance);
  instance.addSchema({ ...document, $id: DOCUMENT_ID });
  ajv = instance;
  return instance;
}

const pointer = (...segments: string[]) => segments.map((segment) => segment.replace(/~/g, '~0').replace(/\//g, '~1')).join('/');

/** The validator of the answers of `name`: its documented 200 response. */
export async function responseValidator(server: TestServer, name: string): Promise<ValidateFunction> {
  const known = validators.get(name);
  if (known) return known;
  const instance = await documentAjv(server);
  const path = openPath(name);
  const validate = instance.compile({ $ref: `${DOCUMENT_ID}#/${pointer('paths', path, 'post', 'responses', '200', 'content', 'application/json', 'schema')}` });
  validators.set(name, validate);
  return validate;
}

/** How many answers of each operation were checked against the document (the contract test reads it). */
export const checkedAnswers = new Map<string, { success: number; failure: number }>();

/** Fails unless `body` is an answer the document allows for `name`. */
export async function expectDocumented(server: TestServer, name: string, body: unknown): Promise<void> {
  const validate = await responseValidator(server, name);
  const valid = validate(body);
  expect(valid ? [] : (validate.errors ?? []).map((error) => `${error.instancePath} ${error.message ?? ''} ${JSON.stringify(error.params)}`), `${name} answered outside its documented schema`).toEqual([]);
  const counts = checkedAnswers.get(name) ?? { success: 0, failure: 0 };
  if ((body as { code?: unknown }).code === '200') counts.success += 1;
  else counts.failure += 1;
  checkedAnswers.set(name, counts);
}
