import type { UserInfo } from '../domain/users';
import { fail } from '../http/envelope';
import { checkPassword, recordLogin } from '../security/loginGuard';
import { consumeRefreshToken, openSession, revokeSession, type TokenPair } from '../security/tokens';
import { callerOf } from '../core/context';
import { defineOperation } from '../core/operation';
import { objectOf, text } from '../core/params';

export const login = defineOperation('auth.login', {
  paramSchema: objectOf({ loginName: text(64, 1), password: text(64, 1) }, ['loginName', 'password']),
  async handler({ db, param, client, now, config, events }): Promise<TokenPair> {
    const user = await checkPassword(db, param.loginName.trim(), param.password, client, now, events);
    return openSession(db, user.id, config, now, client);
  },
  // An attempt refused for its input (a NUL byte) is still an attempt: it goes into the login log.
  async onRefusedInput({ db, param, client, now, events }) {
    const name = typeof param === 'object' && param !== null ? (param as { loginName?: unknown }).loginName : undefined;
    await recordLogin(db, { loginName: typeof name === 'string' ? name.trim() : '', userId: null, method: 'password', success: false, reason: 'invalid input' }, client, now);
    events.loginRefused('invalid input');
  },
});

export const logout = defineOperation('auth.logout', {
  async handler(context): Promise<null> {
    // A sign-out sent twice at once ends the session once; the other finds it ended, as it would later.
    if (!(await revokeSession(context.db, callerOf(context).sessionId, context.now))) throw fail.session();
    return null;
  },
});

export const refresh = defineOperation('auth.refresh', {
  paramSchema: objectOf({ refreshToken: text(128, 1) }, ['refreshToken']),
  async handler({ db, param, now, config, client }): Promise<TokenPair> {
    return db.transaction(async (tx) => {
      const userId = await consumeRefreshToken(tx, param.refreshToken, now);
      if (userId === null) throw fail.session();
      return openSession(tx, userId, config, now, client);
    });
  },
});

export const init = defineOperation('auth.init', {
  // Everything it answers came with the call's session (server/security/caller.ts): no query.
  async handler(context): Promise<UserInfo> {
    const caller = callerOf(context);
    return {
      loginUserCode: caller.userCode,
      loginUserId: caller.userId,
      loginUserName: caller.loginName,
      mail: caller.profile.mail ?? '',
      orgCodeList: caller.organizationCodes,
      phoneNumber: caller.profile.phone ?? '',
      roleList: caller.roles,
      userName: caller.profile.userName,
      needModifyPassword: caller.profile.needModifyPassword,
    };
  },
});

export const AUTH_OPERATIONS = [login, logout, refresh, init];
