import type { Queryable } from '../../db/database';
import { USER_STATUS } from '../../domain/users';
import { fail } from '../../http/envelope';
import { assertPasswordRule, hashPassword } from '../../security/password';
import { revokeUserSessions } from '../../security/tokens';
import { issueCode, maskTarget } from '../../security/verification';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, text, orBlank, matching } from '../../core/params';
import { checkRoleAssignable } from '../../core/roles';
import { tenantOf } from '../../domain/organizations';
import { requireView, workingOrganizations } from '../../core/access';

/**
 * What an administrator does to another user's account from the user list: reset the password
 * to a temporary one (the user must change it at the next login), reset the bound phone, and
 * set the organisations the user belongs to. Only users within the caller's working
 * organisations ("404" 用户不存在 for anyone else), never the caller's own account. Plus the PC
 * mail code: a verification code sent to the caller's own bound mail.
 */

const PHONE = '^1[3-9]\\d{9}$';
export const SENT_MESSAGE = '发送成功';
const DISABLED_MESSAGE = '该用户已停用，请先启用再重置密码';

interface AccountRow {
  id: number;
  login_name: string;
  user_name: string;
  phone: string | null;
  status: number;
}

/** A user of the caller's working organisations by login name or id ("404" 用户不存在 otherwise). */
async function accountInScope(context: OperationContext<unknown>, by: { loginName: string } | { userId: number }): Promise<AccountRow> {
  const [column, value] = 'loginName' in by ? ['login_name', by.loginName] : ['id', by.userId];
  const [row] = await context.db.query<AccountRow>(
    `SELECT u.id, u.login_name, u.user_name, u.phone, u.status FROM app_user u
      WHERE u.${column} = $1
        AND EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND uo.organization_code = ANY($2::text[]))`,
    [value, await workingOrganizations(context)],
  );
  if (!row) throw fail.notFound('用户不存在');
  return row;
}

function refuseOwnAccount(context: OperationContext<unknown>, account: AccountRow, message: string): void {
  if (account.id === callerOf(context).userId) throw fail.conflict(message);
}

interface OrganizationRef {
  organizationCode: string;
  organizationName: string;
  organizationType: number;
}

async function organizationsOf(db: Queryable, userId: number): Promise<OrganizationRef[]> {
  const rows = await db.query<{ code: string; name: string; type: number }>(
    `SELECT o.code, o.name, o.type FROM user_organization uo JOIN organization o ON o.code = uo.organization_code
      WHERE uo.user_id = $1 ORDER BY uo.sort, o.sort, o.id`,
    [userId],
  );
  return rows.map((row) => ({ organizationCode: row.code, organizationName: row.name, organizationType: row.type }));
}

