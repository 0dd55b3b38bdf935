// Hostile bodies for every catalogued operation (#9 reliability): wrong types, missing and extra
// fields, huge strings, deep nesting, invalid JSON and oversized bodies always get an envelope
// with a code and a message (HTTP 200), never a 5xx, a "500" or a crash, and the server keeps
// answering. Generated from the catalogue, so a new operation is covered by default.
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { catalogue, startServer, type TestServer } from './harness';

const RUNS_PER_OPERATION = 200;
/**
 * CATALOGUE_FOCUS=supply.supplier. (prefixes, comma-separated): only the operations so named, as
 * tests/browser/new-screen.spec.ts runs this suite on a new screen's operations in a scratch copy.
 */
const FOCUS = (process.env.CATALOGUE_FOCUS ?? '').split(',').filter(Boolean);
const focused = (name: string) => FOCUS.length === 0 || FOCUS.some((prefix) => name.startsWith(prefix));
/** Operations whose success would end the run's session or rebuild the database. */
const SKIPPED = new Set(['auth.logout', 'dev.reset', 'dev.session.expire']);

let server: TestServer;
let token: string;

const deep = (depth: number): unknown => (depth === 0 ? 'leaf' : [deep(depth - 1)]);

/** A hostile value: anything JSON can carry, plus the shapes that break naive servers. */
const hostileValue = fc.oneof(
  fc.anything({ maxDepth: 4, withNullPrototype: false }),
  fc.string({ minLength: 0, maxLength: 64 }),
  fc.constant('x'.repeat(20_000)),
  fc.constant(deep(64)),
  fc.integer({ min: -1_000_000_000, max: 1_000_000_000 }),
  fc.constantFrom(null, true, false, 0, -1, 1e308, '', ' ', '<script>alert(1)</script>', "' OR 1=1 --", '../../etc/passwd', '\u0000'),
  fc.dictionary(fc.string({ maxLength: 12 }), fc.anything({ maxDepth: 2 }), { maxKeys: 8 }),
);

/** A whole body as text: an envelope with hostile parts, or text that is not JSON at all. */
const hostileBody = fc.oneof(
  hostileValue.map((param) => JSON.stringify({ param })),
  fc.record({ param: hostileValue, extra: hostileValue }, { requiredKeys: [] }).map((body) => JSON.stringify(body)),
  fc.record({ pageParam: hostileValue, param: hostileValue, sortParamList: hostileValue }, { requiredKeys: [] }).map((body) => JSON.stringify(body)),
  hostileValue.map((value) => JSON.stringify(value) ?? 'null'),
  fc.constantFrom('', '{', '{"param":', 'null', '[]', '"param"', '{"param":{}}}', '\u0000\u0001', '{"__proto__":{"admin":true}}'),
  fc.string({ maxLength: 200 }),
);

interface Answer {
  status: number;
  body: { code?: unknown; message?: unknown };
  /** The file name of a file answer (an export that succeeded). */
  attachment: string | null;
}

async function send(path: string, method: 'GET' | 'POST', payload: string): Promise<Answer> {
  const response = await server.app.inject({
    method,
    url: method === 'GET' ? `/api${path}?q=${encodeURIComponent(payload.slice(0, 2000))}&lng=${encodeURIComponent(payload.slice(0, 30))}` : `/api${path}`,
    headers: { token, 'content-type': 'application/json' },
    ...(method === 'POST' ? { payload } : {}),
  });
  let body: Answer['body'];
  try {
    body = response.json();
  } catch {
    body = {};
  }
  const disposition = response.headers['content-disposition'];
  return { status: response.statusCode, body, attachment: typeof disposition === 'string' && /attachment/.test(disposition) ? disposition : null };
}

/** An envelope; for an export (kind blob) a file is a proper answer too. */
function expectEnvelope(answer: Answer, context: string, fileAllowed = false): void {
  expect(answer.status, context).toBe(200);
  if (fileAllowed && answer.attachment) return;
  expect(typeof answer.body.code, context).toBe('string');
  expect(answer.body.code, context).not.toBe('500');
  expect(typeof answer.body.message, context).toBe('string');
}

/**
 * Registers the suite for one shard of the catalogue (operations whose index % `shards` is
 * `shard`): the shards are separate test files, so the two cores share the work.
 */
export function fuzzShard(shard: number, shards: number): void {
  beforeAll(async () => {
    server = await startServer();
    token = await server.login('tadmin');
  });
  afterAll(() => server.close());

  describe('hostile bodies for every operation', () => {
    const operations = Object.entries(catalogue).filter(([name], index) => !SKIPPED.has(name) && index % shards === shard && focused(name));

    it(`${RUNS_PER_OPERATION} generated bodies per operation: always an envelope, never a fault`, async () => {
      if (FOCUS.length) expect(operations.length).toBeGreaterThan(0);
      else expect(operations.length).toBeGreaterThan(Object.keys(catalogue).length / shards - SKIPPED.size - 1);
      for (const [name, entry] of operations) {
        await fc.assert(
          fc.asyncProperty(hostileBody, async (payload) => {
            const answer = await send(entry.path, entry.kind === 'get' ? 'GET' : 'POST', payload);
            expectEnvelope(answer, `${name} ← ${payload.slice(0, 120)}`, entry.kind === 'blob');
          }),
          { numRuns: RUNS_PER_OPERATION, seed: 20261122, endOnFailure: true },
        );
      }
      // Still answering, still the same caller.
      expect((await server.call('auth.init', {}, { token })).code).toBe('200');
    }, 900_000);

    it.runIf(shard === 0)('an oversized body (over 1 MiB) is refused with "400", and the server answers the next call', async () => {
      const huge = JSON.stringify({ param: { loginName: 'x'.repeat(2 * 1024 * 1024) } });
      const answer = await send(catalogue['auth.login'].path, 'POST', huge);
      expectEnvelope(answer, 'oversized');
      expect(answer.body.code).toBe('400');
      expect((await server.call('auth.init', {}, { token })).code).toBe('200');
    });
  });
}
