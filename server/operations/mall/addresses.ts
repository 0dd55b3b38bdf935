import type { Queryable } from '../../db/database';
import { PHONE_PATTERN } from '../../domain/cards';
import { MAX_ADDRESSES } from '../../domain/mall';
import { fail } from '../../http/envelope';
import { isoOrNull, keywordParam } from '../cards/access';
import { defineOperation, objectOf, type OperationContext } from '../define';
import { Conditions, containing, pageOf, type Listing } from '../listQuery';
import { plainText } from '../system/shared';
import { buyingTenant, idParam, loginNameOf } from './access';

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

interface AddressFields {
  receiver: string;
  phone: string;
  region: string;
  detail: string;
  postcode?: string;
  isDefault?: boolean;
}

const addressFields = objectOf(
  {
    receiver: plainText(32),
    // SPEC §5: 11 digits, 1 then 3-9
    phone: { type: 'string', pattern: PHONE_PATTERN },
    region: plainText(64),
    detail: plainText(128),
    postcode: { type: 'string', pattern: '^([0-9]{6})?$' },
    isDefault: { type: 'boolean' },
  },
  ['receiver', 'phone', 'region', 'detail'],
);

const LISTING: Listing<AddressRow, AddressRecord> = {
  from: 'mall_address a',
  columns: COLUMNS,
  sorts: { createTime: 'a.created_at', updateTime: 'a.updated_at', receiver: 'a.receiver' },
  fallback: ORDER,
  record: addressRecord,
};

/** Makes `id` the tenant's only default. */
async function makeDefault(tx: Queryable, tenantCode: string, id: number, now: Date): Promise<void> {
  await tx.query('UPDATE mall_address SET is_default = false, updated_at = $2 WHERE tenant_code = $1 AND is_default AND id <> $3', [tenantCode, now, id]);
  await tx.query('UPDATE mall_address SET is_default = true, updated_at = $3 WHERE id = $1 AND tenant_code = $2', [id, tenantCode, now]);
}

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

  defineOperation<{ keyword?: string }>('mall.address.page', {
    paramSchema: objectOf({ keyword: keywordParam }),
    handler: async (context) => {
      const tenantCode = await buyingTenant(context);
      const where = new Conditions()
        .add('a.tenant_code = $?', tenantCode)
        .when(context.param.keyword?.trim(), '(a.receiver ILIKE $? OR a.phone ILIKE $? OR a.region ILIKE $? OR a.detail ILIKE $?)', (v) => containing(String(v)));
      return pageOf(context, LISTING, where);
    },
  }),

  defineOperation<{ id: number }>('mall.address.detail', {
    paramSchema: idOnly,
    handler: async (context) => addressRecord((await tenantAddress(context)).row),
  }),

  defineOperation<{ address: AddressFields }>('mall.address.insert', {
    paramSchema: objectOf({ address: addressFields }, ['address']),
    handler: async (context) => {
      const tenantCode = await buyingTenant(context);
      const fields = context.param.address;
      const id = await context.db.transaction(async (tx) => {
        // One tenant's saves queue here, so the count and the default stay true.
        await tx.query('SELECT code FROM organization WHERE code = $1 FOR UPDATE', [tenantCode]);
        const [{ n }] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM mall_address WHERE tenant_code = $1', [tenantCode]);
        if (n >= MAX_ADDRESSES) throw fail.conflict(`最多保存 ${MAX_ADDRESSES} 个收货地址，请先删除不用的地址`);
        const [row] = await tx.query<{ id: number }>(
          `INSERT INTO mall_address (tenant_code, receiver, phone, region, detail, postcode, is_default, created_by, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, false, $7, $8, $8) RETURNING id`,
          [tenantCode, fields.receiver.trim(), fields.phone, fields.region.trim(), fields.detail.trim(), fields.postcode ?? '', loginNameOf(context), context.now],
        );
        if (fields.isDefault || n === 0) await makeDefault(tx, tenantCode, row.id, context.now);
        return row.id;
      });
      return addressRecord(await findAddress(context.db, tenantCode, id));
    },
  }),

  defineOperation<{ id: number; address: AddressFields }>('mall.address.modify', {
    paramSchema: objectOf({ id: idParam, address: addressFields }, ['id', 'address']),
    handler: async (context) => {
      const { tenantCode, row } = await tenantAddress(context);
      const fields = context.param.address;
      await context.db.transaction(async (tx) => {
        await tx.query('UPDATE mall_address SET receiver = $2, phone = $3, region = $4, detail = $5, postcode = $6, updated_at = $7 WHERE id = $1', [
          row.id,
          fields.receiver.trim(),
          fields.phone,
          fields.region.trim(),
          fields.detail.trim(),
          fields.postcode ?? '',
          context.now,
        ]);
        // Unticking the default is not how the default moves: another address is made default instead.
        if (fields.isDefault && !row.is_default) await makeDefault(tx, tenantCode, row.id, context.now);
      });
      return addressRecord(await findAddress(context.db, tenantCode, row.id));
    },
  }),

  defineOperation<{ id: number }>('mall.address.delete', {
    paramSchema: idOnly,
    handler: async (context) => {
      const { tenantCode, row } = await tenantAddress(context);
      await context.db.transaction(async (tx) => {
        // One tenant's saves queue here: of two deletions at once the second finds the address gone.
        await tx.query('SELECT code FROM organization WHERE code = $1 FOR UPDATE', [tenantCode]);
        const [deleted] = await tx.query<{ is_default: boolean }>('DELETE FROM mall_address WHERE id = $1 RETURNING is_default', [row.id]);
        if (!deleted) throw fail.notFound(ADDRESS_NOT_FOUND);
        if (deleted.is_default) {
          const [next] = await tx.query<{ id: number }>('SELECT id FROM mall_address WHERE tenant_code = $1 ORDER BY updated_at DESC, id DESC LIMIT 1', [tenantCode]);
          if (next) await makeDefault(tx, tenantCode, next.id, context.now);
        }
      });
      return { id: row.id };
    },
  }),

  defineOperation<{ id: number }>('mall.address.setDefault', {
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
