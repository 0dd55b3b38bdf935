import type { Queryable } from '../../db/database';
import { fail } from '../../http/envelope';
import { spreadsheet } from '../../http/spreadsheet';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, schemaOf, text, type ParamOf } from '../../core/params';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../../core/listQuery';
import { organizationScope, type OrganizationScope } from '../../core/scope';
import { requireView } from '../../core/access';
import { checkAssignment, deleteUsers, insertUser, USER_NOT_FOUND, userFieldsOf, usersWithin, writeUser } from '../../core/userAccounts';

const filterSchema = objectOf({
  keyword: text(64),
  status: enumOf(['0', '1']),
  roleCode: text(64),
  organizationCode: text(64),
});
type UserFilter = ParamOf<typeof filterSchema>;
const userIdSchema = schemaOf<number>({ type: 'integer', minimum: 1 });

interface UserRow {
  id: number;
  login_name: string;
  user_name: string;
  phone: string | null;
  mail: string | null;
  status: number;
  created_at: Date;
  role_code: string | null;
  organization_code: string | null;
  organization_name: string | null;
}

function toRecord(row: UserRow) {
  return {
    id: row.id,
    loginName: row.login_name,
    userName: row.user_name,
    phoneNumber: row.phone ?? '',
    mail: row.mail ?? '',
    roleCode: row.role_code ?? '',
    organizationCode: row.organization_code ?? '',
    organizationName: row.organization_name ?? '',
    status: String(row.status),
    createTime: row.created_at.toISOString(),
  };
}

const COLUMNS = `u.id, u.login_name, u.user_name, u.phone, u.mail, u.status, u.created_at,
  (SELECT ur.role_code FROM user_role ur JOIN role r ON r.code = ur.role_code WHERE ur.user_id = u.id ORDER BY r.sort LIMIT 1) AS role_code,
  (SELECT uo.organization_code FROM user_organization uo WHERE uo.user_id = u.id ORDER BY uo.sort LIMIT 1) AS organization_code,
  (SELECT o.name FROM user_organization uo JOIN organization o ON o.code = uo.organization_code
    WHERE uo.user_id = u.id ORDER BY uo.sort LIMIT 1) AS organization_name`;

/**
 * The user list: the count and the page's choice of rows read app_user alone; the role and the
 * home organisation are looked up for the page's rows only.
 */
const LISTING: Listing<UserRow, UserRow> = {
  from: 'app_user u',
  narrowFrom: 'app_user u',
  key: 'u.id',
  columns: COLUMNS,
  sorts: { loginName: 'u.login_name', userName: 'u.user_name', createTime: 'u.created_at' },
  fallback: 'u.id DESC',
  record: (row) => row,
};

/** Users with at least one organisation inside `scope`, narrowed by the filter. */
function where(scope: OrganizationScope, filter: UserFilter): Conditions {
  const where = usersWithin(scope);
  where.when(filter.keyword, "(u.login_name ILIKE $? OR u.user_name ILIKE $? OR coalesce(u.phone, '') ILIKE $?)", (keyword) => containing(String(keyword)));
  where.when(filter.status, 'u.status = $?', Number);
  where.when(filter.roleCode, 'EXISTS (SELECT 1 FROM user_role ur WHERE ur.user_id = u.id AND ur.role_code = $?)');
  where.when(filter.organizationCode, 'EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND uo.organization_code = $?)');
  return where;
}

/**
 * The screens that show user records (phone numbers, mails, recent logins with their IPs): the
 * user administration, its detail, and the sub-brand's staff list (whose form loads a member's
 * detail). A role whose menu shows none of them reads no user record ("403" 无权限访问); a role
 * that only picks an assignee has work.staff.list (id and name).
 */
export const USER_LIST_VIEWS = ['system/user'] as const;
export const USER_DETAIL_VIEWS = ['system/user', 'system/userDetail', 'brand/users'] as const;

/** The user `id` if it lies in the working organisations `scope` ("404" otherwise: no leak of others'). */
async function userWithin(db: Queryable, scope: OrganizationScope, id: number): Promise<UserRow> {
  const clause = where(scope, {}).add('u.id = $?', id);
  const [row] = await db.query<UserRow>(`SELECT ${COLUMNS} FROM app_user u WHERE ${clause.sql}`, clause.params);
  if (!row) throw fail.notFound(USER_NOT_FOUND);
  return row;
}

/** The user `id` if it lies in the caller's working organisations ("404" otherwise). */
async function userInScope(context: OperationContext<unknown>, id: number): Promise<UserRow> {
  return userWithin(context.db, await organizationScope(context), id);
}

export const userOperations = [
  defineOperation('system.user.page', {
    paramSchema: filterSchema,
    handler: async (context) => {
      await requireView(context, ...USER_LIST_VIEWS);
      const page = await pageOf(context, LISTING, where(await organizationScope(context), context.param));
      return { ...page, records: page.records.map(toRecord) };
    },
  }),

  defineOperation('system.user.export', {
    paramSchema: filterSchema,
    handler: async (context) => {
      await requireView(context, ...USER_LIST_VIEWS);
      const rows = await exportOf(context, LISTING, where(await organizationScope(context), context.param));
      return spreadsheet(
        '用户列表',
        [
          { title: '账号', value: (r: UserRow) => r.login_name },
          { title: '用户名称', value: (r) => r.user_name },
          { title: '手机号', value: (r) => r.phone ?? '' },
          { title: '邮箱', value: (r) => r.mail ?? '', width: 28 },
          { title: '角色', value: (r) => r.role_code ?? '' },
          { title: '组织', value: (r) => r.organization_name ?? '', width: 28 },
          { title: '状态', value: (r) => (r.status === 1 ? '正常' : '停用') },
          { title: '创建时间', value: (r) => r.created_at },
        ],
        rows,
        context.now,
        context.config.timeZone,
      );
    },
  }),

  defineOperation('system.user.detail', {
    paramSchema: objectOf({ id: userIdSchema }, ['id']),
    handler: async (context) => {
      await requireView(context, ...USER_DETAIL_VIEWS);
      const row = await userInScope(context, context.param.id);
      const logins = await context.db.query<{ created_at: Date; success: boolean; reason: string; ip: string; user_agent: string }>(
        'SELECT created_at, success, reason, ip, user_agent FROM login_log WHERE user_id = $1 ORDER BY created_at DESC LIMIT 10',
        [row.id],
      );
      return {
        ...toRecord(row),
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
    paramSchema: objectOf({ id: userIdSchema, user: userFieldsOf(text(64, 1)) }, ['id', 'user']),
    handler: async (context) => {
      const { id, user: fields } = context.param;
      await userInScope(context, id);
      await checkAssignment(context, fields);
      await context.db.transaction((tx) => writeUser(tx, id, fields));
      return null;
    },
  }),

  defineOperation('system.user.changeStatus', {
    paramSchema: objectOf({ id: userIdSchema, status: enumOf(['0', '1']) }, ['id', 'status']),
    handler: async (context) => {
      const { id, status } = context.param;
      if (id === callerOf(context).userId) throw fail.conflict('不能停用自己的账号');
      const scope = await organizationScope(context);
      // A change of state, made once: the status is read where it is written, so of two identical
      // calls sent at once one changes it and the other finds it changed ("409"), as it would later.
      await context.db.transaction(async (tx) => {
        const user = await userWithin(tx, scope, id);
        if (user.status === Number(status)) throw fail.conflict(status === '0' ? '该用户已停用' : '该用户已启用');
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
