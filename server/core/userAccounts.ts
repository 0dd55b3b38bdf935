import { randomBytes } from 'node:crypto';
import type { Database, Queryable } from '../db/database';
import { INITIAL_PASSWORD } from '../domain/users';
import { fail } from '../http/envelope';
import { hashPassword } from '../security/password';
import { isPlatformStaff, workingOrganizations } from './access';
import type { OperationContext } from './context';
import { Conditions } from './listQuery';
import { enumOf, objectOf, schemaOf, text, type ParamOf, type ParamSchema, orBlank, matching, textMatching } from './params';
import { checkRoleAssignable } from './roles';
import { scopeCondition, type OrganizationScope } from './scope';

/**
 * Writing a user account (issue 32): the user administration (系统管理 › 用户管理) and the
 * sub-brand's staff (品牌专区 › 人员管理) write users alike — the same fields, the same checks of the
 * role and organisation handed out, the same uniqueness of account, phone and mail, the same
 * insert, edit and delete — so both areas write through here.
 */

export const USER_NOT_FOUND = '用户不存在';

const PHONE = '^1[3-9]\\d{9}$';
const MAIL = '^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*\\.[A-Za-z]{2,}$';

/**
 * What a list of users (app_user `u`) reads of each beyond its row, for the user administration and
 * the sub-brand's staff alike: its first role and its home organisation (the first of its own).
 */
export const USER_LOOKUPS = {
  roleCode: '(SELECT ur.role_code FROM user_role ur JOIN role r ON r.code = ur.role_code WHERE ur.user_id = u.id ORDER BY r.sort LIMIT 1)',
  organizationCode: '(SELECT uo.organization_code FROM user_organization uo WHERE uo.user_id = u.id ORDER BY uo.sort LIMIT 1)',
  organizationName: '(SELECT o.name FROM user_organization uo JOIN organization o ON o.code = uo.organization_code WHERE uo.user_id = u.id ORDER BY uo.sort LIMIT 1)',
} as const;

/** The user `u` holds the role `$?`. */
export const HOLDS_ROLE = 'EXISTS (SELECT 1 FROM user_role ur WHERE ur.user_id = u.id AND ur.role_code = $?)';

/** Users with at least one organisation inside `scope` (app_user `u`). */
export function usersWithin(scope: OrganizationScope, where = new Conditions()): Conditions {
  return where.add(`EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND ${scopeCondition(scope, where.params, 'uo')})`);
}

/**
 * A user's fields as the user administration's form and the sub-brand's staff form send them:
 * `roleCode` is any role there, one of the field roles here.
 */
export const userFieldsOf = <Role extends ParamSchema>(roleCode: Role) =>
  objectOf(
    {
      loginName: schemaOf<string>({ type: 'string', minLength: 2, maxLength: 32, pattern: '^[ -~]+$' }),
      userName: text(32, 1),
      phoneNumber: orBlank(matching(PHONE)),
      mail: orBlank(textMatching(128, MAIL)),
      organizationCode: text(64, 1),
      roleCode,
      status: enumOf(['0', '1']),
    },
    ['loginName', 'userName', 'organizationCode', 'roleCode'],
  );

/** A user's fields with any role code. */
export type UserFields = ParamOf<ReturnType<typeof userFieldsOf<ReturnType<typeof text>>>>;

/** Tenant staff may not hand out platform roles; the organisation must be in the working scope. */
export async function checkAssignment(context: OperationContext<unknown>, fields: UserFields): Promise<void> {
  const [role] = await context.db.query<{ scope: string }>('SELECT scope FROM role WHERE code = $1', [fields.roleCode]);
  if (!role) throw fail.badField('roleCode');
  if (role.scope === 'platform' && !isPlatformStaff(context)) throw fail.forbidden('无权分配平台角色');
  if (!(await workingOrganizations(context)).includes(fields.organizationCode)) throw fail.forbidden('无权访问该组织');
  // A tenant's own roles go only to that tenant's users.
  await checkRoleAssignable(context, fields.roleCode, [fields.organizationCode]);
}