export const accountOperations = [
  /**
   * Sets a temporary password the administrator chose for the user (by login name): the user's
   * sessions end, a lockout is lifted, and the next login goes to the forced password change.
   * The password is never written to the log.
   */
  defineOperation('user.password.reset', {
    paramSchema: objectOf({ loginName: text(32, 1), password: text(64, 1) }, ['loginName', 'password']),
    handler: async (context) => {
      const { loginName, password } = context.param;
      assertPasswordRule(password);
      const account = await accountInScope(context, { loginName });
      refuseOwnAccount(context, account, '不能重置自己的密码，请在账号信息中修改密码');
      if (account.status !== USER_STATUS.active) throw fail.conflict(DISABLED_MESSAGE);
      const hash = await hashPassword(password);
      await context.db.transaction(async (tx) => {
        // Still there and still active where the password is written (a stop or a deletion may have come between).
        const [reset] = await tx.query<{ status: number }>(
          `UPDATE app_user SET password_hash = $2, need_modify_password = true
            WHERE id = $1 AND status = $3 RETURNING status`,
          [account.id, hash, USER_STATUS.active],
        );
        if (!reset) {
          const [exists] = await tx.query('SELECT 1 FROM app_user WHERE id = $1', [account.id]);
          throw exists ? fail.conflict(DISABLED_MESSAGE) : fail.notFound('用户不存在');
        }
        await revokeUserSessions(tx, account.id, context.now);
      });
      context.log(`[account] ${callerOf(context).loginName} reset the password of ${account.login_name}`);
      return null;
    },
  }),

  /**
   * Replaces the phone a user has bound (a lost or changed number) or, with an empty number,
   * unbinds it so the user can bind a new one in the account drawer.
   */
  defineOperation('user.phone.reset', {
    paramSchema: objectOf(
      {
        loginName: text(32, 1),
        phoneNumber: orBlank(matching(PHONE)),
      },
      ['loginName'],
    ),
    handler: async (context) => {
      const account = await accountInScope(context, { loginName: context.param.loginName });
      refuseOwnAccount(context, account, '不能重置自己的手机号，请在账号信息中修改');
      const next = context.param.phoneNumber || null;
      // The phone is read where it is written: of two identical resets sent at once the second finds
      // the new number already set ("409"), as it would later; a number taken meanwhile is "409" too.
      await context.db.transaction(async (tx) => {
        const [current] = await tx.query<{ phone: string | null }>('SELECT phone FROM app_user WHERE id = $1', [account.id]);
        if (!current) throw fail.notFound('用户不存在');
        if (!next && !current.phone) throw fail.conflict('该用户未绑定手机号');
        if (next && next === current.phone) throw fail.conflict('新手机号与原手机号相同');
        if (next) {
          const [taken] = await tx.query('SELECT 1 FROM app_user WHERE phone = $1 AND id <> $2', [next, account.id]);
          if (taken) throw fail.conflict('手机号已被使用');
        }
        await tx.query('UPDATE app_user SET phone = $2 WHERE id = $1', [account.id, next]);
      });
      context.log(`[account] ${callerOf(context).loginName} reset the phone of ${account.login_name} to ${next ? maskTarget(next) : 'none'}`);
      return null;
    },
  }),

  /** The organisations a user belongs to, the first being the user's home organisation. */
  defineOperation('user.org.get', {
    paramSchema: objectOf({ userId: { type: 'integer', minimum: 1 } }, ['userId']),
    handler: async (context) => {
      await requireView(context, 'system/user');
      const account = await accountInScope(context, { userId: context.param.userId });
      const organizations = await organizationsOf(context.db, account.id);
      return {
        userId: account.id,
        loginName: account.login_name,
        userName: account.user_name,
        organizationCodes: organizations.map((org) => org.organizationCode),
        organizations,
      };
    },
  }),

  /**
   * Sets the organisations a user belongs to (the first is the home organisation). Only
   * organisations within the caller's working organisations; the user's memberships outside
   * them stay. All within one tenant, and the user's tenant-owned roles must still fit.
   */
  defineOperation('user.org.set', {
    paramSchema: objectOf(
      {
        userId: { type: 'integer', minimum: 1 },
        organizationCodes: { type: 'array', minItems: 1, maxItems: 20, uniqueItems: true, items: text(64, 1) },
      },
      ['userId', 'organizationCodes'],
    ),
    handler: async (context) => {
      const { userId, organizationCodes } = context.param;
      const account = await accountInScope(context, { userId });
      refuseOwnAccount(context, account, '不能修改自己的所属组织');
      // Outside the working organisations, another tenant's organisation and one that exists
      // nowhere answer alike (an organisation in scope exists).
      const scope = new Set(await workingOrganizations(context));
      if (organizationCodes.some((code) => !scope.has(code))) throw fail.forbidden('无权访问该组织');
      const kept = (await organizationsOf(context.db, account.id)).map((org) => org.organizationCode).filter((code) => !scope.has(code));
      const all = [...organizationCodes, ...kept.filter((code) => !organizationCodes.includes(code))];
      const tenants = new Set(await Promise.all(all.map((code) => tenantOf(context.db, code))));
      if (tenants.size > 1) throw fail.conflict('所属组织须在同一租户内');
      const roles = await context.db.query<{ role_code: string }>('SELECT role_code FROM user_role WHERE user_id = $1', [account.id]);
      for (const role of roles) await checkRoleAssignable(context, role.role_code, all);
      await context.db.transaction(async (tx) => {
        await tx.query('DELETE FROM user_organization WHERE user_id = $1', [account.id]);
        await tx.query(
          'INSERT INTO user_organization (user_id, organization_code, sort) SELECT $1, code, ordinality - 1 FROM unnest($2::text[]) WITH ORDINALITY AS o(code, ordinality)',
          [account.id, all],
        );
      });
      return null;
    },
  }),

  /** The PC mail code: a verification code sent to the caller's own bound mail (发送成功). */
  defineOperation('verification.mail.get', {
    handler: async (context): Promise<string> => {
      const caller = callerOf(context);
      const [user] = await context.db.query<{ mail: string | null }>('SELECT mail FROM app_user WHERE id = $1', [caller.userId]);
      if (!user?.mail) throw fail.conflict('当前账号未绑定邮箱');
      // Counted against the caller and charged to their tenant, as every signed-in caller's code (issue 30).
      const home = caller.organizationCodes[0];
      const tenantCode = home ? await tenantOf(context.db, home) : null;
      await issueCode(
        context.db,
        { channel: 'mail', target: user.mail, deliver: true, tenantCode, requestedBy: caller.userId, now: context.now, timeZone: context.config.timeZone },
        context.log,
        context.events,
      );
      return SENT_MESSAGE;
    },
  }),
];
