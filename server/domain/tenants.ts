import type { Queryable } from '../db/database';
import { fail } from '../http/envelope';
import { PLATFORM_CODE, ORGANIZATION_TYPE } from './organizations';

export interface TenantRegistration {
  tenantName: string;
  userName: string;
  phone: string;
  passwordHash: string;
  wechatOpenId: string | null;
  now: Date;
}

/** The next free tenant code T0001, T0002, … */
async function nextTenantCode(db: Queryable): Promise<string> {
  const [row] = await db.query<{ last: number | null }>(
    `SELECT max(substring(code FROM 2)::int) AS last FROM organization WHERE code ~ '^T[0-9]{4,}$'`,
  );
  return `T${String((row?.last ?? 0) + 1).padStart(4, '0')}`;
}

/**
 * Creates a tenant organisation under the platform and its TENANT_ADMIN (login name = phone),
 * answering the new user's id. "409" when the phone or the tenant name is taken.
 */
export async function registerTenant(db: Queryable, registration: TenantRegistration): Promise<number> {
  const { tenantName, userName, phone, passwordHash, wechatOpenId, now } = registration;
  const taken = await db.query('SELECT 1 FROM app_user WHERE phone = $1 OR login_name = $1', [phone]);
  if (taken.length > 0) throw fail.conflict('该手机号已注册');
  const sameName = await db.query('SELECT 1 FROM organization WHERE name = $1', [tenantName]);
  if (sameName.length > 0) throw fail.conflict('该企业名称已存在');
  if (wechatOpenId) {
    const bound = await db.query('SELECT 1 FROM app_user WHERE wechat_open_id = $1', [wechatOpenId]);
    if (bound.length > 0) throw fail.conflict('该微信已绑定其他账号');
  }
  const code = await nextTenantCode(db);
  await db.query(
    `INSERT INTO organization (code, name, type, parent_code, sort, created_at)
     VALUES ($1, $2, $3, $4, (SELECT COALESCE(max(sort), 0) + 1 FROM organization), $5)`,
    [code, tenantName, ORGANIZATION_TYPE.tenant, PLATFORM_CODE, now],
  );
  const [{ id }] = await db.query<{ id: number }>(`SELECT nextval(pg_get_serial_sequence('app_user', 'id'))::int AS id`);
  await db.query(
    `INSERT INTO app_user (id, code, login_name, user_name, password_hash, phone, wechat_open_id, created_at)
     VALUES ($1, $2, $3, $4, $5, $3, $6, $7)`,
    [id, `U${String(id).padStart(5, '0')}`, phone, userName, passwordHash, wechatOpenId, now],
  );
  await db.query('INSERT INTO user_organization (user_id, organization_code) VALUES ($1, $2)', [id, code]);
  await db.query(`INSERT INTO user_role (user_id, role_code) VALUES ($1, 'TENANT_ADMIN')`, [id]);
  return id;
}
