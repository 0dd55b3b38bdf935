import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, positiveInteger, schemaOf, text } from '../../core/params';
import { column, contains, custom, equals, listing, textColumn, timeColumn, type ItemOf } from '../../core/listing';
import { organizationScope, type OrganizationScope } from '../../core/scope';
import { requireView } from '../../core/access';
import { checkAssignment, deleteUsers, HOLDS_ROLE, insertUser, USER_LOOKUPS, USER_NOT_FOUND, userFieldsOf, usersWithin, writeUser } from '../../core/userAccounts';

/**
 * The user list, of the users with at least one organisation inside the working organisations: the
 * count and the page's choice of rows read app_user alone; the role and the home organisation are
 * looked up for the page's rows only.
 */
const USERS = listing({
  from: 'app_user u',
  narrowFrom: 'app_user u',
  key: 'u.id',
  scope: async (where, context) => usersWithin(await organizationScope(context), where),
  filters: {
    keyword: contains(['u.login_name', 'u.user_name', "coalesce(u.phone, '')"], text(64)),
    status: equals('u.status', enumOf(['0', '1']), Number),
    roleCode: custom(text(64), (where, value) => void where.add(HOLDS_ROLE, value)),
    organizationCode: custom(text(64), (where, value) => void where.add('EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND uo.organization_code = $?)', value)),
  },
  columns: {
    id: column<number>('u.id'),
    loginName: column<string>('u.login_name'),
    userName: column<string>('u.user_name'),
    phoneNumber: textColumn('u.phone'),
    mail: textColumn('u.mail'),
    roleCode: textColumn(USER_LOOKUPS.roleCode),
    organizationCode: textColumn(USER_LOOKUPS.organizationCode),
    organizationName: textColumn(USER_LOOKUPS.organizationName),
    status: column('u.status', (status: number) => String(status)),
    createTime: timeColumn('u.created_at'),
  },
  sorts: ['loginName', 'userName', 'createTime'],
  fallback: 'u.id DESC',
});
type UserRecord = ItemOf<typeof USERS>;

/**
 * The screens that show user records (phone numbers, mails, recent logins with their IPs): the
 * user administration, its detail, and the sub-brand's staff list (whose form loads a member's
 * detail). A role whose menu shows none of them reads no user record ("403" 无权限访问); a role
 * that only picks an assignee has work.staff.list (id and name).
 */
export const USER_LIST_VIEWS = ['system/user'] as const;
export const USER_DETAIL_VIEWS = ['system/user', 'system/userDetail', 'brand/users'] as const;

/** The user `id` if it lies in the working organisations `scope` ("404" otherwise: no leak of others'). */
async function userWithin(context: OperationContext<unknown>, scope: OrganizationScope, id: number, db: Queryable = context.db): Promise<UserRecord> {
  const user = await USERS.find(context, usersWithin(scope).add('u.id = $?', id), '', db);
  if (!user) throw fail.notFound(USER_NOT_FOUND);
  return user;
}

/** The user `id` if it lies in the caller's working organisations ("404" otherwise). */
async function userInScope(context: OperationContext<unknown>, id: number): Promise<UserRecord> {
  return userWithin(context, await organizationScope(context), id);
}

export const userOperations = [
  defineOperation('system.user.page', {
    paramSchema: USERS.paramSchema,
    handler: async (context) => {
      await requireView(context, ...USER_LIST_VIEWS);
      return USERS.page(context);
    },
  }),

  defineOperation('system.user.export', {
    paramSchema: USERS.paramSchema,
    handler: async (context) => {
      await requireView(context, ...USER_LIST_VIEWS);
      return exportFile(
        context,
        '用户列表',
        [
          { title: '账号', value: (r: UserRecord) => r.loginName },
          { title: '用户名称', value: (r) => r.userName },
          { title: '手机号', value: (r) => r.phoneNumber },
          { title: '邮箱', value: (r) => r.mail, width: 28 },
          { title: '角色', value: (r) => r.roleCode },
          { title: '组织', value: (r) => r.organizationName, width: 28 },
          { title: '状态', value: (r) => (r.status === '1' ? '正常' : '停用') },
          { title: '创建时间', value: (r) => new Date(r.createTime) },
        ],
        await USERS.rows(context),
      );
    },
  }),

  defineOperation('system.user.detail', {
    paramSchema: objectOf({ id: positiveInteger }, ['id']),
    handler: async (context) => {
      await requireView(context, ...USER_DETAIL_VIEWS);
      const row = await userInScope(context, context.param.id);
      const logins = await context.db.query<{ created_at: Date; success: boolean; reason: string; ip: string; user_agent: string }>(
        'SELECT created_at, success, reason, ip, user_agent FROM login_log WHERE user_id = $1 ORDER BY created_at DESC LIMIT 10',
        [row.id],
      );
      return {
        ...row,
        recentLogins: logins.map((log) => ({
          loginTime: log.created_at.toISOString(),
          loginResult: log.success ? 'success' : log.reason.endsWith('locked') ? 'locked' : 'failure',
          ip: log.ip,
          userAgent: log.user_agent,
        })),
      };
    },
  }),

  defineOperation('system.user.insert', {
    paramSchema: objectOf({ user: userFieldsOf(text(64, 1)) }, ['user']),
    handler: async (context) => {
      const fields = context.param.user;
      await checkAssignment(context, fields);
      return insertUser(context.db, fields);
    },
  }),

  defineOperation('system.user.modify', {
    paramSchema: objectOf({ id: positiveInteger, user: userFieldsOf(text(64, 1)) }, ['id', 'user']),
    handler: async (context) => {
      const { id, user: fields } = context.param;
      await userInScope(context, id);
      await checkAssignment(context, fields);
      await context.db.transaction((tx) => writeUser(tx, id, fields));
      return null;
    },
  }),

  defineOperation('system.user.changeStatus', {
    paramSchema: objectOf({ id: positiveInteger, status: enumOf(['0', '1']) }, ['id', 'status']),
    handler: async (context) => {
      const { id, status } = context.param;
      if (id === callerOf(context).userId) throw fail.conflict('不能停用自己的账号');
      const scope = await organizationScope(context);
      // A change of state, made once: the status is read where it is written, so of two identical
      // calls sent at once one changes it and the other finds it changed ("409"), as it would later.
      await context.db.transaction(async (tx) => {
        const user = await userWithin(context, scope, id, tx);
        if (user.status === status) throw fail.conflict(status === '0' ? '该用户已停用' : '该用户已启用');
        await tx.query('UPDATE app_user SET status = $2 WHERE id = $1', [id, Number(status)]);
        if (status === '0') await tx.query('UPDATE auth_session SET revoked_at = $2 WHERE user_id = $1 AND revoked_at IS NULL', [id, context.now]);
      });
      return null;
    },
  }),

  defineOperation('system.user.delete', {
    paramSchema: objectOf({ ids: schemaOf<number[]>({ type: 'array', minItems: 1, maxItems: 500, uniqueItems: true, items: { type: 'integer', minimum: 1 } }) }, ['ids']),
    handler: async (context) => {
      const { ids } = context.param;
      if (ids.includes(callerOf(context).userId)) throw fail.conflict('不能删除自己的账号');
      const scope = await organizationScope(context);
      // All or none, each user deleted once: a user another call deleted meanwhile is "404" here,
      // as it is to a call made after.
      await context.db.transaction((tx) => deleteUsers(tx, scope, ids));
      return null;
    },
  }),
];
