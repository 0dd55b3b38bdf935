import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Catalogue } from '../catalogue';
import type { Queryable } from '../db/database';
import { ApiFailure, success, type Envelope, type FailureCode } from '../http/envelope';
import { nulFailureOf } from '../http/errors';
import { bodySchemaOf, callersOfRequests } from '../http/routes';
import type { Caller, OperationContext, PageRequest, ServerServices } from '../core/context';
import type { OperationDefinition } from '../core/operation';
import { accessKeyCaller, holdsButton } from '../security/caller';
import { countHit, secondsUntil } from '../security/rateLimit';
import { openSecret, SEAL_BINDINGS, secretCipherKey } from '../security/secrets';
import { addressBlocked, countSignatureFailure, countSuppressed, TOO_MANY_FAILURES } from './signatureFailures';
import { ACCESS_KEY_PATTERN, CLOCK_SKEW_SECONDS, OPEN_API_HEADERS, signatureMatches, signedHeadersOf, timestampFresh } from './signature';
import { OPEN_OPERATIONS, openPathOf } from './subset';

/**
 * The open API's routes (issue 23): each operation of the open subset under /api/open/v1, behind a
 * signed request instead of a session. Before the operation's own schema and handler run, in this
 * order (each refusal is an envelope with HTTP 200, as everywhere in this API):
 * 1. the four headers, well formed — "401" 缺少签名或签名格式不正确;
 * 2. the access key, one the database has now (a reset one is gone at once) — "401" 访问密钥无效;
 * 3. the signature over method, path, key, timestamp, nonce and body — "401" 签名错误;
 * 4. the timestamp within ±CLOCK_SKEW_SECONDS of the server's clock — "401" 请求时间戳超出允许范围;
 * 5. the nonce, never used by this key within the window (one insert decides, in the database:
 *    every instance agrees) — "401" 请求已被使用;
 * 6. the key's calls this minute (database counters, shared by the instances) — "429";
 * 7. the button grant of the tenant administrator's role for a writing operation — "403".
 * Then the operation runs as the tenant's administrator over the whole tenant (accessKeyCaller).
 * The "401"s of steps 1–5 are counted per address and per key (signatureFailures.ts): an address
 * past its limit is refused "429" before step 1, a key past its limit has its refusals answered
 * "429" (a call signed right still goes through), both with Retry-After.
 * Every call that names a known key is written to open_api_call with its answer, refused or not,
 * except the refusals past those limits: they are counted on the row of the first of them.
 */

/** Calls one access key may make per window. */
export const OPEN_API_RATE_LIMIT = { calls: 300, windowSeconds: 60 } as const;
const RATE_SCOPE = 'open-api';

export const OPEN_API_MESSAGES = {
  unsigned: `缺少签名或签名格式不正确：请求须带 ${Object.values(OPEN_API_HEADERS).join('、')}`,
  unknownKey: '访问密钥无效',
  noSecret: '访问密钥尚未生成签名密钥，请租户管理员重置密钥',
  badSignature: '签名错误',
  stale: `请求时间戳超出允许范围（与服务器时间相差不得超过 ${CLOCK_SKEW_SECONDS} 秒）`,
  replayed: '请求已被使用（x-nonce 重复），请换一个 nonce 重新签名',
  tooFrequent: `调用过于频繁：每个访问密钥每 ${OPEN_API_RATE_LIMIT.windowSeconds} 秒最多 ${OPEN_API_RATE_LIMIT.calls} 次，请稍后再试`,
  tooManyFailures: TOO_MANY_FAILURES,
} as const;

const refuse = (code: FailureCode, message: string) => new ApiFailure(code, message);

/** What the audit line of a call needs, known once its key is. */
interface Audited {
  tenantCode: string;
  accessKey: string;
  operation: string;
  now: Date;
  /** Refused past the failure limits: counted on the run's first row rather than written. */
  suppressed?: boolean;
}

