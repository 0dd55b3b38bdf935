import type { OperationDefinition } from '../../core/operation';
import { brandOperations } from './brand';
import { corporateOperations } from './corporate';
import { projectAreaOperations } from './projectAreas';
import { templateOperations } from './templates';
import { tenantConfigOperations } from './tenantConfig';

/**
 * The office and catalogue areas of the work side (issue 6): 项目区域, 我的办公 (企业办公 and
 * 办公审核), 模板管理, 租户配置, 物料管理 and the sub-brand pages (品牌专区).
 */
export const officeOperations: OperationDefinition[] = [
  ...projectAreaOperations,
  ...corporateOperations,
  ...templateOperations,
  ...tenantConfigOperations,
  ...brandOperations,
];
