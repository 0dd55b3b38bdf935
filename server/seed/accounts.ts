import type { RoleCode } from './roles';

/** The demo accounts `npm start` prints (and the tests sign in with). */
export interface DemoAccount {
  loginName: string;
  password: string;
  userName: string;
  role: RoleCode;
  organizationCode: string;
  phone: string | null;
  mail: string | null;
  needModifyPassword: boolean;
  wechatOpenId: string | null;
  /** What the account is for, in a few words. */
  note: string;
}

export const DEMO_PASSWORD = 'Demo@2026';
export const ADMIN_PASSWORD = 'Admin@2026';

const account = (fields: Omit<DemoAccount, 'password' | 'needModifyPassword' | 'wechatOpenId'> & Partial<DemoAccount>): DemoAccount => ({
  password: DEMO_PASSWORD,
  needModifyPassword: false,
  wechatOpenId: null,
  ...fields,
});

export const DEMO_ACCOUNTS: readonly DemoAccount[] = [
  account({ loginName: 'admin', password: ADMIN_PASSWORD, userName: '系统管理员', role: 'PLATFORM_ADMIN', organizationCode: 'P0001', phone: null, mail: 'admin@example.com', note: '平台管理员' }),
  account({ loginName: 'operator', userName: '李娜', role: 'PLATFORM_OPERATOR', organizationCode: 'P0001', phone: '13800000006', mail: 'operator@example.com', note: '平台运营' }),
  account({
    loginName: 'tadmin',
    userName: '张明',
    role: 'TENANT_ADMIN',
    organizationCode: 'T0001',
    phone: '13800000001',
    mail: 'tadmin@example.com',
    wechatOpenId: 'wx-demo-tadmin',
    note: '租户管理员（杭州云联，已绑定微信 wx-demo-tadmin）',
  }),
  account({ loginName: 'tuser', userName: '刘洋', role: 'ROLE_TENANT_ORDINARY', organizationCode: 'T0001P01', phone: null, mail: null, note: '普通用户（西湖智慧水务项目）' }),
  account({ loginName: 'repair', userName: '王强', role: 'ROLE_TENANT_REPAIR', organizationCode: 'T0001P01', phone: '13800000003', mail: null, note: '维修人员' }),
  account({ loginName: 'patrol', userName: '赵磊', role: 'ROLE_TENANT_PATROL', organizationCode: 'T0001P02', phone: '13800000004', mail: null, note: '巡检人员' }),
  account({ loginName: 'implement', userName: '孙浩', role: 'ROLE_REPAIR_IMPLEMENT', organizationCode: 'T0001D01', phone: '13800000005', mail: null, note: '维修实施人员' }),
  account({ loginName: 'newbie', userName: '周婷', role: 'ROLE_TENANT_ORDINARY', organizationCode: 'T0001', phone: null, mail: null, needModifyPassword: true, note: '首次登录须修改密码' }),
  account({ loginName: 'badmin', userName: '陈静', role: 'TENANT_ADMIN', organizationCode: 'T0002', phone: '13900000002', mail: 'badmin@example.com', note: '租户管理员（苏州智水）' }),
];

/** The account table printed after READY. */
export function formatDemoAccounts(accounts: readonly DemoAccount[] = DEMO_ACCOUNTS): string {
  const width = Math.max(...accounts.map((a) => a.loginName.length));
  const lines = accounts.map((a) => `  ${a.loginName.padEnd(width)}  ${a.password}  ${a.userName}  ${a.note}`);
  return ['演示账号（账号  密码  姓名  说明）：', ...lines].join('\n');
}
