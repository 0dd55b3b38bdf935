import { readFixture } from './fixtures/fixture';
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

/** accounts.json: the demo accounts, less what most share (the demo password, no first-login change, no WeChat). */
const ACCOUNTS = readFixture<{ DEMO_ACCOUNTS: ReadonlyArray<Omit<DemoAccount, 'password' | 'needModifyPassword' | 'wechatOpenId'> & Partial<DemoAccount>> }>('accounts');

/** The platform administrator signs in with ADMIN_PASSWORD, every other account with DEMO_PASSWORD. */
export const DEMO_ACCOUNTS: readonly DemoAccount[] = ACCOUNTS.DEMO_ACCOUNTS.map((fields) => ({
  password: fields.role === 'PLATFORM_ADMIN' ? ADMIN_PASSWORD : DEMO_PASSWORD,
  needModifyPassword: false,
  wechatOpenId: null,
  ...fields,
}));

/** The account table printed after READY. */
export function formatDemoAccounts(accounts: readonly DemoAccount[] = DEMO_ACCOUNTS): string {
  const width = Math.max(...accounts.map((a) => a.loginName.length));
  const lines = accounts.map((a) => `  ${a.loginName.padEnd(width)}  ${a.password}  ${a.userName}  ${a.note}`);
  return ['演示账号（账号  密码  姓名  说明）：', ...lines].join('\n');
}
