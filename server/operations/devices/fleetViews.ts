import type { Queryable, SqlParam } from '../../db/database';
import { bind } from '../../db/parameters';
import { CARD_STATE_LABEL, SERVICE_STATES, type CardState } from '../../domain/cards';
import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { enumOf, objectOf, type ParamOf, schemaOf, deviceCode } from '../../core/params';
import { containing } from '../../core/listQuery';
import {
  BATTERY_STATES,
  batteryStateOf,
  deviceFilterSchema,
  deviceRecord,
  dictionaryLabels,
  deviceExport,
  devicePage,
  LOW_BATTERY_PERCENT,
  operatorOfIccid,
  type DeviceRow,
} from './fleetRecords';
import { deviceScope, findScopedDevice } from '../../core/deviceScope';

/**
 * The fleet's other lists: the devices the caller follows (关注设备), battery-powered devices and
 * their battery state (电池管理), and which IoT card each device carries (设备物联网卡).
 */

const codeParam = objectOf({ code: deviceCode }, ['code']);

// ---------------------------------------------------------------- followed devices

const followedClause = (context: OperationContext<unknown>) => (params: SqlParam[]) => {
  return [`EXISTS (SELECT 1 FROM device_care f WHERE f.device_id = d.id AND f.user_id = ${bind(params, callerOf(context).userId)})`];
};

const careOperations = [
  defineOperation('device.care.page', {
    paramSchema: objectOf(deviceFilterSchema),
    handler: async (context) => {
      const page = await devicePage(context, { narrow: followedClause(context), fallbackOrder: 'c.created_at DESC, d.id DESC' });
      return { ...page, records: page.records.map(deviceRecord) };
    },
  }),

  defineOperation('device.care.add', {
    paramSchema: codeParam,
    handler: async (context) => {
      const device = await findScopedDevice(context.db, await deviceScope(context), context.param.code);
      await context.db.query('INSERT INTO device_care (user_id, device_id, created_at) VALUES ($1, $2, $3) ON CONFLICT DO NOTHING', [
        callerOf(context).userId,
        device.id,
        context.now,
      ]);
      return { code: device.code, followed: true };
    },
  }),

  defineOperation('device.care.remove', {
    paramSchema: codeParam,
    handler: async (context) => {
      const device = await findScopedDevice(context.db, await deviceScope(context), context.param.code);
      await context.db.query('DELETE FROM device_care WHERE user_id = $1 AND device_id = $2', [callerOf(context).userId, device.id]);
      return { code: device.code, followed: false };
    },
  }),
];

// ---------------------------------------------------------------- batteries

const percent = schemaOf<number>({ type: 'integer', minimum: 0, maximum: 100 });
const batteryFilterSchema = objectOf({ ...deviceFilterSchema, batteryState: enumOf(BATTERY_STATES), batteryMin: percent, batteryMax: percent });
type BatteryFilter = ParamOf<typeof batteryFilterSchema>;

/** A full battery lasts about five years at the products' hourly reports. */
const BATTERY_LIFE_SECONDS = 5 * 365 * 86_400;

const batteryClause = (filter: BatteryFilter) => (params: SqlParam[]) => {
  const clauses = ['p.battery_powered', 'd.battery_level IS NOT NULL'];
  if (filter.batteryState === 'exhausted') clauses.push('d.battery_level = 0');
  else if (filter.batteryState) {
    const low = bind(params, LOW_BATTERY_PERCENT);
    clauses.push(filter.batteryState === 'normal' ? `d.battery_level >= ${low}` : `d.battery_level > 0 AND d.battery_level < ${low}`);
  }
  if (filter.batteryMin !== undefined) clauses.push(`d.battery_level >= ${bind(params, filter.batteryMin)}`);
  if (filter.batteryMax !== undefined) clauses.push(`d.battery_level <= ${bind(params, filter.batteryMax)}`);
  return clauses;
};

function batteryList(context: OperationContext<BatteryFilter>) {
  const { batteryMin, batteryMax } = context.param;
  if (batteryMin !== undefined && batteryMax !== undefined && batteryMin > batteryMax) throw fail.badRequest('电量下限不能大于上限');
  return { narrow: batteryClause(context.param), fallbackOrder: 'd.battery_level ASC, d.id ASC' };
}

