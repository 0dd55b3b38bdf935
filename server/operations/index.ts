import { entityOperationDefinitions } from '../entities';
import { administrationOperations } from './administration';
import { AUTH_OPERATIONS } from './auth';
import type { OperationDefinition } from '../core/operation';
import { DEV_OPERATIONS } from './dev';
import { cardOperations } from './cards';
import { deviceOperations } from './devices';
import { telemetrySeriesOperations } from './devices/telemetrySeries';
import { FRAME_OPERATIONS } from './frame';
import { homeOperations } from './home';
import { formOperations } from './forms';
import { mallOperations } from './mall';
import { MAP_OPERATIONS } from './maps';
import { NAVIGATION_OPERATIONS } from './navigation';
import { officeOperations } from './office';
import { notificationOperations } from './notification';
import { PROFILE_OPERATIONS } from './profile';
import { RECOVERY_OPERATIONS } from './recovery';
import { systemOperations } from './system';
import { VERIFICATION_OPERATIONS } from './verification';
import { WECHAT_OPERATIONS } from './wechat';
import { workOperations } from './work';

/**
 * The same operation under another page's name (same param schema, scope and answer): the
 * sub-brand's patrol and device lists are the work and device areas' own (issue 32: named here,
 * where the areas are gathered, so that office does not import them).
 */
function alias(source: readonly OperationDefinition[], from: string, name: string): OperationDefinition {
  const found = source.find((operation) => operation.name === from);
  if (!found) throw new Error(`operation ${from} is not implemented`);
  return { ...found, name };
}

/** Every implemented operation; the catalogued rest answer "501". */
export const OPERATIONS: readonly OperationDefinition[] = [
  ...AUTH_OPERATIONS,
  ...PROFILE_OPERATIONS,
  ...NAVIGATION_OPERATIONS,
  ...VERIFICATION_OPERATIONS,
  ...RECOVERY_OPERATIONS,
  ...WECHAT_OPERATIONS,
  ...DEV_OPERATIONS,
  ...administrationOperations,
  ...FRAME_OPERATIONS,
  ...systemOperations,
  ...deviceOperations,
  ...homeOperations,
  ...telemetrySeriesOperations,
  ...MAP_OPERATIONS,
  ...workOperations,
  ...officeOperations,
  alias(workOperations, 'patrol.task.page', 'brand.patrol.page'),
  alias(deviceOperations, 'device.page', 'brand.device.page'),
  alias(deviceOperations, 'device.export', 'brand.device.export'),
  ...notificationOperations,
  ...formOperations,
  ...cardOperations,
  ...mallOperations,
  // Standard CRUD served from the entity definitions of schemas/entities (issue 25).
  ...entityOperationDefinitions(),
];

export const IMPLEMENTED_OPERATION_NAMES: readonly string[] = OPERATIONS.map((operation) => operation.name);
