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

export interface MenuButton {
  resourceCode?: string;
  resourceName?: string;
  resourceUrl: string;
}

/** A menu resource of `resource/menu/_list` (SPEC §3). */
export interface MenuResource {
  resourceCode: string;
  parentCode: string | null;
  resourceName: string;
  resourcePath: string;
  resourceUrl: string;
  resourceIcon: string;
  fileUrl: string;
  menuClassificationCode: string;
  isShown: boolean;
  isCached: boolean;
  buttonList: MenuButton[];
  children: MenuResource[];
}

export interface DictionaryItem {
  dictValue: string;
  dictLabel: string;
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
