// The open platform (issue 23): a tenant's access key opens the open subset through signed requests,
// with replay protection, a clock-skew limit, the tenant's scope, a per-key limit, an audit log and
// a reset that stops the old key at once. Every answer is checked against the published document.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Page } from '../../server/core/listQuery';
import { OPEN_API_MESSAGES, OPEN_API_RATE_LIMIT } from '../../server/openApi/routes';
import { CLOCK_SKEW_SECONDS } from '../../server/openApi/signature';
import { ADMIN_PASSWORD, secretsIn, startServer, type TestServer } from './harness';
import { expectDocumented, issueKey, newNonce, openCall, openPath, signedPost, type OpenKey } from './open-api-helpers';

let server: TestServer;
let key: OpenKey;
let tadmin: string;

beforeAll(async () => {
  server = await startServer();
  tadmin = await server.login('tadmin');
  key = await issueKey(server);
});
afterAll(async () => {
  // The secrets never reach the log.
  const leaks = secretsIn(server.logs, new Set([key.secret]));
  await server.close();
  expect(leaks).toEqual([]);
});

const PAGE = { pageParam: { pageNumber: 1, pageSize: 20 } };
const refused = (code: string, message: string) => ({ code, message, data: null });

interface AuditRow {
  tenant_code: string;
  access_key: string;
  operation: string;
  code: string;
  message: string;
}

/** The audit rows of the key, newest first. */
async function auditOf(accessKey: string): Promise<AuditRow[]> {
  return server.db.query<AuditRow>('SELECT tenant_code, access_key, operation, code, message FROM open_api_call WHERE access_key = $1 ORDER BY id DESC', [accessKey]);
}

async function oneOf<T>(sql: string, params: unknown[] = []): Promise<T> {
  const [row] = await server.db.query<T>(sql, params as never[]);
  if (!row) throw new Error(`no row for ${sql}`);
  return row;
}

describe('a good call', () => {
  it('lists exactly what the tenant admin sees, and is audited', async () => {
    const open = await openCall<Page<{ code: string; followed: boolean }>>(server, key, 'device.page', { ...PAGE, sortParamList: [{ field: 'code', order: 'asc' }] });
    expect(open.body.code).toBe('200');
    const console_ = await server.post('/device/_page', { ...PAGE, sortParamList: [{ field: 'code', order: 'asc' }] }, { token: tadmin });
    const theirs = console_.body.data as Page<{ code: string }>;
    expect(open.body.data!.total).toBe(theirs.total);
    expect(open.body.data!.records.map((device) => device.code)).toEqual(theirs.records.map((device) => device.code));
    // The same records but for the caller's own follow marks (a key follows nothing).
    const strip = ({ followed: _f, followTime: _t, ...rest }: Record<string, unknown>) => rest;
    expect(open.body.data!.records.map(strip)).toEqual((theirs.records as unknown as Array<Record<string, unknown>>).map(strip));
    const [audit] = await auditOf(key.accessKey);
    expect(audit).toEqual({ tenant_code: 'T0001', access_key: key.accessKey, operation: 'device.page', code: '200', message: '成功' });
  });

  it('answers the other open operations the way the console does', async () => {
    const device = await oneOf<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND online_state = 'online' AND NOT sleeping AND product_code = 'PRD-WM-NB' ORDER BY id LIMIT 1");
    const detail = await openCall<{ code: string }>(server, key, 'device.detail', { param: { code: device.code } });
    expect(detail.body.data!.code).toBe(device.code);
    const reporting = await oneOf<{ code: string }>(
      "SELECT d.code FROM device d WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND EXISTS (SELECT 1 FROM device_telemetry t WHERE t.device_id = d.id) ORDER BY d.id LIMIT 1",
    );
    const history = await openCall<Page<unknown>>(server, key, 'device.data.page', { ...PAGE, param: { code: reporting.code } });
    expect(history.body.data!.total).toBeGreaterThan(0);
    expect(history.body.data).toEqual((await server.post('/device/data/_page', { ...PAGE, param: { code: reporting.code } }, { token: tadmin })).body.data);
    for (const name of ['alarm.record.page', 'repair.order.page', 'card.sim.page']) {
      const open = await openCall<Page<{ code?: string; iccid?: string }>>(server, key, name, PAGE);
      expect(open.body.code, name).toBe('200');
      expect(open.body.data!.total, name).toBeGreaterThan(0);
      const theirs = (await server.call<Page<{ code?: string; iccid?: string }>>(name, {}, { token: tadmin })).data!;
      expect(open.body.data!.total, name).toBe(theirs.total);
    }
  });

  it('handles an alarm once, signed as the key, and sends a device command', async () => {
    const alarm = await oneOf<{ code: string }>("SELECT code FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device' AND state = 'pending' ORDER BY id LIMIT 1");
    const handle = { param: { code: alarm.code, state: 'resolved', remark: '由租户系统处理' } };
    expect((await openCall(server, key, 'alarm.record.handle', handle)).body).toEqual({ code: '200', message: '成功', data: { code: alarm.code, state: 'resolved' } });
    expect((await openCall(server, key, 'alarm.record.handle', handle)).body).toEqual(refused('409', '该告警已处理'));
    const handled = await oneOf<{ handled_by: string }>('SELECT handled_by FROM alarm_record WHERE code = $1', [alarm.code]);
    expect(handled.handled_by).toBe(`open-api:${key.accessKey.slice(0, 11)}`);

    const device = await oneOf<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL AND online_state = 'online' AND NOT sleeping AND product_code = 'PRD-WM-NB' ORDER BY id LIMIT 1");
    const command = await openCall<{ commandType: string; state: string }>(server, key, 'deviceAccess.command.generate', { param: { code: device.code, commandType: 'time_sync' } });
    expect(command.body.data).toMatchObject({ commandType: 'time_sync', state: 'pending' });
    const sent = await oneOf<{ created_by: string }>('SELECT created_by FROM device_command WHERE device_id = (SELECT id FROM device WHERE code = $1) ORDER BY id DESC LIMIT 1', [device.code]);
    expect(sent.created_by).toBe(`open-api:${key.accessKey.slice(0, 11)}`);
  });

  it('validates the param with the operation\'s own schema once the signature holds', async () => {
    const answer = await openCall(server, key, 'device.page', { ...PAGE, param: { onlineState: 'flying' } });
    expect(answer.body.code).toBe('400');
    expect(answer.body.message).toMatch(/^参数错误：onlineState/);
    expect((await openCall(server, key, 'device.page', { ...PAGE, param: { keyword: 'a\u0000b' } })).body.code).toBe('400');
  });
});

