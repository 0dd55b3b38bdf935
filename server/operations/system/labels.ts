import type { Queryable } from '../../db/database';
import { ORGANIZATION_TYPE, tenantOf } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, optionalPlainText, text } from '../../core/params';
import { isPlatformStaff } from '../../core/access';

/**
 * Label configuration (标签配置): the names the console, the big screen and the app show for
 * device fields, business terms and screen titles. Each label has a built-in default; the
 * platform may override it for every tenant, and a tenant for its own staff. A tenant's staff
 * read and set their tenant's labels (the tenant of the selected organisation); platform staff
 * those of any tenant (param tenantCode, or the tenant selected in the organisation switcher),
 * and the platform's own at the platform root.
 */

export interface LabelConstant {
  key: string;
  name: string;
  group: '平台与大屏' | '设备字段' | '业务名称';
  defaultValue: string;
  maxLength: number;
}

export const LABEL_CONSTANTS: readonly LabelConstant[] = [
  { key: 'platformName', name: '平台名称', group: '平台与大屏', defaultValue: '云联物联网平台', maxLength: 32 },
  { key: 'bigScreenTitle', name: '大屏标题', group: '平台与大屏', defaultValue: '物联网设备监控大屏', maxLength: 40 },
  { key: 'bigScreenSubtitle', name: '大屏副标题', group: '平台与大屏', defaultValue: '设备运行态势实时监测', maxLength: 40 },
  { key: 'deviceCodeLabel', name: '设备编码', group: '设备字段', defaultValue: '设备编码', maxLength: 16 },
  { key: 'deviceNameLabel', name: '设备名称', group: '设备字段', defaultValue: '设备名称', maxLength: 16 },
  { key: 'deviceAddressLabel', name: '安装位置', group: '设备字段', defaultValue: '安装位置', maxLength: 16 },
  { key: 'gatewayLabel', name: '网关', group: '设备字段', defaultValue: '网关', maxLength: 16 },
  { key: 'productLabel', name: '产品', group: '设备字段', defaultValue: '产品', maxLength: 16 },
  { key: 'projectLabel', name: '项目', group: '业务名称', defaultValue: '项目', maxLength: 16 },
  { key: 'areaLabel', name: '区域', group: '业务名称', defaultValue: '区域', maxLength: 16 },
  { key: 'alarmLabel', name: '告警', group: '业务名称', defaultValue: '告警', maxLength: 16 },
  { key: 'repairOrderLabel', name: '维修工单', group: '业务名称', defaultValue: '维修工单', maxLength: 16 },
  { key: 'patrolLabel', name: '巡检', group: '业务名称', defaultValue: '巡检', maxLength: 16 },
];

/** The labels that head columns side by side, so two of them may not read the same. */
const DISTINCT_GROUPS: ReadonlyArray<LabelConstant['group']> = ['设备字段', '业务名称'];

interface Owner {
  code: string;
  name: string;
  scope: 'tenant' | 'platform';
}

/** The platform organisation (type 1) every tenant sits under. */
async function platformOrganization(db: Queryable): Promise<Owner> {
  const [row] = await db.query<{ code: string; name: string }>('SELECT code, name FROM organization WHERE type = $1 ORDER BY sort, id LIMIT 1', [
    ORGANIZATION_TYPE.platform,
  ]);
  if (!row) throw fail.notFound('平台组织不存在');
  return { code: row.code, name: row.name, scope: 'platform' };
}

/** Whose labels the caller reads or sets ("403" for another tenant's, "404" for an unknown tenant). */
async function ownerOf(context: OperationContext<{ tenantCode?: string }>): Promise<Owner> {
  const platformStaff = isPlatformStaff(context);
  const caller = callerOf(context);
  const home = context.organizationCode ?? caller.organizationCodes[0] ?? null;
  const ownTenant = home ? await tenantOf(context.db, home) : null;
  const wanted = context.param.tenantCode ?? ownTenant;
  if (!wanted) {
    if (platformStaff) return platformOrganization(context.db);
    throw fail.forbidden();
  }
  if (!platformStaff && wanted !== ownTenant) throw fail.forbidden('无权访问该组织');
  const [tenant] = await context.db.query<{ code: string; name: string }>('SELECT code, name FROM organization WHERE code = $1 AND type = $2', [
    wanted,
    ORGANIZATION_TYPE.tenant,
  ]);
  if (!tenant) throw fail.notFound('租户不存在');
  return { code: tenant.code, name: tenant.name, scope: 'tenant' };
}

interface StoredLabel {
  organization_code: string;
  constant_key: string;
  value: string;
  updated_at: Date;
  updated_by_name: string | null;
}

