import type { Queryable } from '../../db/database';
import {
  DEFAULT_TENANT_SETTINGS,
  TENANT_SETTING_KEYS,
  TENANT_SETTING_SPECS,
  readTenantSettings,
  sameSetting,
  storedSettings,
  type TenantSettingKey,
  type TenantSettings,
} from '../../domain/tenantSettings';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, schemaOf, text, referenceCode } from '../../core/params';
import { column, contains, listing } from '../../core/listing';
import { tenantScope } from '../../core/access';
import { tenantNames } from '../../domain/organizations';

/**
 * 租户配置: each tenant's settings (server/domain/tenantSettings.ts) over their defaults. The
 * list shows the tenants of the scope with their effective settings; a tenant admin sees and
 * changes their own tenant only, platform staff every tenant below the organisation they
 * selected. Saving a value equal to the default drops the override; 恢复默认 drops them all (or
 * the keys named).
 */

/** The tenant named, or the caller's own ("404" 租户不存在 outside the scope). */
async function targetTenant(context: OperationContext<{ tenantCode?: string }>): Promise<string> {
  const scope = await tenantScope(context);
  const wanted = context.param.tenantCode || scope.home;
  if (!wanted) throw fail.badRequest('请选择租户');
  if (!scope.tenantCodes.includes(wanted)) throw fail.notFound('租户不存在');
  return wanted;
}

/** A tenant's settings as the console reads them: the values, what differs from the default, and who changed it last. */
async function tenantConfig(db: Queryable, tenantCode: string, tenantName: string) {
  const settings = await readTenantSettings(db, tenantCode);
  const stored = await storedSettings(db, tenantCode);
  const customized = stored.filter((row) => !sameSetting(row.value, DEFAULT_TENANT_SETTINGS[row.key as TenantSettingKey])).map((row) => row.key);
  const latest = stored.reduce<(typeof stored)[number] | null>((last, row) => (!last || row.updatedAt > last.updatedAt ? row : last), null);
  return {
    tenantCode,
    tenantName,
    ...settings,
    customizedKeys: customized,
    customizedNames: customized.map((key) => TENANT_SETTING_SPECS[key as TenantSettingKey].label),
    customizedCount: customized.length,
    updatedBy: latest?.updatedBy ?? '',
    updateTime: latest ? latest.updatedAt.toISOString() : '',
  };
}

const tenantCodeSchema = schemaOf<string>({ anyOf: [referenceCode, { type: 'string', maxLength: 0 }] });
const settingsSchema = schemaOf<Partial<TenantSettings>>({
  type: 'object',
  properties: Object.fromEntries(TENANT_SETTING_KEYS.map((key) => [key, TENANT_SETTING_SPECS[key].schema])),
  additionalProperties: false,
  minProperties: 1,
});

/** The tenants in scope by name (the list takes no sort: always in the tree's order). */
const TENANTS = listing({
  from: 'organization o',
  scope: async (where, context) => void where.add('o.code = ANY($?::text[])', (await tenantScope(context)).tenantCodes),
  filters: { keyword: contains(['o.code', 'o.name'], text(64), { trim: true }) },
  columns: { code: column<string>('o.code'), name: column<string>('o.name') },
  sorts: {},
  fallback: 'o.sort, o.code',
});

export const tenantConfigOperations = [
  defineOperation('tenant.config.page', {
    paramSchema: TENANTS.paramSchema,
    handler: async (context) => {
      const page = await TENANTS.page(context);
      return { ...page, records: await Promise.all(page.records.map((tenant) => tenantConfig(context.db, tenant.code, tenant.name))) };
    },
  }),

  defineOperation('tenant.config.get', {
    paramSchema: objectOf({ tenantCode: tenantCodeSchema }),
    handler: async (context) => {
      const tenantCode = await targetTenant(context);
      const names = await tenantNames(context.db, [tenantCode]);
      return { ...(await tenantConfig(context.db, tenantCode, names.get(tenantCode) ?? '')), defaults: DEFAULT_TENANT_SETTINGS };
    },
  }),

  /** Saves the settings given; one equal to its default drops the tenant's override. */
  defineOperation('tenant.config.save', {
    paramSchema: objectOf({ tenantCode: tenantCodeSchema, config: settingsSchema }, ['config']),
    handler: async (context) => {
      const tenantCode = await targetTenant(context);
      const by = callerOf(context).loginName;
      await context.db.transaction(async (tx) => {
        for (const [key, value] of Object.entries(context.param.config) as Array<[TenantSettingKey, TenantSettings[TenantSettingKey]]>) {
          const clean = typeof value === 'string' ? value.trim() : value;
          if (sameSetting(clean, DEFAULT_TENANT_SETTINGS[key])) {
            await tx.query('DELETE FROM tenant_setting WHERE tenant_code = $1 AND key = $2', [tenantCode, key]);
            continue;
          }
          await tx.query(
            `INSERT INTO tenant_setting (tenant_code, key, value, updated_by, updated_at) VALUES ($1, $2, $3::jsonb, $4, $5)
             ON CONFLICT (tenant_code, key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
            [tenantCode, key, JSON.stringify(clean), by, context.now],
          );
        }
      });
      return readTenantSettings(context.db, tenantCode);
    },
  }),

  /** Puts the settings named (all when none are) back to their defaults. */
  defineOperation('tenant.config.reset', {
    paramSchema: objectOf({
      tenantCode: tenantCodeSchema,
      keys: schemaOf<TenantSettingKey[]>({ type: 'array', minItems: 1, maxItems: TENANT_SETTING_KEYS.length, uniqueItems: true, items: { type: 'string', enum: TENANT_SETTING_KEYS } }),
    }),
    handler: async (context) => {
      const tenantCode = await targetTenant(context);
      await context.db.query('DELETE FROM tenant_setting WHERE tenant_code = $1 AND key = ANY($2::text[])', [tenantCode, context.param.keys ?? TENANT_SETTING_KEYS]);
      return readTenantSettings(context.db, tenantCode);
    },
  }),
];
