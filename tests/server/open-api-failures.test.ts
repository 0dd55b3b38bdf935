// Refused open-API calls are limited (issue 30, "Sessions and codes"): anyone who knows an access
// key (the console shows it) could send badly signed calls without limit, each written to the
// tenant's audit log: 200 rows in about a second. Now the refusals of the signature checks are
// counted per address and per key: past the limit "429" with a Chinese message and Retry-After, an
// address past its limit is refused before anything is checked, a key past its limit still takes a
// call signed right (knowing a key must not lock its tenant out), the refusals past a limit are
// counted on one audit row instead of one row each, and old audit rows are pruned.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_KEPT_DAYS, OPEN_API_MESSAGES } from '../../server/openApi/routes';
import { SIGNATURE_FAILURE_LIMIT } from '../../server/openApi/signatureFailures';
import { startServer, type TestServer } from './harness';
import { issueKey, openPath, signedHeaders, newNonce, type OpenKey } from './open-api-helpers';

let server: TestServer;
let key: OpenKey;

beforeAll(async () => {
  server = await startServer();
  key = await issueKey(server);
});
afterAll(() => server.close());

const PAGE = JSON.stringify({ pageParam: { pageNumber: 1, pageSize: 5 } });
const path = openPath('device.page');
const { perAddress, perKey, windowSeconds } = SIGNATURE_FAILURE_LIMIT;

/** A call of device.page from `ip`, signed right, or with a wrong signature. */
async function call(ip: string, as: OpenKey, signed: 'right' | 'wrong') {
  const headers = signedHeaders(as, path, PAGE, Math.floor(server.now().getTime() / 1000), newNonce());
  if (signed === 'wrong') headers['x-signature'] = 'f'.repeat(64);
  const response = await server.app.inject({ method: 'POST', url: path, headers, payload: PAGE, remoteAddress: ip });
  const body = response.json<{ code: string; message: string }>();
  return { code: body.code, message: body.message, retryAfter: response.headers['retry-after'] };
}

async function auditOf(accessKey: string) {
  return server.db.query<{ code: string; message: string; suppressed: number }>('SELECT code, message, suppressed FROM open_api_call WHERE access_key = $1 ORDER BY id', [accessKey]);
}

const tally = (answers: Array<{ code: string; message: string }>) =>
  answers.reduce<Record<string, number>>((counts, answer) => ({ ...counts, [`${answer.code} ${answer.message}`]: (counts[`${answer.code} ${answer.message}`] ?? 0) + 1 }), {});

describe('refused signatures', () => {
  it('200 bad signatures from one address: the first ones are "401", the rest "429" with Retry-After, and the audit holds one row for them all', async () => {
    const answers = [];
    for (let i = 0; i < 200; i += 1) answers.push(await call('203.0.113.10', key, 'wrong'));
    expect(tally(answers)).toEqual({ [`401 ${OPEN_API_MESSAGES.badSignature}`]: perAddress, [`429 ${OPEN_API_MESSAGES.tooManyFailures}`]: 200 - perAddress });
    expect(OPEN_API_MESSAGES.tooManyFailures).toMatch(/^签名校验失败次数过多/);
    for (const answer of answers.slice(perAddress)) {
      expect(Number(answer.retryAfter)).toBeGreaterThan(0);
      expect(Number(answer.retryAfter)).toBeLessThanOrEqual(windowSeconds);
    }
    const audit = await auditOf(key.accessKey);
    expect(audit).toHaveLength(perAddress + 1);
    expect(audit.slice(0, perAddress).every((row) => row.code === '401')).toBe(true);
    expect(audit[perAddress]).toEqual({ code: '429', message: OPEN_API_MESSAGES.tooManyFailures, suppressed: 200 - perAddress - 1 });
    // The address is refused before anything is checked, a call signed right included; another address is not.
    expect((await call('203.0.113.10', key, 'right')).code).toBe('429');
    expect((await call('203.0.113.11', key, 'right')).code).toBe('200');
    // The next window takes the address's calls again.
    server.advance(windowSeconds + 1);
    expect((await call('203.0.113.10', key, 'right')).code).toBe('200');
    expect((await call('203.0.113.10', key, 'wrong')).code).toBe('401');
  });

  it('spread over addresses: past the key’s limit its refusals are "429", but a call signed right still goes through', async () => {
    const spread = await issueKey(server, 'badmin');
    const answers = [];
    for (let i = 0; i < perKey + 20; i += 1) answers.push(await call(`198.18.${Math.floor(i / 20)}.1`, spread, 'wrong'));
    expect(tally(answers)).toEqual({ [`401 ${OPEN_API_MESSAGES.badSignature}`]: perKey, [`429 ${OPEN_API_MESSAGES.tooManyFailures}`]: 20 });
    expect((await call('198.18.99.1', spread, 'right')).code).toBe('200');
    const audit = await auditOf(spread.accessKey);
    expect(audit.filter((row) => row.code === '401')).toHaveLength(perKey);
    expect(audit.filter((row) => row.code === '429')).toEqual([{ code: '429', message: OPEN_API_MESSAGES.tooManyFailures, suppressed: 19 }]);
  });

  it('counts refusals of keys nobody has against the address too', async () => {
    const nobody = { accessKey: `ak_${'1'.repeat(32)}`, secret: 'sk_none' };
    const answers = [];
    for (let i = 0; i < perAddress + 5; i += 1) answers.push(await call('203.0.113.20', nobody, 'right'));
    expect(tally(answers)).toEqual({ [`401 ${OPEN_API_MESSAGES.unknownKey}`]: perAddress, [`429 ${OPEN_API_MESSAGES.tooManyFailures}`]: 5 });
    expect((await call('203.0.113.20', key, 'right')).code).toBe('429');
  });

  it(`prunes audit rows older than ${AUDIT_KEPT_DAYS} days, refused calls being enough to do it`, async () => {
    const old = new Date(server.now().getTime() - (AUDIT_KEPT_DAYS + 1) * 86_400_000);
    await server.db.query(
      `INSERT INTO open_api_call (tenant_code, access_key, operation, method, path, code, message, client_ip, user_agent, request_id, duration_ms, called_at)
       VALUES ('T0001', $1, 'device.page', 'POST', $2, '401', '签名错误', '203.0.113.30', '', 'old', 1, $3)`,
      [key.accessKey, path, old],
    );
    server.advance(61);
    expect((await call('203.0.113.31', key, 'wrong')).code).toBe('401');
    const [{ count }] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM open_api_call WHERE called_at < $1', [
      new Date(server.now().getTime() - AUDIT_KEPT_DAYS * 86_400_000),
    ]);
    expect(count).toBe(0);
  });
});