function batteryRecord(row: DeviceRow) {
  const level = row.battery_level ?? 0;
  return { ...deviceRecord(row), estimatedLife: Math.round((level / 100) * BATTERY_LIFE_SECONDS) };
}

const batteryOperations = [
  defineOperation('device.battery.page', {
    paramSchema: batteryFilterSchema,
    handler: async (context) => {
      const page = await devicePage(context, batteryList(context));
      return { ...page, records: page.records.map(batteryRecord) };
    },
  }),

  defineOperation('device.battery.export', {
    paramSchema: batteryFilterSchema,
    handler: async (context) => {
      const rows = await deviceExport(context, batteryList(context));
      const label = await dictionaryLabels(context.db, ['device_battery_state', 'device_online_state']);
      return exportFile(
        context,
        '设备电池',
        [
          { title: '设备编码', value: (r: DeviceRow) => r.code, width: 16 },
          { title: '设备名称', value: (r) => r.name },
          { title: '产品', value: (r) => r.product_name, width: 20 },
          { title: '组织', value: (r) => r.organization_name, width: 20 },
          { title: '电量(%)', value: (r) => r.battery_level, width: 10 },
          { title: '电池状态', value: (r) => label('device_battery_state', batteryStateOf(r.battery_level)), width: 10 },
          { title: '预计剩余(天)', value: (r) => Math.round(((r.battery_level ?? 0) / 100) * (BATTERY_LIFE_SECONDS / 86_400)), width: 12 },
          { title: '在线状态', value: (r) => label('device_online_state', r.online_state), width: 10 },
          { title: '最后上报时间', value: (r) => r.last_seen_at, width: 20 },
        ],
        rows,
      );
    },
  }),
];

// ---------------------------------------------------------------- IoT cards

/** A Chinese ICCID: 89 (telecom), then 17 or 18 digits. */
export const ICCID_PATTERN = '^89\\d{17,18}$';

const cardFilterSchema = objectOf({
  ...deviceFilterSchema,
  cardBinding: enumOf(['bound', 'unbound']),
  iccid: schemaOf<string>({ type: 'string', maxLength: 20, pattern: '^\\d*$' }),
});
type CardFilter = ParamOf<typeof cardFilterSchema>;

/** Devices that carry a card of their own: everything but the sub-devices behind a gateway. */
const cardClause = (filter: CardFilter) => (params: SqlParam[]) => {
  const clauses = ["p.node_type <> 'sub'"];
  if (filter.cardBinding) clauses.push(filter.cardBinding === 'bound' ? 'd.iccid IS NOT NULL' : 'd.iccid IS NULL');
  if (filter.iccid) clauses.push(`d.iccid LIKE ${bind(params, containing(filter.iccid))}`);
  return clauses;
};

const cardList = (context: OperationContext<CardFilter>) => ({ narrow: cardClause(context.param), fallbackOrder: 'd.created_at DESC, d.id DESC' });

/** The device `code` within scope and whether it takes a card ("400" for a sub-device). */
async function cardDevice(context: OperationContext<{ code: string }>) {
  const device = await findScopedDevice(context.db, await deviceScope(context), context.param.code);
  const [row] = await context.db.query<{ iccid: string | null; node_type: string }>(
    'SELECT d.iccid, p.node_type FROM device d JOIN product p ON p.code = d.product_code WHERE d.id = $1',
    [device.id],
  );
  if (row.node_type === 'sub') throw fail.badRequest('网关子设备通过网关联网，不绑定物联网卡');
  return { ...device, iccid: row.iccid };
}

/** The states of a card that may be put in a device: delivered (test period), in service or suspended. */
const BINDABLE_CARD_STATES: readonly CardState[] = SERVICE_STATES;

/** The same answer for an ICCID that exists nowhere, one of another tenant and one in the platform's stock. */
export const CARD_NOT_FOUND = '物联网卡不存在';

/** The card `iccid` of tenant `tenantCode`, locked for the rest of the transaction ("404" 物联网卡不存在 otherwise). */
async function ownCard(tx: Queryable, tenantCode: string, iccid: string): Promise<{ state: CardState; device_code: string | null }> {
  const [card] = await tx.query<{ state: CardState; device_code: string | null }>(
    'SELECT state, device_code FROM sim_card WHERE iccid = $1 AND tenant_code = $2 FOR UPDATE',
    [iccid, tenantCode],
  );
  if (!card) throw fail.notFound(CARD_NOT_FOUND);
  return card;
}

