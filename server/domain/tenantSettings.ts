import type { Queryable } from '../db/database';
import { readDictionaries } from './schemaFiles';

/**
 * 租户配置: the settings each tenant may change, their defaults and bounds. A tenant's stored
 * value (table tenant_setting) overrides the default; resetting a setting deletes the row, so it
 * follows the default again. Other areas read a tenant's effective settings with
 * `readTenantSettings`.
 */

const CHANNELS = readDictionaries()
  .find((dictionary) => dictionary.dictType === 'notification_channel_type')
  ?.items.map((item) => item.value) ?? ['sms', 'mail'];

export interface TenantSettings {
  /** 告警通知方式: the notification channels an alarm goes out on (notification_channel_type). */
  alarmNotifyChannels: string[];
  /** 工单超时小时数: an open work order is overdue after this many hours. */
  workOrderTimeoutHours: number;
  /** 巡检周期（天）: how often each device is patrolled. */
  patrolCycleDays: number;
  /** 大屏标题: the title of the tenant's big screen. */
  screenTitle: string;
  /** 数据保留天数: how long device data is kept. */
  dataRetentionDays: number;
  /** 低电量告警阈值（%）. */
  lowBatteryPercent: number;
}

export type TenantSettingKey = keyof TenantSettings;

interface SettingSpec {
  label: string;
  schema: Readonly<Record<string, unknown>>;
}

/** Each setting's name and the JSON Schema of its value (bounded). */
export const TENANT_SETTING_SPECS: Readonly<Record<TenantSettingKey, SettingSpec>> = {
  alarmNotifyChannels: {
    label: '告警通知方式',
    schema: { type: 'array', minItems: 1, maxItems: CHANNELS.length, uniqueItems: true, items: { type: 'string', enum: CHANNELS } },
  },
  workOrderTimeoutHours: { label: '工单超时小时数', schema: { type: 'integer', minimum: 1, maximum: 720 } },
  patrolCycleDays: { label: '巡检周期（天）', schema: { type: 'integer', minimum: 1, maximum: 365 } },
  screenTitle: { label: '大屏标题', schema: { type: 'string', minLength: 1, maxLength: 32, pattern: '^[^<>]*[^<>\\s][^<>]*$' } },
  dataRetentionDays: { label: '数据保留天数', schema: { type: 'integer', minimum: 30, maximum: 3650 } },
  lowBatteryPercent: { label: '低电量告警阈值（%）', schema: { type: 'integer', minimum: 1, maximum: 50 } },
};

export const TENANT_SETTING_KEYS = Object.keys(TENANT_SETTING_SPECS) as TenantSettingKey[];

export const DEFAULT_TENANT_SETTINGS: Readonly<TenantSettings> = {
  alarmNotifyChannels: ['sms', 'wechat'],
  workOrderTimeoutHours: 48,
  patrolCycleDays: 30,
  screenTitle: '物联网设备监控大屏',
  dataRetentionDays: 365,
  lowBatteryPercent: 20,
};

export interface StoredSetting {
  key: string;
  value: unknown;
  updatedBy: string;
  updatedAt: Date;
}

/** The rows of `tenantCode`'s changed settings (keys no longer known are left out). */
export async function storedSettings(db: Queryable, tenantCode: string): Promise<StoredSetting[]> {
  const rows = await db.query<{ key: string; value: unknown; updated_by: string; updated_at: Date }>(
    'SELECT key, value, updated_by, updated_at FROM tenant_setting WHERE tenant_code = $1 AND key = ANY($2::text[]) ORDER BY key',
    [tenantCode, TENANT_SETTING_KEYS],
  );
  return rows.map((row) => ({ key: row.key, value: row.value, updatedBy: row.updated_by, updatedAt: row.updated_at }));
}

/** A tenant's effective settings: its stored values over the defaults. */
export async function readTenantSettings(db: Queryable, tenantCode: string): Promise<TenantSettings> {
  const settings: TenantSettings = { ...DEFAULT_TENANT_SETTINGS, alarmNotifyChannels: [...DEFAULT_TENANT_SETTINGS.alarmNotifyChannels] };
  for (const stored of await storedSettings(db, tenantCode)) Object.assign(settings, { [stored.key]: stored.value });
  return settings;
}

/** Whether two setting values are the same (arrays compare as sets: channel order means nothing). */
export function sameSetting(a: unknown, b: unknown): boolean {
  if (Array.isArray(a) && Array.isArray(b)) return a.length === b.length && a.every((item) => b.includes(item));
  return a === b;
}
