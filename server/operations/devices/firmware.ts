import type { OperationDefinition } from '../../core/operation';
import { appVersionOperations } from './appVersions';
import { feedbackOperations } from './feedback';
import { onlineConfigurationOperations } from './onlineConfigurations';
import { upgradeFileOperations } from './upgradeFiles';
import { upgradePackageOperations } from './upgradePackages';
import { upgradeTaskDeviceOperations } from './upgradeTaskDevices';
import { upgradeTaskOperations } from './upgradeTasks';

/** Firmware over the air (packages, tasks), the app's versions, user feedback and online configuration screens. */
export const firmwareOperations: OperationDefinition[] = [
  ...upgradePackageOperations,
  ...upgradeFileOperations,
  ...upgradeTaskOperations,
  ...upgradeTaskDeviceOperations,
  ...appVersionOperations,
  ...feedbackOperations,
  ...onlineConfigurationOperations,
];
