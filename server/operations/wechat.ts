import { lockOrganizationTree } from '../domain/organizations';
import { registerTenant } from '../domain/tenants';
import { findUserByOpenId } from '../domain/users';
import { createBindKey, createTicket, liveTicket, openIdOfBindKey, TICKET_TTL_SECONDS, spendBindKey, spendTicket } from '../domain/wechat';
import { fail } from '../http/envelope';
import { checkPassword, recordLogin } from '../security/loginGuard';
import { assertPasswordRule, hashPassword } from '../security/password';
import { openSession, type TokenPair } from '../security/tokens';
import { normalizeTarget, verifyCode } from '../security/verification';
import { defineOperation } from '../core/operation';
import { objectOf, text } from '../core/params';

export const ticket = defineOperation('auth.ticket', {
  async handler({ db, now }): Promise<{ ticket: string; qrContent: string; expiresIn: number }> {
    const value = await createTicket(db, now);
    return { ticket: value, qrContent: `https://open.weixin.qq.com/connect/qrconnect?ticket=${value}`, expiresIn: TICKET_TTL_SECONDS };
  },
});

export type WechatLoginResult =
  | { status: 'pending' }
  | { status: 'expired' }
  | ({ status: 'bound' } & TokenPair)
  | { status: 'unbound'; bindKey: string };

/** Polled by the QR panel: signs in a bound scanner, hands an unbound one a bind key. */
export const wechatLogin = defineOperation('auth.wechat.login', {
  paramSchema: objectOf({ ticket: text(64, 1) }, ['ticket']),
  async handler({ db, param, now, config, client }): Promise<WechatLoginResult> {
    const row = await liveTicket(db, param.ticket, now);
    if (!row) return { status: 'expired' };
    if (!row.open_id) return { status: 'pending' };
    const openId = row.open_id;
    return db.transaction(async (tx): Promise<WechatLoginResult> => {
      // Two polls of one scanned ticket at once: the first uses it up, the other finds it spent.
      if (!(await spendTicket(tx, row.ticket, now))) return { status: 'expired' };
      const user = await findUserByOpenId(tx, openId);
      if (!user) return { status: 'unbound', bindKey: await createBindKey(tx, openId, now) };
      if (user.status !== 1) throw fail.forbidden('账号已停用');
      await recordLogin(tx, { loginName: user.loginName, userId: user.id, method: 'wechat', success: true, reason: '' }, client, now);
      return { status: 'bound', ...(await openSession(tx, user.id, config, now, client)) };
    });
  },
});

/** Binds the scanned WeChat account to an existing account (checked like a login) and signs in. */
export const wechatBind = defineOperation('auth.wechat.bind', {
  paramSchema: objectOf({ bindKey: text(64, 1), loginName: text(64, 1), password: text(64, 1) }, ['bindKey', 'loginName', 'password']),
  async handler({ db, param, now, config, client, events }): Promise<TokenPair> {
    const openId = await openIdOfBindKey(db, param.bindKey, now);
    const user = await checkPassword(db, param.loginName.trim(), param.password, client, now, events, 'wechat');
    if (user.wechatOpenId && user.wechatOpenId !== openId) throw fail.conflict('该账号已绑定其他微信');
    return db.transaction(async (tx) => {
      // The key, the account's binding and the WeChat account's holder are read where they are written.
      await spendBindKey(tx, param.bindKey, now);
      const [bound] = await tx.query<{ wechat_open_id: string | null }>('SELECT wechat_open_id FROM app_user WHERE id = $1', [user.id]);
      if (bound?.wechat_open_id && bound.wechat_open_id !== openId) throw fail.conflict('该账号已绑定其他微信');
      const holder = await findUserByOpenId(tx, openId);
      if (holder && holder.id !== user.id) throw fail.conflict('该微信已绑定其他账号');
      await tx.query('UPDATE app_user SET wechat_open_id = $2 WHERE id = $1', [user.id, openId]);
      return openSession(tx, user.id, config, now, client);
    });
  },
});

/** Registers a new tenant and its administrator, bound to the scanned WeChat account, and signs in. */
export const wechatRegister = defineOperation('auth.wechat.register', {
  paramSchema: objectOf(
    { bindKey: text(64, 1), tenantName: text(64, 1), userName: text(32, 1), phoneNumber: text(32, 1), code: text(16, 1), password: text(64, 1) },
    ['bindKey', 'tenantName', 'userName', 'phoneNumber', 'code', 'password'],
  ),
  async handler({ db, param, now, config, client }): Promise<TokenPair> {
    const tenantName = param.tenantName.trim();
    const userName = param.userName.trim();
    if (!tenantName) throw fail.badField('tenantName');
    if (!userName) throw fail.badField('userName');
    const phone = normalizeTarget('sms', param.phoneNumber);
    assertPasswordRule(param.password);
    const openId = await openIdOfBindKey(db, param.bindKey, now);
    await verifyCode(db, phone, param.code, now);
    const passwordHash = await hashPassword(param.password);
    return db.transaction(async (tx) => {
      await lockOrganizationTree(tx);
      await spendBindKey(tx, param.bindKey, now);
      const userId = await registerTenant(tx, { tenantName, userName, phone, passwordHash, wechatOpenId: openId, now });
      await recordLogin(tx, { loginName: phone, userId, method: 'wechat', success: true, reason: 'registered' }, client, now);
      return openSession(tx, userId, config, now, client);
    });
  },
});

export const WECHAT_OPERATIONS = [ticket, wechatLogin, wechatBind, wechatRegister];
