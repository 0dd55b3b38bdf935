import { findUserByContact, findUserByOpenId, setPassword, type UserProfile } from '../domain/users';
import { liveTicket, spendTicket } from '../domain/wechat';
import { fail } from '../http/envelope';
import type { Database } from '../db/database';
import { assertPasswordRule, hashPassword } from '../security/password';
import { revokeUserSessions } from '../security/tokens';
import { normalizeTarget, verifyCode, WRONG_CODE_MESSAGE } from '../security/verification';
import { defineOperation } from '../core/operation';
import { objectOf, schemaOf, text, type ParamOf } from '../core/params';

export const TICKET_INVALID = '二维码已失效，请重新扫码';

const FORGET_SCHEMA = objectOf(
  { way: schemaOf<'phone' | 'mail' | 'wechat'>({ enum: ['phone', 'mail', 'wechat'] }), account: text(128), code: text(16), ticket: text(64), password: text(64, 1) },
  ['way', 'password'],
);
type ForgetParam = ParamOf<typeof FORGET_SCHEMA>;

/** The user a phone or mail code proves, or "400" 验证码错误或已过期. */
async function userByCode(db: Database, way: 'phone' | 'mail', param: ForgetParam, now: Date): Promise<UserProfile> {
  if (!param.account) throw fail.badField('account');
  if (!param.code) throw fail.badField('code');
  const target = normalizeTarget(way === 'mail' ? 'mail' : 'sms', param.account);
  await verifyCode(db, target, param.code, now);
  const user = await findUserByContact(db, target);
  if (!user) throw fail.badRequest(WRONG_CODE_MESSAGE);
  return user;
}

/** The user whose bound WeChat account scanned the ticket. */
async function userByTicket(db: Database, param: ForgetParam, now: Date): Promise<UserProfile> {
  if (!param.ticket) throw fail.badField('ticket');
  const row = await liveTicket(db, param.ticket, now);
  if (!row?.open_id) throw fail.badRequest(TICKET_INVALID);
  const user = await findUserByOpenId(db, row.open_id);
  if (!user) throw fail.badRequest('该微信未绑定账号');
  // One password per scan: of two requests with one ticket, the one that spends it goes on.
  if (!(await spendTicket(db, row.ticket, now))) throw fail.badRequest(TICKET_INVALID);
  return user;
}

/** Sets a new password without a session, proven by a code (phone, mail) or a WeChat scan. */
export const forgetPassword = defineOperation('user.password.forget', {
  paramSchema: FORGET_SCHEMA,
  async handler({ db, param, now }): Promise<null> {
    assertPasswordRule(param.password);
    const user = param.way === 'wechat' ? await userByTicket(db, param, now) : await userByCode(db, param.way, param, now);
    const hash = await hashPassword(param.password);
    await db.transaction(async (tx) => {
      await setPassword(tx, user.id, hash);
      await revokeUserSessions(tx, user.id, now);
    });
    return null;
  },
});

export const RECOVERY_OPERATIONS = [forgetPassword];
