import { findUserById, setPassword, userInfoOf, type UserInfo } from '../domain/users';
import { fail } from '../http/envelope';
import { assertPasswordRule, hashPassword, verifyPassword } from '../security/password';
import { revokeUserSessions } from '../security/tokens';
import { callerOf, defineOperation, objectOf, text } from './define';

export const OLD_PASSWORD_WRONG = '旧密码错误';

export const detail = defineOperation<Record<string, never>, UserInfo & { avatar: string }>('user.detail', {
  async handler(context) {
    const user = await findUserById(context.db, callerOf(context).userId);
    if (!user) throw fail.session();
    return { ...userInfoOf(user), avatar: user.avatar };
  },
});

/** Changes the caller's password; the caller's other sessions end. */
export const updatePassword = defineOperation<{ oldPassWord: string; updatePassWord: string }, null>('user.password.update', {
  paramSchema: objectOf({ oldPassWord: text(64, 1), updatePassWord: text(64, 1) }, ['oldPassWord', 'updatePassWord']),
  async handler(context) {
    const { db, param, now } = context;
    const caller = callerOf(context);
    const [row] = await db.query<{ password_hash: string }>('SELECT password_hash FROM app_user WHERE id = $1', [caller.userId]);
    if (!row || !(await verifyPassword(param.oldPassWord, row.password_hash))) throw fail.badRequest(OLD_PASSWORD_WRONG);
    assertPasswordRule(param.updatePassWord);
    const hash = await hashPassword(param.updatePassWord);
    await db.transaction(async (tx) => {
      await setPassword(tx, caller.userId, hash);
      await revokeUserSessions(tx, caller.userId, now, caller.sessionId);
    });
    return null;
  },
});

export const PROFILE_OPERATIONS = [detail, updatePassword];
