/** The seven roles of the contract (codes and Chinese names). */
export const ROLES = [
  { code: 'TENANT_ADMIN', name: '租户管理员', scope: 'tenant' },
  { code: 'ROLE_TENANT_ORDINARY', name: '普通用户', scope: 'tenant' },
  { code: 'ROLE_TENANT_REPAIR', name: '维修人员', scope: 'tenant' },
  { code: 'ROLE_TENANT_PATROL', name: '巡检人员', scope: 'tenant' },
  { code: 'ROLE_REPAIR_IMPLEMENT', name: '维修实施人员', scope: 'tenant' },
  { code: 'PLATFORM_ADMIN', name: '平台管理员', scope: 'platform' },
  { code: 'PLATFORM_OPERATOR', name: '平台运营', scope: 'platform' },
] as const;

export type RoleCode = (typeof ROLES)[number]['code'];
