import type { OperationDefinition } from '../../core/operation';
import { constructionOperations } from './construction';
import { explorationOperations } from './exploration';
import { maintenanceOperations } from './maintenance';
import { patrolOperations } from './patrol';
import { repairOrderOperations } from './repair';
import { repairBatchOperations } from './repairBatches';
import { repairReportOperations } from './repairReports';
import { staffOperations } from './workOrders';

/** The work side (issue 6): repair, patrol, construction, survey and maintenance work orders. */
export const workOperations: OperationDefinition[] = [
  ...repairOrderOperations,
  ...repairReportOperations,
  ...repairBatchOperations,
  ...patrolOperations,
  ...constructionOperations,
  ...explorationOperations,
  ...maintenanceOperations,
  ...staffOperations,
];
