import type { Queryable } from '../../db/database';
import { MAX_ADDRESSES } from '../../domain/mall';
import type { EntityExtension } from '../../entities/operations';
import { fail } from '../../http/envelope';
import { isoOrNull } from '../../core/values';
import { defineOperation } from '../../core/operation';
import { objectOf } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { buyingTenant, idParam } from './access';

/**
 * 地址管理: a tenant's delivery addresses. One of them is the default (the first one saved is);
 * deleting the default hands it to the most recently changed of the rest.
 */

interface AddressRow {
  id: number;
  tenant_code: string;
  receiver: string;
  phone: string;
  region: string;
  detail: string;
  postcode: string;
  is_default: boolean;
  created_at: Date;
  updated_at: Date;
}

export function addressRecord(row: AddressRow) {
  return {
    id: row.id,
    receiver: row.receiver,
    phone: row.phone,
    region: row.region,
    detail: row.detail,
    postcode: row.postcode,
    fullAddress: `${row.region} ${row.detail}`,
    isDefault: row.is_default,
    createTime: isoOrNull(row.created_at),
    updateTime: isoOrNull(row.updated_at),
  };
}
export type AddressRecord = ReturnType<typeof addressRecord>;

const COLUMNS = 'a.id, a.tenant_code, a.receiver, a.phone, a.region, a.detail, a.postcode, a.is_default, a.created_at, a.updated_at';
const ORDER = 'a.is_default DESC, a.updated_at DESC, a.id DESC';

const ADDRESS_NOT_FOUND = '收货地址不存在';
const ALREADY_DEFAULT = '该地址已是默认地址';

/** The tenant's address `id` ("404" 收货地址不存在 for anyone else's). */
export async function findAddress(db: Queryable, tenantCode: string, id: number): Promise<AddressRow> {
  const [row] = await db.query<AddressRow>(`SELECT ${COLUMNS} FROM mall_address a WHERE a.id = $1 AND a.tenant_code = $2`, [id, tenantCode]);
  if (!row) throw fail.notFound(ADDRESS_NOT_FOUND);
  return row;
}

/** Makes `id` the tenant's only default. */
async function makeDefault(tx: Queryable, tenantCode: string, id: number, now: Date): Promise<void> {
  await tx.query('UPDATE mall_address SET is_default = false, updated_at = $2 WHERE tenant_code = $1 AND is_default AND id <> $3', [tenantCode, now, id]);
  await tx.query('UPDATE mall_address SET is_default = true, updated_at = $3 WHERE id = $1 AND tenant_code = $2', [id, tenantCode, now]);
}

/**
 * 地址管理 is served from its entity definition (schemas/entities/mall/address.json, issue 25): what
 * stays here is the buyer's tenant as the scope, the limit of addresses, the one default (the first
 * saved is; unticking it is not how it moves; deleting it hands it on), and the full address.
 */
export const addressExtension: EntityExtension = {
  tenants: async (context) => [await buyingTenant(context)],
  computed: { schema: { fullAddress: { type: 'string' } }, of: (record) => ({ fullAddress: `${String(record.region)} ${String(record.detail)}` }) },
  omit: ['tenantCode', 'tenantName', 'createdBy'],
  beforeWrite: async ({ context, db, values, current, tenantCode }) => {
    let makesDefault = values.isDefault === true && !current?.isDefault;
    if (current === null) {
      // One tenant's saves queue here, so the count and the default stay true.
      await db.query('SELECT code FROM organization WHERE code = $1 FOR UPDATE', [tenantCode]);
      const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM mall_address WHERE tenant_code = $1', [tenantCode]);
      if (n >= MAX_ADDRESSES) throw fail.conflict(`最多保存 ${MAX_ADDRESSES} 个收货地址，请先删除不用的地址`);
      makesDefault ||= n === 0;
    }
    if (makesDefault) await db.query('UPDATE mall_address SET is_default = false, updated_at = $2 WHERE tenant_code = $1 AND is_default', [tenantCode, context.now]);
    // Unticking the default is not how the default moves: another address is made default instead.
    return { isDefault: makesDefault || current?.isDefault === true };
  },
  // Deleting the default hands it to the most recently changed of the rest.
  beforeDelete: async ({ context, db, current }) => {
    if (!current.isDefault) return;
    const tenantCode = String(current.tenantCode);
    const [next] = await db.query<{ id: number }>('SELECT id FROM mall_address WHERE tenant_code = $1 AND id <> $2 ORDER BY updated_at DESC, id DESC LIMIT 1', [tenantCode, Number(current.id)]);
    await db.query('UPDATE mall_address SET is_default = false WHERE id = $1', [Number(current.id)]);
    if (next) await makeDefault(db, tenantCode, next.id, context.now);
  },
};

const idOnly = objectOf({ id: idParam }, ['id']);

async function tenantAddress(context: OperationContext<{ id: number }>) {
  const tenantCode = await buyingTenant(context);
  return { tenantCode, row: await findAddress(context.db, tenantCode, context.param.id) };
}

export const addressOperations = [
  // The confirm-order page's choices: every address, the default first.
  defineOperation('mall.address.list', {
    handler: async (context) => {
      const tenantCode = await buyingTenant(context);
      const rows = await context.db.query<AddressRow>(`SELECT ${COLUMNS} FROM mall_address a WHERE a.tenant_code = $1 ORDER BY ${ORDER}`, [tenantCode]);
      return rows.map(addressRecord);
    },
  }),

  defineOperation('mall.address.setDefault', {
    paramSchema: idOnly,
    handler: async (context) => {
      const { tenantCode, row } = await tenantAddress(context);
      if (row.is_default) throw fail.conflict(ALREADY_DEFAULT);
      await context.db.transaction(async (tx) => {
        // Checked again in the tenant's queue: a second request at the same time finds it the default already.
        await tx.query('SELECT code FROM organization WHERE code = $1 FOR UPDATE', [tenantCode]);
        const [current] = await tx.query<{ is_default: boolean }>('SELECT is_default FROM mall_address WHERE id = $1', [row.id]);
        if (!current) throw fail.notFound(ADDRESS_NOT_FOUND);
        if (current.is_default) throw fail.conflict(ALREADY_DEFAULT);
        await makeDefault(tx, tenantCode, row.id, context.now);
      });
      return addressRecord(await findAddress(context.db, tenantCode, row.id));
    },
  }),
];
