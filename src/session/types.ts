/** User info as `auth/web/_init` answers it (SPEC §3). */
export interface UserInfo {
  loginUserCode: string;
  loginUserId: string | number;
  loginUserName: string;
  mail: string;
  orgCodeList: string[];
  phoneNumber: string;
  roleList: string[];
  userName: string;
  needModifyPassword: boolean;
  avatar?: string;
}

/**
 * A menu resource of `resource/menu/_list` (SPEC §3): the type generated from the operation's
 * contract (src/api/contracts.gen.ts, from server/domain/menus.ts through schemas/contracts.json),
 * so the console and the server declare it once and cannot drift (issue 23).
 */
export type { MenuResource } from '../api/contracts.gen';
import type { MenuResource } from '../api/contracts.gen';
/** A button of a menu resource (resourceUrl = the catalogue operation it permits). */
export type MenuButton = MenuResource['buttonList'][number];

export interface DictionaryItem {
  dictValue: string;
  dictLabel: string;
  /** The state's colour by meaning (schemas/dictionaries.json), when the item carries one. */
  dictColor?: 'success' | 'processing' | 'warning' | 'error' | 'default';
}

export interface Dictionary {
  dictType: string;
  dictName: string;
  children: DictionaryItem[];
}

/** An organisation node of `organization/new/tree/_list` (SPEC §3). */
export interface OrganizationNode {
  id: string | number;
  organizationCode: string;
  organizationName: string;
  organizationType: number;
  parentCode?: string | null;
  label?: string;
  children?: OrganizationNode[];
}

export interface TokenPair {
  accessToken: string;
  refreshToken: string;
  expiresIn: number;
  refreshExpiresIn: number;
}