/** The owner's labels, each with the value it falls back to (the platform's, else the built-in default). */
async function labelsOf(db: Queryable, owner: Owner) {
  const platform = owner.scope === 'platform' ? owner : await platformOrganization(db);
  const stored = await db.query<StoredLabel>(
    `SELECT c.organization_code, c.constant_key, c.value, c.updated_at, u.user_name AS updated_by_name
       FROM tenant_label_constant c LEFT JOIN app_user u ON u.id = c.updated_by
      WHERE c.organization_code = ANY($1::text[])`,
    [[...new Set([owner.code, platform.code])]],
  );
  const find = (code: string, key: string) => stored.find((row) => row.organization_code === code && row.constant_key === key);
  const constants = LABEL_CONSTANTS.map((constant) => {
    const inherited = owner.scope === 'tenant' ? (find(platform.code, constant.key)?.value ?? constant.defaultValue) : constant.defaultValue;
    const own = find(owner.code, constant.key);
    return { key: constant.key, name: constant.name, group: constant.group, defaultValue: inherited, value: own?.value ?? inherited, customised: own !== undefined };
  });
  const latest = stored.filter((row) => row.organization_code === owner.code).sort((a, b) => b.updated_at.getTime() - a.updated_at.getTime())[0];
  // Object.assign rather than a spread: the answer's type keeps the labels' names open (a spread
  // of a Record drops them), so the generated contract admits them (issue 23).
  const values: Record<string, string> = Object.fromEntries(constants.map((constant) => [constant.key, constant.value]));
  return Object.assign({ organizationCode: owner.code, organizationName: owner.name, scope: owner.scope }, values, {
    constants,
    updateTime: latest ? latest.updated_at.toISOString() : '',
    updatedBy: latest?.updated_by_name ?? '',
  });
}

const tenantParam = { tenantCode: text(64, 1) };
/** The labels' values by key, after the tenant: the properties of a save. */
const saveProperties: Record<string, ReturnType<typeof text>> = { ...tenantParam, ...Object.fromEntries(LABEL_CONSTANTS.map((constant) => [constant.key, optionalPlainText(constant.maxLength)])) };

export const labelOperations = [
  defineOperation('tag.tenantConstant.find', {
    paramSchema: objectOf(tenantParam),
    handler: async (context) => labelsOf(context.db, await ownerOf(context)),
  }),

  /**
   * Sets the labels given (the others stay): an empty value, or one equal to what the label
   * falls back to, goes back to that. Labels of one group that head columns side by side must
   * differ ("409"). Answers the labels as find does.
   */
  defineOperation('tag.tenantConstant.save', {
    paramSchema: objectOf(saveProperties),
    handler: async (context) => {
      const owner = await ownerOf(context);
      const userId = callerOf(context).userId;
      // The labels are read, checked and written in one transaction: two saves sent at once cannot
      // each pass the check against the labels as they were and together leave two alike.
      await context.db.transaction(async (tx) => {
        const current = await labelsOf(tx, owner);
        const next = new Map(current.constants.map((constant) => [constant.key, constant]));
        const changes = LABEL_CONSTANTS.flatMap((constant) => {
          const given = context.param[constant.key];
          if (given === undefined) return [];
          const label = next.get(constant.key)!;
          const value = given.trim() || label.defaultValue;
          const reset = value === label.defaultValue;
          next.set(constant.key, { ...label, value });
          // Nothing to write when the label stays as it is.
          if (reset ? !label.customised : label.customised && label.value === value) return [];
          return [{ key: constant.key, value, reset }];
        });
        for (const group of DISTINCT_GROUPS) {
          const labels = [...next.values()].filter((label) => label.group === group);
          const clash = labels.find((label, index) => labels.findIndex((other) => other.value === label.value) !== index);
          if (clash) {
            const names = labels.filter((label) => label.value === clash.value).map((label) => label.name);
            throw fail.conflict(`标签名称不能重复：${names.join('、')}都叫“${clash.value}”`);
          }
        }
        for (const change of changes) {
          if (change.reset) {
            await tx.query('DELETE FROM tenant_label_constant WHERE organization_code = $1 AND constant_key = $2', [owner.code, change.key]);
            continue;
          }
          await tx.query(
            `INSERT INTO tenant_label_constant (organization_code, constant_key, value, updated_by, updated_at) VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (organization_code, constant_key) DO UPDATE SET value = EXCLUDED.value, updated_by = EXCLUDED.updated_by, updated_at = EXCLUDED.updated_at`,
            [owner.code, change.key, change.value, userId, context.now],
          );
        }
      });
      return labelsOf(context.db, owner);
    },
  }),
];