export async function checkUnique(db: Queryable, fields: UserFields, exceptId: number | null): Promise<void> {
  const checks: Array<[string, string | null | undefined, string]> = [
    ['login_name', fields.loginName, '账号已存在'],
    ['phone', fields.phoneNumber || null, '手机号已被使用'],
    ['mail', fields.mail ? fields.mail.toLowerCase() : null, '邮箱已被使用'],
  ];
  for (const [column, value, message] of checks) {
    if (!value) continue;
    const [clash] = await db.query<{ id: number }>(`SELECT id FROM app_user WHERE ${column} = $1 AND id <> $2`, [value, exceptId ?? -1]);
    if (clash) throw fail.conflict(message);
  }
}

export async function writeAssignments(db: Queryable, userId: number, fields: UserFields): Promise<void> {
  await db.query('DELETE FROM user_role WHERE user_id = $1', [userId]);
  await db.query('INSERT INTO user_role (user_id, role_code) VALUES ($1, $2)', [userId, fields.roleCode]);
  // The form edits the home organisation: when it stays, so do the others (user.org.set adds them).
  const [home] = await db.query<{ organization_code: string }>('SELECT organization_code FROM user_organization WHERE user_id = $1 ORDER BY sort LIMIT 1', [userId]);
  if (home?.organization_code === fields.organizationCode) return;
  await db.query('DELETE FROM user_organization WHERE user_id = $1', [userId]);
  await db.query('INSERT INTO user_organization (user_id, organization_code, sort) VALUES ($1, $2, 0)', [userId, fields.organizationCode]);
}

/**
 * Writes a user's fields and assignments inside the caller's transaction `tx` (already checked:
 * in scope, assignable). "404" when the user was deleted meanwhile, "409" for a taken account,
 * phone or mail.
 */
export async function writeUser(tx: Queryable, id: number, fields: UserFields): Promise<void> {
  await checkUnique(tx, fields, id);
  const [updated] = await tx.query('UPDATE app_user SET login_name = $2, user_name = $3, phone = $4, mail = $5, status = $6 WHERE id = $1 RETURNING id', [
    id,
    fields.loginName,
    fields.userName,
    fields.phoneNumber || null,
    fields.mail ? fields.mail.toLowerCase() : null,
    Number(fields.status ?? '1'),
  ]);
  // Deleted meanwhile: nothing to edit (and no roles to give a user that is gone).
  if (!updated) throw fail.notFound(USER_NOT_FOUND);
  await writeAssignments(tx, id, fields);
}

/** Deletes the users `ids` of `scope` inside the caller's transaction `tx`: all or none ("404" for one not there). */
export async function deleteUsers(tx: Queryable, scope: OrganizationScope, ids: readonly number[]): Promise<void> {
  for (const id of ids) {
    const clause = usersWithin(scope).add('u.id = $?', id);
    const [found] = await tx.query(`SELECT 1 FROM app_user u WHERE ${clause.sql}`, clause.params);
    if (!found) throw fail.notFound(USER_NOT_FOUND);
  }
  const deleted = await tx.query('DELETE FROM app_user WHERE id = ANY($1::int[]) RETURNING id', [[...ids]]);
  if (deleted.length !== ids.length) throw fail.notFound(USER_NOT_FOUND);
}

/**
 * A new user with the initial password (changed at first login), inside a transaction of its own;
 * `fields` already checked by {@link checkAssignment}. Of two users with one account sent at once,
 * the second finds the first ("409" 账号已存在, here or, when both checked before either wrote, from
 * the unique key: http/constraints.ts).
 */
export async function insertUser(db: Database, fields: UserFields): Promise<{ id: number }> {
  // Hashed before the transaction: it holds the database no longer than its statements.
  const passwordHash = await hashPassword(INITIAL_PASSWORD);
  return db.transaction(async (tx) => {
    await checkUnique(tx, fields, null);
    const [created] = await tx.query<{ id: number }>(
      `INSERT INTO app_user (code, login_name, user_name, password_hash, phone, mail, status, need_modify_password)
       VALUES ($1, $2, $3, $4, $5, $6, $7, true) RETURNING id`,
      [
        `U${randomBytes(6).toString('hex').toUpperCase()}`,
        fields.loginName,
        fields.userName,
        passwordHash,
        fields.phoneNumber || null,
        fields.mail ? fields.mail.toLowerCase() : null,
        Number(fields.status ?? '1'),
      ],
    );
    await writeAssignments(tx, created.id, fields);
    return { id: created.id };
  });
}