/** A request admitted: who it runs as and when it came. */
interface Admitted {
  caller: Caller;
  now: Date;
}

interface Body {
  param?: unknown;
  pageParam?: { pageNumber: number; pageSize: number };
  sortParamList?: PageRequest['sortParamList'];
}

const rawBodies = new WeakMap<FastifyRequest, Buffer>();
const audits = new WeakMap<FastifyRequest, Audited>();
const admissions = new WeakMap<FastifyRequest, Admitted>();

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/** How long the audit log keeps a call. */
export const AUDIT_KEPT_DAYS = 180;

/** When each database was last pruned (a process may serve several: the tests do). */
const lastPrunes = new WeakMap<Queryable, number>();
const PRUNE_EVERY_MS = 60_000;

/**
 * Used nonces past their window, and calls older than AUDIT_KEPT_DAYS, are removed at most once a
 * minute by each instance, on the next call that is audited or takes a nonce (refused ones too: a
 * flood of them is what the audit must not grow without bound under).
 */
async function sometimesPrune(db: Queryable, now: Date): Promise<void> {
  const last = lastPrunes.get(db);
  if (last !== undefined && Math.abs(now.getTime() - last) < PRUNE_EVERY_MS) return;
  lastPrunes.set(db, now.getTime());
  await db.query('DELETE FROM open_api_nonce WHERE expires_at < $1', [now]);
  await db.query('DELETE FROM open_api_call WHERE called_at < $1', [new Date(now.getTime() - AUDIT_KEPT_DAYS * 86_400_000)]);
}

/**
 * Takes the nonce for the key: true the first time within its window. One statement: of two
 * requests with the same nonce at once (on any instances) one inserts, the other finds the row.
 * A row whose window has passed may be taken again (its timestamp check now refuses the old request).
 */
async function takeNonce(db: Queryable, accessKey: string, nonce: string, timestamp: number, now: Date): Promise<boolean> {
  const expiresAt = new Date((Math.max(timestamp, Math.floor(now.getTime() / 1000)) + CLOCK_SKEW_SECONDS) * 1000);
  const rows = await db.query<{ nonce: string }>(
    `INSERT INTO open_api_nonce AS n (access_key, nonce, expires_at) VALUES ($1, $2, $3)
     ON CONFLICT (access_key, nonce) DO UPDATE SET expires_at = EXCLUDED.expires_at WHERE n.expires_at < $4
     RETURNING nonce`,
    [accessKey, nonce, expiresAt, now],
  );
  await sometimesPrune(db, now);
  return rows.length === 1;
}

/** The key's tenant and secret, read on every call: a reset or a deleted tenant counts at once on every instance. */
async function findKey(db: Queryable, accessKey: string): Promise<{ tenant_code: string; secret_ciphertext: string | null } | null> {
  const [row] = await db.query<{ tenant_code: string; secret_ciphertext: string | null }>(
    'SELECT tenant_code, secret_ciphertext FROM tenant_access_key WHERE access_key = $1',
    [accessKey],
  );
  return row ?? null;
}

/** The envelope's code and message of an answer about to be sent. */
function answerOf(payload: unknown): { code: string; message: string } {
  if (typeof payload !== 'string') return { code: '200', message: '' };
  try {
    const parsed = JSON.parse(payload) as { code?: unknown; message?: unknown };
    return { code: typeof parsed.code === 'string' ? parsed.code : '', message: typeof parsed.message === 'string' ? parsed.message : '' };
  } catch {
    return { code: '', message: '' };
  }
}

