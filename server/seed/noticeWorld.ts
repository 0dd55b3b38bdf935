import type { ChannelSettings, ChannelType } from '../domain/notificationChannels';
import { PLATFORM_CODE } from '../domain/organizations';
import { USER_STATUS } from '../domain/users';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import type { UserTables } from './users';

/** What the notification generators (./notice.ts, ./noticeSends.ts) share: the people, whom an audience reaches, the clock. */

/** Days of sending history. */
export const SEND_HISTORY_DAYS = 60;

export const ORGANIZATIONS = flattenOrganizations();

export interface SeedUser {
  id: number;
  loginName: string;
  userName: string;
  phone: string | null;
  mail: string | null;
  wechatOpenId: string | null;
  active: boolean;
  organizations: string[];
  roles: string[];
}

export function seedUsers(tables: UserTables): SeedUser[] {
  return tables.users.map((user) => {
    const id = Number(user.id);
    return {
      id,
      loginName: String(user.login_name),
      userName: String(user.user_name),
      phone: user.phone === null ? null : String(user.phone),
      mail: user.mail === null ? null : String(user.mail),
      wechatOpenId: user.wechat_open_id === null ? null : String(user.wechat_open_id),
      active: Number(user.status) === USER_STATUS.active,
      organizations: tables.userOrganizations.filter((row) => Number(row.user_id) === id).map((row) => String(row.organization_code)),
      roles: tables.userRoles.filter((row) => Number(row.user_id) === id).map((row) => String(row.role_code)),
    };
  });
}

/** Active users under `owner` (codes extend their parent's), narrowed like the server's audiences. */
export function reach(users: readonly SeedUser[], owner: string, audience: { organizations?: readonly string[]; roles?: readonly string[] }): SeedUser[] {
  // Codes extend their parent's below the tenants; the platform root holds everyone.
  const under = (code: string, roots: readonly string[]) => roots.some((root) => root === PLATFORM_CODE || code.startsWith(root));
  return users.filter(
    (user) =>
      user.active &&
      user.organizations.some((code) => under(code, [owner]) && (!audience.organizations || under(code, audience.organizations))) &&
      (!audience.roles || user.roles.some((role) => audience.roles!.includes(role))),
  );
}

export interface SeedChannel {
  id: number;
  code: string;
  tenant: string | null;
  name: string;
  type: ChannelType;
  enabled: boolean;
  template: string;
  settings: ChannelSettings;
}

export interface NoticeWorld {
  random: Random;
  users: readonly SeedUser[];
  /** The world's clock (the start of the current hour). */
  now: Date;
  timeZone: string;
  /** A moment up to `maxDays` back and at least `minHours` ago. */
  past(maxDays: number, minHours?: number): Date;
}