describe('refusals', () => {
  it('refuses a bad signature, a body changed after signing and a signature of another secret with "401" 签名错误', async () => {
    const wrong = await openCall(server, key, 'device.page', PAGE, { signature: 'f'.repeat(64) });
    expect(wrong.body).toEqual(refused('401', OPEN_API_MESSAGES.badSignature));
    // Signed for one body, sent with another.
    const path = openPath('device.page');
    const signedFor = await signedPost(server, key, path, PAGE, { rawBody: JSON.stringify({ pageParam: { pageNumber: 1, pageSize: 20 } }) });
    expect(signedFor.body.code).toBe('200');
    const tampered = JSON.stringify({ pageParam: { pageNumber: 1, pageSize: 1000 } });
    const nonce = newNonce();
    const honest = await signedPost(server, key, path, PAGE, { nonce, rawBody: JSON.stringify(PAGE) });
    expect(honest.body.code).toBe('200');
    const { signRequest } = await import('../../server/openApi/signature');
    const timestamp = Math.floor(server.now().getTime() / 1000);
    const otherNonce = newNonce();
    const signature = signRequest(key.secret, { method: 'POST', path, accessKey: key.accessKey, timestamp, nonce: otherNonce, body: JSON.stringify(PAGE) });
    const swapped = await signedPost(server, key, path, PAGE, { nonce: otherNonce, timestamp, signature, rawBody: tampered });
    expect(swapped.body).toEqual(refused('401', OPEN_API_MESSAGES.badSignature));
    // Signed for another path.
    const elsewhere = await signedPost(server, key, openPath('card.sim.page'), PAGE, { signature: signRequest(key.secret, { method: 'POST', path, accessKey: key.accessKey, timestamp, nonce: 'n'.repeat(16), body: JSON.stringify(PAGE) }), nonce: 'n'.repeat(16), timestamp });
    expect(elsewhere.body).toEqual(refused('401', OPEN_API_MESSAGES.badSignature));
    await expectDocumented(server, 'card.sim.page', elsewhere.body);
    const other = await openCall(server, { accessKey: key.accessKey, secret: 'sk_not-the-secret' }, 'device.page', PAGE);
    expect(other.body).toEqual(refused('401', OPEN_API_MESSAGES.badSignature));
    // Refused calls of a known key are in its tenant's log too.
    expect((await auditOf(key.accessKey)).slice(0, 1)).toEqual([{ tenant_code: 'T0001', access_key: key.accessKey, operation: 'device.page', code: '401', message: OPEN_API_MESSAGES.badSignature }]);
  });

  it('refuses a missing or malformed header with "401", and a session token opens nothing here', async () => {
    const path = openPath('device.page');
    for (const header of ['x-access-key', 'x-timestamp', 'x-nonce', 'x-signature']) {
      const answer = await openCall(server, key, 'device.page', PAGE, { headers: { [header]: undefined } });
      expect(answer.body, header).toEqual(refused('401', OPEN_API_MESSAGES.unsigned));
    }
    expect((await openCall(server, key, 'device.page', PAGE, { headers: { 'x-nonce': 'short' } })).body.code).toBe('401');
    expect((await openCall(server, key, 'device.page', PAGE, { headers: { 'x-timestamp': 'yesterday' } })).body.code).toBe('401');
    const withToken = await server.app.inject({ method: 'POST', url: path, headers: { 'content-type': 'application/json', token: tadmin }, payload: PAGE });
    expect(withToken.json()).toEqual(refused('401', OPEN_API_MESSAGES.unsigned));
    // And a signature opens none of the console's paths.
    const signedConsole = await signedPost(server, key, '/api/device/_page', PAGE);
    expect(signedConsole.body.code).toBe('301');
  });

  it('refuses a body that is no JSON or poisons a prototype with "400", audited', async () => {
    for (const rawBody of ['{"pageParam": ', '{"__proto__": {"admin": true}, "pageParam": {"pageNumber": 1, "pageSize": 20}}']) {
      const answer = await openCall(server, key, 'device.page', PAGE, { rawBody });
      expect(answer.body.code, rawBody).toBe('400');
      expect(answer.body.message, rawBody).toMatch(/^参数错误/);
      expect((await auditOf(key.accessKey))[0], rawBody).toMatchObject({ operation: 'device.page', code: '400' });
    }
  });

  it('refuses an unknown key with "401" 访问密钥无效', async () => {
    const answer = await openCall(server, { accessKey: `ak_${'0'.repeat(32)}`, secret: key.secret }, 'device.page', PAGE);
    expect(answer.body).toEqual(refused('401', OPEN_API_MESSAGES.unknownKey));
  });

  it(`refuses a timestamp more than ${CLOCK_SKEW_SECONDS} s old or ahead with "401", and takes one within`, async () => {
    const now = Math.floor(server.now().getTime() / 1000);
    for (const timestamp of [now - CLOCK_SKEW_SECONDS - 2, now + CLOCK_SKEW_SECONDS + 2, 0]) {
      expect((await openCall(server, key, 'device.page', PAGE, { timestamp })).body, String(timestamp - now)).toEqual(refused('401', OPEN_API_MESSAGES.stale));
    }
    for (const timestamp of [now - CLOCK_SKEW_SECONDS + 5, now + CLOCK_SKEW_SECONDS - 5]) {
      expect((await openCall(server, key, 'device.page', PAGE, { timestamp })).body.code, String(timestamp - now)).toBe('200');
    }
  });

  it('takes a nonce once: a replay is "401", also later in the window and from several requests at once', async () => {
    const nonce = newNonce();
    const timestamp = Math.floor(server.now().getTime() / 1000);
    expect((await openCall(server, key, 'device.page', PAGE, { nonce, timestamp })).body.code).toBe('200');
    expect((await openCall(server, key, 'device.page', PAGE, { nonce, timestamp })).body).toEqual(refused('401', OPEN_API_MESSAGES.replayed));
    server.advance(CLOCK_SKEW_SECONDS - 10);
    expect((await openCall(server, key, 'device.page', PAGE, { nonce, timestamp })).body).toEqual(refused('401', OPEN_API_MESSAGES.replayed));
    // Past the window the timestamp refuses it.
    server.advance(20);
    expect((await openCall(server, key, 'device.page', PAGE, { nonce, timestamp })).body).toEqual(refused('401', OPEN_API_MESSAGES.stale));

    const together = newNonce();
    const at = Math.floor(server.now().getTime() / 1000);
    const answers = await Promise.all(Array.from({ length: 8 }, () => openCall(server, key, 'device.page', PAGE, { nonce: together, timestamp: at })));
    expect(answers.map((answer) => answer.body.code).sort()).toEqual(['200', ...Array(7).fill('401')]);
    const [{ count }] = await server.db.query<{ count: number }>('SELECT count(*)::int AS count FROM open_api_nonce WHERE access_key = $1 AND nonce = $2', [key.accessKey, together]);
    expect(count).toBe(1);
  });

  it('shows nothing of another tenant: its objects are "404", its rows never listed', async () => {
    const theirs = await oneOf<{ code: string }>("SELECT code FROM device WHERE tenant_code = 'T0002' AND deleted_at IS NULL AND online_state = 'online' AND NOT sleeping ORDER BY id LIMIT 1");
    expect((await openCall(server, key, 'device.detail', { param: { code: theirs.code } })).body).toEqual(refused('404', '设备不存在'));
    expect((await openCall(server, key, 'device.data.page', { ...PAGE, param: { code: theirs.code } })).body).toEqual(refused('404', '设备不存在'));
    expect((await openCall(server, key, 'deviceAccess.command.generate', { param: { code: theirs.code, commandType: 'reboot' } })).body).toEqual(refused('404', '设备不存在'));
    const theirAlarm = await oneOf<{ code: string }>("SELECT code FROM alarm_record WHERE tenant_code = 'T0002' AND source = 'device' AND state = 'pending' ORDER BY id LIMIT 1");
    const handle = await openCall(server, key, 'alarm.record.handle', { param: { code: theirAlarm.code, state: 'ignored', remark: '越权' } });
    expect(handle.body.code).toBe('404');
    expect((await oneOf<{ state: string }>('SELECT state FROM alarm_record WHERE code = $1', [theirAlarm.code])).state).toBe('pending');
    // Lists filtered on the other tenant's objects come back empty.
    expect((await openCall<Page<unknown>>(server, key, 'device.page', { ...PAGE, param: { keyword: theirs.code } })).body.data!.total).toBe(0);
    expect((await openCall<Page<unknown>>(server, key, 'alarm.record.page', { ...PAGE, param: { deviceCode: theirs.code } })).body.data!.total).toBe(0);
    expect((await openCall<Page<unknown>>(server, key, 'card.sim.page', { ...PAGE, param: { tenantCode: 'T0002' } })).body.data!.total).toBe(0);
    const orders = await openCall<Page<{ tenantCode: string }>>(server, key, 'repair.order.page', { pageParam: { pageNumber: 1, pageSize: 1000 } });
    expect(new Set(orders.body.data!.records.map((order) => order.tenantCode))).toEqual(new Set(['T0001']));
    // The other tenant's own key sees its own devices.
    const theirKey = await issueKey(server, 'badmin');
    expect((await openCall(server, theirKey, 'device.detail', { param: { code: theirs.code } })).body.code).toBe('200');
  });

  it(`limits each key to ${OPEN_API_RATE_LIMIT.calls} calls a minute with "429" and Retry-After, counted in the database`, async () => {
    const limited = await issueKey(server, 'badmin');
    // The window's earlier calls, as another instance would have counted them.
    expect((await openCall(server, limited, 'device.page', PAGE)).body.code).toBe('200');
    await server.db.query("UPDATE rate_counter SET hits = $2 WHERE scope = 'open-api' AND key = $1", [limited.accessKey, OPEN_API_RATE_LIMIT.calls - 2]);
    expect((await openCall(server, limited, 'device.page', PAGE)).body.code).toBe('200');
    expect((await openCall(server, limited, 'device.page', PAGE)).body.code).toBe('200');
    const over = await openCall(server, limited, 'device.page', PAGE);
    expect(over.body).toEqual(refused('429', OPEN_API_MESSAGES.tooFrequent));
    const wait = Number(over.headers['retry-after']);
    expect(wait).toBeGreaterThan(0);
    expect(wait).toBeLessThanOrEqual(OPEN_API_RATE_LIMIT.windowSeconds);
    expect((await auditOf(limited.accessKey))[0]).toMatchObject({ tenant_code: 'T0002', code: '429' });
    // Another key is not limited by it; the next window takes calls again.
    expect((await openCall(server, key, 'device.page', PAGE)).body.code).toBe('200');
    server.advance(OPEN_API_RATE_LIMIT.windowSeconds + 1);
    expect((await openCall(server, limited, 'device.page', PAGE)).body.code).toBe('200');
  });
});