async function writeAudit(db: Queryable, request: FastifyRequest, reply: FastifyReply, audited: Audited, payload: unknown): Promise<void> {
  await sometimesPrune(db, audited.now);
  if (audited.suppressed && (await countSuppressed(db, audited.tenantCode, audited.accessKey, audited.now))) return;
  const { code, message } = answerOf(payload);
  await db.query(
    `INSERT INTO open_api_call (tenant_code, access_key, operation, method, path, code, message, client_ip, user_agent, request_id, duration_ms, called_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12)`,
    [
      audited.tenantCode,
      audited.accessKey,
      audited.operation,
      request.method,
      request.url.slice(0, 512),
      code.slice(0, 8),
      message.slice(0, 256),
      request.ip,
      (header(request, 'user-agent') ?? '').slice(0, 256),
      String(request.id),
      Math.max(0, Math.round(reply.elapsedTime)),
      audited.now,
    ],
  );
}

interface KnownKey {
  accessKey: string;
  tenantCode: string;
  sealedSecret: string | null;
}

const knownKeys = new WeakMap<FastifyRequest, KnownKey>();

/**
 * The key a request names, looked up as it arrives (before its body is read): a call naming a
 * known key is audited whatever happens to it next, a body that is no JSON included.
 */
async function noteKey(services: ServerServices, operation: string, request: FastifyRequest): Promise<void> {
  const accessKey = header(request, OPEN_API_HEADERS.accessKey);
  if (!accessKey || !ACCESS_KEY_PATTERN.test(accessKey)) return;
  const key = await findKey(services.db, accessKey);
  if (!key) return;
  knownKeys.set(request, { accessKey, tenantCode: key.tenant_code, sealedSecret: key.secret_ciphertext });
  audits.set(request, { tenantCode: key.tenant_code, accessKey, operation, now: services.config.now() });
}

/**
 * The failure limits around steps 1–7: an address past its limit is refused first; a "401" of the
 * steps is counted, and answered "429" when it is past the address's or the key's limit. Either
 * "429" carries Retry-After and is not audited row by row.
 */
async function admit(services: ServerServices, cipherKey: Buffer, definition: OperationDefinition, buttonNeeded: boolean, request: FastifyRequest, reply: FastifyReply): Promise<Admitted> {
  const now = audits.get(request)?.now ?? services.config.now();
  const overLimit = (seconds: number): ApiFailure => {
    void reply.header('retry-after', String(seconds));
    const audited = audits.get(request);
    if (audited) audited.suppressed = true;
    return refuse('429', OPEN_API_MESSAGES.tooManyFailures);
  };
  const blocked = await addressBlocked(services.db, request.ip, now);
  if (blocked !== null) throw overLimit(blocked);
  try {
    return await checkSigned(services, cipherKey, definition, buttonNeeded, request, reply, now);
  } catch (error) {
    if (!(error instanceof ApiFailure) || error.code !== '401') throw error;
    const past = await countSignatureFailure(services.db, request.ip, knownKeys.get(request)?.accessKey ?? null, now);
    throw past === null ? error : overLimit(past);
  }
}

/** Steps 1–7 of the header comment: the caller the request runs as, or the refusal. */
async function checkSigned(
  services: ServerServices,
  cipherKey: Buffer,
  definition: OperationDefinition,
  buttonNeeded: boolean,
  request: FastifyRequest,
  reply: FastifyReply,
  now: Date,
): Promise<Admitted> {
  const signed = signedHeadersOf((name) => header(request, name));
  if (!signed) throw refuse('401', OPEN_API_MESSAGES.unsigned);
  const key = knownKeys.get(request);
  if (!key || key.accessKey !== signed.accessKey) throw refuse('401', OPEN_API_MESSAGES.unknownKey);
  const secret = openSecret(cipherKey, SEAL_BINDINGS.accessKey(signed.accessKey), key.sealedSecret);
  if (!secret) throw refuse('401', OPEN_API_MESSAGES.noSecret);
  const body = rawBodies.get(request) ?? Buffer.alloc(0);
  const signedRequest = { method: request.method, path: request.url, accessKey: signed.accessKey, timestamp: signed.timestamp, nonce: signed.nonce, body };
  if (!signatureMatches(secret, signedRequest, signed.signature)) throw refuse('401', OPEN_API_MESSAGES.badSignature);
  if (!timestampFresh(signed.timestamp, now)) throw refuse('401', OPEN_API_MESSAGES.stale);
  if (!(await takeNonce(services.db, signed.accessKey, signed.nonce, signed.timestamp, now))) throw refuse('401', OPEN_API_MESSAGES.replayed);
  const hit = await countHit(services.db, RATE_SCOPE, signed.accessKey, OPEN_API_RATE_LIMIT.calls, OPEN_API_RATE_LIMIT.windowSeconds, now);
  if (!hit.allowed) {
    void reply.header('retry-after', String(secondsUntil(hit.windowEndsAt, now)));
    throw refuse('429', OPEN_API_MESSAGES.tooFrequent);
  }
  const caller = await accessKeyCaller(services.db, key.tenantCode, signed.accessKey);
  if (!caller) throw refuse('401', OPEN_API_MESSAGES.unknownKey);
  if (buttonNeeded && !(await holdsButton(services.db, caller, definition.name))) throw refuse('403', '无权限访问');
  return { caller, now };
}

