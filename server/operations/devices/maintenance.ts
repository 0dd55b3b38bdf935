import type { OperationDefinition } from '../../core/operation';
import { cameraOperations } from './cameras';
import { gatewayOperations } from './gateways';
import { errorOperations } from './maintenanceErrors';
import { healthOperations } from './maintenanceHealth';
import { recycleOperations } from './maintenanceRecycle';
import { sleepOperations } from './maintenanceSleep';

/**
 * Device maintenance (issue 5): health, the recycle bin, sleeping devices, device errors,
 * gateways and cameras — every query limited to the caller's device scope.
 */
export const maintenanceOperations: OperationDefinition[] = [
  ...healthOperations,
  ...recycleOperations,
  ...sleepOperations,
  ...errorOperations,
  ...gatewayOperations,
  ...cameraOperations,
];