describe('openApi.key.reset', () => {
  it('stops the old key at once and the new one works; the secret is kept encrypted', async () => {
    const before = await issueKey(server);
    expect((await openCall(server, before, 'device.page', PAGE)).body.code).toBe('200');
    const after = await issueKey(server);
    expect(after.accessKey).not.toBe(before.accessKey);
    expect((await openCall(server, before, 'device.page', PAGE)).body).toEqual(refused('401', OPEN_API_MESSAGES.unknownKey));
    // The old key's secret with the new key id does not sign either.
    expect((await openCall(server, { accessKey: after.accessKey, secret: before.secret }, 'device.page', PAGE)).body).toEqual(refused('401', OPEN_API_MESSAGES.badSignature));
    expect((await openCall(server, after, 'device.page', PAGE)).body.code).toBe('200');
    // openApi.key.get shows the new key; the secret is nowhere in the table.
    expect((await server.call<string>('openApi.key.get', {}, { token: tadmin })).data).toBe(after.accessKey);
    const stored = await oneOf<{ secret_ciphertext: string }>("SELECT secret_ciphertext FROM tenant_access_key WHERE tenant_code = 'T0001'");
    expect(stored.secret_ciphertext).toMatch(/^v1\./);
    expect(stored.secret_ciphertext).not.toContain(after.secret.slice(3));
    key = after;
  });

  it('is conditional on the key the caller was shown: of two resets from one view, one wins', async () => {
    const shown = (await server.call<string>('openApi.key.get', {}, { token: tadmin })).data!;
    const answers = await Promise.all([1, 2, 3].map(() => server.call<{ accessKey: string; secret: string }>('openApi.key.reset', { accessKey: shown }, { token: tadmin })));
    const winners = answers.filter((answer) => answer.code === '200');
    expect(winners).toHaveLength(1);
    expect(answers.filter((answer) => answer.code === '409').map((answer) => answer.message)).toEqual(['访问密钥已被他人重置，请刷新后重试', '访问密钥已被他人重置，请刷新后重试']);
    key = { accessKey: winners[0].data!.accessKey, secret: winners[0].data!.secret };
    expect((await openCall(server, key, 'device.page', PAGE)).body.code).toBe('200');
  });

  it('is for the tenant administrator only: the key acts with that role', async () => {
    for (const loginName of ['tuser', 'repair', 'patrol', 'implement', 'operator']) {
      expect((await server.call('openApi.key.reset', {}, { token: await server.login(loginName) })).code, loginName).toBe('403');
    }
    expect((await server.call('openApi.key.reset', {}, { token: await server.login('admin', ADMIN_PASSWORD) })).code).toBe('403');
    expect((await server.call('openApi.key.reset', {})).code).toBe('301');
  });

  it('a key made by openApi.key.get before any reset has no secret and opens nothing', async () => {
    await server.db.query("DELETE FROM tenant_access_key WHERE tenant_code = 'T0002'");
    const made = (await server.call<string>('openApi.key.get', {}, { token: await server.login('badmin') })).data!;
    const answer = await openCall(server, { accessKey: made, secret: 'sk_anything' }, 'device.page', PAGE);
    expect(answer.body).toEqual(refused('401', OPEN_API_MESSAGES.noSecret));
  });
});