const cardOperations = [
  defineOperation('device.card.page', {
    paramSchema: cardFilterSchema,
    handler: async (context) => {
      const page = await devicePage(context, cardList(context));
      return { ...page, records: page.records.map(deviceRecord) };
    },
  }),

  /**
   * Binds one of the device's tenant's own cards: a card in service (or still in its test period
   * after delivery) whose owner is the tenant the device belongs to. A card of another tenant, one
   * still in the platform's stock and an ICCID that exists nowhere all answer the same "404", so
   * the answer tells nobody which ICCIDs are in use elsewhere. The card is read locked and both
   * sides of the binding (device.iccid, sim_card.device_code) are written in one transaction.
   */
  defineOperation('device.card.bind', {
    paramSchema: objectOf({ code: deviceCode, iccid: schemaOf<string>({ type: 'string', pattern: ICCID_PATTERN }) }, ['code', 'iccid']),
    handler: async (context) => {
      const found = await cardDevice(context);
      const { iccid } = context.param;
      await context.db.transaction(async (tx) => {
        const [device] = await tx.query<{ iccid: string | null }>('SELECT iccid FROM device WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [found.id]);
        if (!device) throw fail.notFound('设备不存在');
        if (device.iccid) throw fail.conflict('设备已绑定物联网卡，请先解绑');
        const card = await ownCard(tx, found.tenant_code, iccid);
        if (!BINDABLE_CARD_STATES.includes(card.state)) throw fail.conflict(`该物联网卡${CARD_STATE_LABEL[card.state]}，不能绑定`);
        if (card.device_code) throw fail.conflict('该物联网卡已绑定其他设备');
        const [holder] = await tx.query<{ code: string }>('SELECT code FROM device WHERE iccid = $1', [iccid]);
        if (holder) throw fail.conflict('该物联网卡已绑定其他设备');
        await tx.query('UPDATE device SET iccid = $2 WHERE id = $1 AND iccid IS NULL', [found.id, iccid]);
        await tx.query('UPDATE sim_card SET device_code = $2, updated_at = $3 WHERE iccid = $1 AND device_code IS NULL', [iccid, found.code, context.now]);
      });
      return { code: found.code, iccid, cardOperator: operatorOfIccid(iccid) };
    },
  }),

  defineOperation('device.card.unbind', {
    paramSchema: codeParam,
    handler: async (context) => {
      const found = await cardDevice(context);
      const iccid = await context.db.transaction(async (tx) => {
        const [device] = await tx.query<{ iccid: string | null }>('SELECT iccid FROM device WHERE id = $1 FOR UPDATE', [found.id]);
        if (!device?.iccid) throw fail.badRequest('设备未绑定物联网卡');
        await tx.query('UPDATE device SET iccid = NULL WHERE id = $1', [found.id]);
        await tx.query('UPDATE sim_card SET device_code = NULL, updated_at = $3 WHERE iccid = $1 AND device_code = $2', [device.iccid, found.code, context.now]);
        return device.iccid;
      });
      return { code: found.code, iccid };
    },
  }),

  defineOperation('device.card.export', {
    paramSchema: cardFilterSchema,
    handler: async (context) => {
      const rows = await deviceExport(context, cardList(context));
      const label = await dictionaryLabels(context.db, ['card_operator', 'device_online_state']);
      return exportFile(
        context,
        '设备物联网卡',
        [
          { title: '设备编码', value: (r: DeviceRow) => r.code, width: 16 },
          { title: '设备名称', value: (r) => r.name },
          { title: '产品', value: (r) => r.product_name, width: 20 },
          { title: '组织', value: (r) => r.organization_name, width: 20 },
          { title: 'ICCID', value: (r) => r.iccid ?? '', width: 24 },
          { title: '运营商', value: (r) => label('card_operator', operatorOfIccid(r.iccid)), width: 10 },
          { title: '信号强度', value: (r) => r.signal_strength, width: 10 },
          { title: '在线状态', value: (r) => label('device_online_state', r.online_state), width: 10 },
          { title: '最后上报时间', value: (r) => r.last_seen_at, width: 20 },
        ],
        rows,
      );
    },
  }),
];

export const fleetViewOperations: OperationDefinition[] = [...careOperations, ...batteryOperations, ...cardOperations];
