import { issueDeviceSecret } from '../ingest/deviceCredentials';
import { noteBrokerPasswords } from '../ingest/mosquittoAccounts';
import { findUserByLoginName } from '../domain/users';
import { liveTicket } from '../domain/wechat';
import { fail } from '../http/envelope';
import { captchaAnswer } from '../security/captcha';
import { expireAccessTokens } from '../security/tokens';
import { defineOperation } from '../core/operation';
import { objectOf, schemaOf, text } from '../core/params';

/** Development helpers (access "dev"): routed only when the server runs with --dev. */

export interface OutboxMessage {
  id: number;
  channel: string;
  target: string;
  code: string;
  content: string;
  createdAt: string;
}

export const outbox = defineOperation('dev.outbox', {
  paramSchema: objectOf({ target: text(128) }),
  async handler({ db, param }): Promise<OutboxMessage[]> {
    const target = param.target?.trim();
    const rows = await db.query<{ id: number; channel: string; target: string; code: string; content: string; created_at: Date }>(
      `SELECT id, channel, target, code, content, created_at FROM outbox
        WHERE $1::text IS NULL OR target = $1 OR target = lower($1)
        ORDER BY id DESC LIMIT 100`,
      [target || null],
    );
    return rows.map(({ created_at, ...row }) => ({ ...row, createdAt: created_at.toISOString() }));
  },
});

/** Simulates the WeChat app scanning a ticket as `openId`. */
export const wechatScan = defineOperation('dev.wechat.scan', {
  paramSchema: objectOf({ ticket: text(64, 1), openId: text(64, 1) }, ['ticket', 'openId']),
  async handler({ db, param, now }): Promise<null> {
    const row = await liveTicket(db, param.ticket, now);
    if (!row) throw fail.notFound('票据不存在或已过期');
    await db.query('UPDATE wechat_ticket SET open_id = $2, scanned_at = $3 WHERE ticket = $1', [row.ticket, param.openId, now]);
    return null;
  },
});

/** The answer of a live image captcha (tests and demos solve it so; never routed in production). */
export const captcha = defineOperation('dev.captcha', {
  paramSchema: objectOf({ uuid: text(64, 1) }, ['uuid']),
  async handler({ db, param, now }): Promise<string> {
    const answer = await captchaAnswer(db, param.uuid, now);
    if (answer === null) throw fail.notFound('图形验证码不存在或已失效');
    return answer;
  },
});

/** Puts the database back to the freshly seeded state (every session ends). */
export const reset = defineOperation('dev.reset', {
  async handler({ resetToSeed }): Promise<null> {
    await resetToSeed();
    return null;
  },
});

/**
 * Expires the user's access tokens so that the next call answers "301" (the console renews them
 * with the refresh token); with `refresh: true` the refresh tokens too, so the session ends.
 */
export const expireSession = defineOperation('dev.session.expire', {
  paramSchema: objectOf({ loginName: text(64, 1), refresh: schemaOf<boolean>({ type: 'boolean' }) }, ['loginName']),
  async handler({ db, param, now }): Promise<{ expired: number }> {
    const user = await findUserByLoginName(db, param.loginName);
    if (!user) throw fail.notFound('用户不存在');
    return { expired: await expireAccessTokens(db, user.id, now, param.refresh === true) };
  },
});

/**
 * Makes a device look silent for `minutes` (its last report that long ago), so a browser test sees
 * the offline sweep take it offline without waiting minutes of real time.
 */
export const silenceDevice = defineOperation('dev.device.silence', {
  paramSchema: objectOf({ code: text(64, 1), minutes: schemaOf<number>({ type: 'integer', minimum: 1, maximum: 1440 }) }, ['code', 'minutes']),
  async handler({ db, param, now }): Promise<{ silenced: number }> {
    const rows = await db.query<{ id: number }>(
      `UPDATE device SET last_reported_at = $2::timestamptz - make_interval(mins => $3::int)
        WHERE code = $1 AND deleted_at IS NULL AND last_reported_at IS NOT NULL RETURNING id`,
      [param.code, now, param.minutes],
    );
    if (rows.length === 0) throw fail.notFound('设备不存在或从未上报');
    return { silenced: rows.length };
  },
});

/** A device the simulator drives: its credential and the readings it starts from. */
export interface SimulatedDeviceCredential {
  code: string;
  secret: string;
  productCode: string;
  tenantCode: string;
  batteryLevel: number | null;
  signalStrength: number | null;
  temperature: number | null;
}

/** The most devices one call issues credentials for (the seeded world has about 10,000). */
export const MAX_SIMULATED_DEVICES = 20_000;
/** Secrets issued per transaction: one round trip per device, one commit per batch. */
const CREDENTIAL_BATCH = 500;

/**
 * Issues new credentials for up to `count` live devices of a tenant (T0001 unless told; "all": of
 * every tenant), the same ones each time (by id), for the device simulator (scripts/simulate.ts):
 * each device's old secret stops at once. Answers code and secret with the product and the latest
 * readings the simulator starts from.
 */
export const deviceCredentials = defineOperation('dev.device.credentials', {
  paramSchema: objectOf({
    tenantCode: schemaOf<string>({ type: 'string', pattern: '^(T[0-9]{4}|all)$' }),
    count: schemaOf<number>({ type: 'integer', minimum: 1, maximum: MAX_SIMULATED_DEVICES }),
  }),
  async handler({ db, param, now, config }): Promise<SimulatedDeviceCredential[]> {
    const tenantCode = param.tenantCode ?? 'T0001';
    const rows = await db.query<{ id: number; code: string; product_code: string; tenant_code: string; battery_level: number | null; signal_strength: number | null; temperature: string | null }>(
      `SELECT id, code, product_code, tenant_code, battery_level, signal_strength, temperature FROM device
        WHERE deleted_at IS NULL AND ($1 = 'all' OR tenant_code = $1)
        ORDER BY id LIMIT $2`,
      [tenantCode, param.count ?? 20],
    );
    if (rows.length === 0) throw fail.notFound('该租户没有可模拟的设备');
    const answer: SimulatedDeviceCredential[] = [];
    for (let start = 0; start < rows.length; start += CREDENTIAL_BATCH) {
      const batch = rows.slice(start, start + CREDENTIAL_BATCH);
      const secrets = await db.transaction(async (tx) => {
        const issued: string[] = [];
        for (const row of batch) issued.push(await issueDeviceSecret(tx, row.id, null, now));
        await noteBrokerPasswords(tx, config, batch.map((row, index) => ({ code: row.code, secret: issued[index] })));
        return issued;
      });
      batch.forEach((row, index) =>
        answer.push({
          code: row.code,
          secret: secrets[index],
          productCode: row.product_code,
          tenantCode: row.tenant_code,
          batteryLevel: row.battery_level,
          signalStrength: row.signal_strength,
          temperature: row.temperature === null ? null : Number(row.temperature),
        }),
      );
    }
    return answer;
  },
});

export const DEV_OPERATIONS = [outbox, wechatScan, captcha, reset, expireSession, silenceDevice, deviceCredentials];
