import type { Row } from '../db/bulk';
import { USER_STATUS } from '../domain/users';
import { hashPassword } from '../security/password';
import { DEMO_ACCOUNTS, DEMO_PASSWORD, type DemoAccount } from './accounts';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import type { RoleCode } from './roles';

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '马', '朱', '胡', '郭', '何', '林', '罗', '高'];
const GIVEN_NAMES = ['伟', '芳', '娜', '秀英', '敏', '静', '丽', '强', '磊', '军', '洋', '勇', '艳', '杰', '娟', '涛', '明', '超', '秀兰', '霞', '平', '刚', '桂英', '建华', '志强', '晓东', '海燕', '文博'];
const STAFF_ROLES: readonly RoleCode[] = ['ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT'];
const STAFF_PER_TENANT = 8;
const TENANT_PREFIX: Record<string, string> = { T0001: 'hz', T0002: 'sz' };

/** Further staff of each tenant, drawn from the seeded generator (login names hz01…, sz01…). */
function generatedStaff(random: Random, taken: Set<string>): DemoAccount[] {
  const orgs = flattenOrganizations();
  const staff: DemoAccount[] = [];
  for (const [tenant, prefix] of Object.entries(TENANT_PREFIX)) {
    const places = orgs.filter((org) => org.code.startsWith(tenant) && org.code !== tenant && !org.code.includes('V'));
    for (let n = 1; n <= STAFF_PER_TENANT; n += 1) {
      let phone: string;
      do phone = `15${random.int(0, 9)}${String(random.int(0, 99_999_999)).padStart(8, '0')}`;
      while (taken.has(phone));
      taken.add(phone);
      const loginName = `${prefix}${String(n).padStart(2, '0')}`;
      staff.push({
        loginName,
        password: DEMO_PASSWORD,
        userName: random.pick(SURNAMES) + random.pick(GIVEN_NAMES),
        role: random.pick(STAFF_ROLES),
        organizationCode: random.pick(places).code,
        phone,
        mail: random.next() < 0.5 ? `${loginName}@example.com` : null,
        needModifyPassword: false,
        wechatOpenId: null,
        note: '',
      });
    }
  }
  return staff;
}

export interface UserTables {
  users: Row[];
  userOrganizations: Row[];
  userRoles: Row[];
}

/** The demo accounts and generated staff; salts come from the generator, so hashes are stable. */
export async function userTables(random: Random): Promise<UserTables> {
  const taken = new Set(DEMO_ACCOUNTS.flatMap((a) => (a.phone ? [a.phone] : [])));
  const accounts = [...DEMO_ACCOUNTS, ...generatedStaff(random, taken)];
  const salts = accounts.map(() => random.bytes(16));
  const hashes = await Promise.all(accounts.map((a, i) => hashPassword(a.password, salts[i])));
  const disabledStaff = new Set(['hz08', 'sz08']);
  return {
    users: accounts.map((a, i) => ({
      id: i + 1,
      code: `U${String(i + 1).padStart(5, '0')}`,
      login_name: a.loginName,
      user_name: a.userName,
      password_hash: hashes[i],
      phone: a.phone,
      mail: a.mail,
      status: disabledStaff.has(a.loginName) ? USER_STATUS.disabled : USER_STATUS.active,
      need_modify_password: a.needModifyPassword,
      wechat_open_id: a.wechatOpenId,
    })),
    userOrganizations: accounts.map((a, i) => ({ user_id: i + 1, organization_code: a.organizationCode, sort: 0 })),
    userRoles: accounts.map((a, i) => ({ user_id: i + 1, role_code: a.role })),
  };
}