/**
 * Registers the open subset's routes (those of `definitions` that are catalogued) in a context of
 * their own, whose JSON parser keeps the body's bytes for the signature.
 */
export async function registerOpenApiRoutes(app: FastifyInstance, catalogue: Catalogue, definitions: readonly OperationDefinition[], services: ServerServices): Promise<void> {
  const implemented = new Map(definitions.map((definition) => [definition.name, definition]));
  const cipherKey = await secretCipherKey(services.db);
  await app.register(async (open) => {
    // Fastify's own JSON parser (prototype poisoning refused), fed the bytes kept for the signature.
    const parseJson = open.getDefaultJsonParser('error', 'error');
    open.removeContentTypeParser('application/json');
    open.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body: Buffer, done) => {
      rawBodies.set(request, body);
      if (body.length === 0) return done(null, {});
      parseJson(request, body.toString('utf8'), done);
    });
    // The audit line is written before the answer leaves: a call the client saw answered is in the log.
    open.addHook('onSend', async (request, reply, payload) => {
      const audited = audits.get(request);
      if (audited) {
        audits.delete(request);
        await writeAudit(services.db, request, reply, audited, payload).catch((error: unknown) => request.log.error({ err: error }, 'open API call could not be audited'));
      }
      return payload;
    });

    for (const open_ of OPEN_OPERATIONS) {
      const entry = catalogue[open_.name];
      const definition = implemented.get(open_.name);
      if (!entry || !definition) continue;
      const buttonNeeded = entry.button === true;
      open.route({
        method: 'POST',
        url: openPathOf(entry),
        schema: { body: bodySchemaOf(entry, definition.paramSchema) },
        config: { operation: `open:${open_.name}` },
        onRequest: async (request) => noteKey(services, open_.name, request),
        preValidation: async (request, reply) => {
          const admitted = await admit(services, cipherKey, definition, buttonNeeded, request, reply);
          admissions.set(request, admitted);
          const refusal = nulFailureOf(request.body);
          if (refusal) throw refusal;
          const tenantCode = admitted.caller.organizationCodes[0] ?? null;
          callersOfRequests.set(request, { userId: admitted.caller.userId, organizationCode: tenantCode, tenantCode });
        },
        handler: async (request): Promise<Envelope> => {
          const admitted = admissions.get(request);
          if (!admitted) throw refuse('401', OPEN_API_MESSAGES.unsigned);
          const body = request.body as Body;
          const context: OperationContext<unknown> = {
            ...services,
            param: body.param,
            page: body.pageParam ? { ...body.pageParam, sortParamList: body.sortParamList ?? [] } : null,
            caller: admitted.caller,
            organizationCode: admitted.caller.organizationCodes[0] ?? null,
            client: { ip: request.ip, userAgent: header(request, 'user-agent') ?? '' },
            now: admitted.now,
            file: null,
          };
          return success(await definition.handler(context));
        },
      });
    }
  });
}
