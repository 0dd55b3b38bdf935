import { STORED_FILE_PATH } from '../domain/files';
import { findUserById, replacePassword, userInfoOf, type UserInfo } from '../domain/users';
import { ApiFailure, fail } from '../http/envelope';
import { countFailure, forgetFailures, loginLock } from '../security/loginGuard';
import { assertPasswordRule, hashPassword, verifyPassword } from '../security/password';
import { revokeUserSessions } from '../security/tokens';
import { callerOf } from '../core/context';
import { defineOperation } from '../core/operation';
import { objectOf, text } from '../core/params';

export const OLD_PASSWORD_WRONG = '旧密码错误';
/** "429" once the old password was wrong MAX_FAILED_LOGINS times from this address (the login's pair lock), or the name is locked across addresses. */
export const oldPasswordLocked = (minutes: number) => new ApiFailure('429', `旧密码错误次数过多，请 ${minutes} 分钟后再试`);

export const detail = defineOperation('user.detail', {
  async handler(context): Promise<UserInfo & { avatar: string }> {
    const user = await findUserById(context.db, callerOf(context).userId);
    if (!user) throw fail.session();
    return { ...userInfoOf(user), avatar: user.avatar };
  },
});

/**
 * Changes the caller's password; the caller's other sessions end. A wrong old password counts as a
 * failed login of the caller's name from this address (same count, window and lock): a stolen
 * session cannot be used to guess the password faster than the login form could.
 */
export const updatePassword = defineOperation('user.password.update', {
  paramSchema: objectOf({ oldPassWord: text(64, 1), updatePassWord: text(64, 1) }, ['oldPassWord', 'updatePassWord']),
  async handler(context): Promise<null> {
    const { db, param, now } = context;
    const caller = callerOf(context);
    const locked = await loginLock(db, caller.loginName, context.client.ip, now);
    if (locked !== null) throw oldPasswordLocked(locked.minutes);
    const [row] = await db.query<{ password_hash: string }>('SELECT password_hash FROM app_user WHERE id = $1', [caller.userId]);
    if (!row || !(await verifyPassword(param.oldPassWord, row.password_hash))) {
      const lockedMeanwhile = await countFailure(db, caller.loginName, context.client.ip, now, context.events);
      throw lockedMeanwhile === null ? fail.badRequest(OLD_PASSWORD_WRONG) : oldPasswordLocked(lockedMeanwhile.minutes);
    }
    const lockedBefore = await forgetFailures(db, caller.loginName, context.client.ip, now);
    if (lockedBefore !== null) throw oldPasswordLocked(lockedBefore.minutes);
    assertPasswordRule(param.updatePassWord);
    const hash = await hashPassword(param.updatePassWord);
    await db.transaction(async (tx) => {
      // The old password must still be the one checked: a second change sent at once finds it replaced.
      if (!(await replacePassword(tx, caller.userId, row.password_hash, hash))) throw fail.badRequest(OLD_PASSWORD_WRONG);
      await revokeUserSessions(tx, caller.userId, now, caller.sessionId);
    });
    return null;
  },
});

/** SPEC §5 nickname rules: required (请输入用户名称!), at most 32 characters once trimmed. */
export const NAME_REQUIRED = '请输入用户名称!';
export const NAME_MAX_LENGTH = 32;

export const updateName = defineOperation('user.name.update', {
  paramSchema: text(256),
  async handler(context): Promise<null> {
    const name = context.param.trim();
    if (!name) throw fail.badRequest(NAME_REQUIRED);
    if ([...name].length > NAME_MAX_LENGTH) throw fail.badRequest(`参数错误：用户名称不能超过${NAME_MAX_LENGTH}个字符`);
    // eslint-disable-next-line no-control-regex
    if (/[\u0000-\u001f\u007f]/.test(name)) throw fail.badRequest('参数错误：用户名称不能包含控制字符');
    await context.db.query('UPDATE app_user SET user_name = $2 WHERE id = $1', [callerOf(context).userId, name]);
    return null;
  },
});

/** SPEC §5: an avatar is a JPEG, PNG or SVG. */
export const AVATAR_TYPE_MESSAGE = '只可以上传JPEG、PNG和SVG格式的图片!';
const AVATAR_CONTENT_TYPES = ['image/jpeg', 'image/png', 'image/svg+xml'];

/** Sets the caller's avatar to a file they uploaded (the url system/file/upload answered). */
export const updateAvatar = defineOperation('user.avatar.update', {
  paramSchema: text(256, 1),
  async handler(context): Promise<null> {
    const caller = callerOf(context);
    const path = context.param.trim();
    const [file] = STORED_FILE_PATH.test(path)
      ? await context.db.query<{ content_type: string }>('SELECT content_type FROM uploaded_file WHERE path = $1 AND user_id = $2', [path, caller.userId])
      : [];
    if (!file) throw fail.badRequest('参数错误：头像须为本人上传的图片');
    if (!AVATAR_CONTENT_TYPES.includes(file.content_type)) throw fail.badRequest(AVATAR_TYPE_MESSAGE);
    await context.db.query('UPDATE app_user SET avatar = $2 WHERE id = $1', [caller.userId, path]);
    return null;
  },
});

export const PROFILE_OPERATIONS = [detail, updatePassword, updateName, updateAvatar];
