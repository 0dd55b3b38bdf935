import type { Queryable } from '../db/database';

export const USER_STATUS = { disabled: 0, active: 1 } as const;

/** The password a new user starts with; they must change it at first login. */
export const INITIAL_PASSWORD = 'Welcome@2026';

export interface UserProfile {
  id: number;
  code: string;
  loginName: string;
  userName: string;
  phone: string | null;
  mail: string | null;
  avatar: string;
  status: number;
  needModifyPassword: boolean;
  wechatOpenId: string | null;
  /** Role codes, in the roles' order. */
  roles: string[];
  /** Organisation codes the user belongs to, in order. */
  organizationCodes: string[];
}

interface ProfileRow {
  id: number;
  code: string;
  login_name: string;
  user_name: string;
  phone: string | null;
  mail: string | null;
  avatar: string;
  status: number;
  need_modify_password: boolean;
  wechat_open_id: string | null;
  roles: string[];
  organizations: string[];
}

const PROFILE_SELECT = `
  SELECT u.id, u.code, u.login_name, u.user_name, u.phone, u.mail, u.avatar, u.status,
         u.need_modify_password, u.wechat_open_id,
         ARRAY(SELECT ur.role_code FROM user_role ur JOIN role r ON r.code = ur.role_code
                WHERE ur.user_id = u.id ORDER BY r.sort, r.code) AS roles,
         ARRAY(SELECT uo.organization_code FROM user_organization uo
                WHERE uo.user_id = u.id ORDER BY uo.sort, uo.organization_code) AS organizations
    FROM app_user u`;

function toProfile(row: ProfileRow): UserProfile {
  return {
    id: row.id,
    code: row.code,
    loginName: row.login_name,
    userName: row.user_name,
    phone: row.phone,
    mail: row.mail,
    avatar: row.avatar,
    status: row.status,
    needModifyPassword: row.need_modify_password,
    wechatOpenId: row.wechat_open_id,
    roles: row.roles,
    organizationCodes: row.organizations,
  };
}

export async function findUserById(db: Queryable, userId: number): Promise<UserProfile | null> {
  const [row] = await db.query<ProfileRow>(`${PROFILE_SELECT} WHERE u.id = $1`, [userId]);
  return row ? toProfile(row) : null;
}

export async function findUserByLoginName(db: Queryable, loginName: string): Promise<UserProfile | null> {
  const [row] = await db.query<ProfileRow>(`${PROFILE_SELECT} WHERE u.login_name = $1`, [loginName]);
  return row ? toProfile(row) : null;
}

export async function findUserByOpenId(db: Queryable, openId: string): Promise<UserProfile | null> {
  const [row] = await db.query<ProfileRow>(`${PROFILE_SELECT} WHERE u.wechat_open_id = $1`, [openId]);
  return row ? toProfile(row) : null;
}

/** The user whose phone or (case-insensitive) mail is `target`. */
export async function findUserByContact(db: Queryable, target: string): Promise<UserProfile | null> {
  const [row] = await db.query<ProfileRow>(`${PROFILE_SELECT} WHERE u.phone = $1 OR u.mail = lower($1)`, [target]);
  return row ? toProfile(row) : null;
}

/** User info as `auth/web/_init` answers it: exactly the fields of SPEC §3. */
export interface UserInfo {
  loginUserCode: string;
  loginUserId: number;
  loginUserName: string;
  mail: string;
  orgCodeList: string[];
  phoneNumber: string;
  roleList: string[];
  userName: string;
  needModifyPassword: boolean;
}

export function userInfoOf(user: UserProfile): UserInfo {
  return {
    loginUserCode: user.code,
    loginUserId: user.id,
    loginUserName: user.loginName,
    mail: user.mail ?? '',
    orgCodeList: user.organizationCodes,
    phoneNumber: user.phone ?? '',
    roleList: user.roles,
    userName: user.userName,
    needModifyPassword: user.needModifyPassword,
  };
}

export async function setPassword(db: Queryable, userId: number, passwordHash: string): Promise<void> {
  await db.query(
    `UPDATE app_user SET password_hash = $2, need_modify_password = false
      WHERE id = $1`,
    [userId, passwordHash],
  );
}

/**
 * Sets a new password in place of `currentHash` (the one the caller proved): false when it has
 * changed meanwhile, so of two changes sent at once with the same old password only one is made.
 */
export async function replacePassword(db: Queryable, userId: number, currentHash: string, passwordHash: string): Promise<boolean> {
  const rows = await db.query(
    `UPDATE app_user SET password_hash = $3, need_modify_password = false
      WHERE id = $1 AND password_hash = $2 RETURNING id`,
    [userId, currentHash, passwordHash],
  );
  return rows.length > 0;
}
