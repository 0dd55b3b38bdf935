import type { OperationDefinition } from '../../core/operation';
import { alarmRecordOperations } from './alarmRecords';
import { alarmRuleOperations } from './alarmRules';
import { dashboardOperations } from './dashboards';

/**
 * Alarms and what watches them (issue 5): alarm configuration (alarmRules.ts), alarm records and
 * monitoring alarms (alarmRecords.ts), and the device-side dashboards (dashboards.ts).
 */
export const alarmsOperations: OperationDefinition[] = [...alarmRuleOperations, ...alarmRecordOperations, ...dashboardOperations];