describe('openApi.call.page', () => {
  it('lists the tenant\'s calls, newest first, to its administrator only', async () => {
    const reply = await server.call<Page<{ operation: string; code: string; accessKey: string; path: string; callTime: string; tenantCode: string }>>('openApi.call.page', {}, { token: tadmin });
    expect(reply.code).toBe('200');
    const calls = reply.data!;
    expect(calls.total).toBeGreaterThan(10);
    expect(new Set(calls.records.map((call) => call.tenantCode))).toEqual(new Set(['T0001']));
    const times = calls.records.map((call) => call.callTime);
    expect([...times].sort().reverse()).toEqual(times);
    const filtered = await server.call<Page<{ code: string }>>('openApi.call.page', { code: '401' }, { token: tadmin });
    expect(filtered.data!.total).toBeGreaterThan(0);
    expect(filtered.data!.records.every((call) => call.code === '401')).toBe(true);
    // The other tenant's administrator sees only theirs; other roles nothing.
    const theirs = await server.call<Page<{ tenantCode: string }>>('openApi.call.page', {}, { token: await server.login('badmin') });
    expect(theirs.data!.records.every((call) => call.tenantCode === 'T0002')).toBe(true);
    expect(theirs.data!.total).toBeGreaterThan(0);
    for (const loginName of ['tuser', 'repair']) expect((await server.call('openApi.call.page', {}, { token: await server.login(loginName) })).code, loginName).toBe('403');
    // Platform staff at the platform root see every tenant's.
    const platform = await server.call<Page<{ tenantCode: string }>>('openApi.call.page', {}, { token: await server.login('admin', ADMIN_PASSWORD) });
    expect(platform.data!.total).toBe(calls.total + theirs.data!.total);
  });
});
