import type { Queryable } from '../db/database';
import { insertRows, type Row } from '../db/bulk';
import { ORGANIZATION_TYPE } from '../domain/organizations';
import { entityIndexName, loadEntities, uniqueIndexName, type Entity, type EntityField } from './definition';

/**
 * The tables of managed entities (issue 25): a new screen's table is created on start, and a field
 * added to its definition becomes a column, with its indexes — idempotently, under the migration
 * lock (server/openDatabase.ts), with a log line saying what changed. A table the migrations own
 * (`managed` false) is never touched. Nothing is ever dropped or retyped: a field taken out of a
 * definition leaves its column be.
 *
 * A table created on a database that already holds tenants gets the definition's demo rows for
 * each of them, once (an empty database gets them with the rest of the seed: {@link entitySeedTables}).
 */

export interface EntityTableChanges {
  tables: string[];
  columns: string[];
  indexes: string[];
  /** Demo rows inserted, per table created. */
  seeded: Array<{ table: string; rows: number }>;
}

const q = (name: string): string => `"${name.replace(/"/g, '""')}"`;

/** The SQL type of a field's column. */
export function columnType(field: EntityField): string {
  switch (field.type) {
    case 'string':
      return "text NOT NULL DEFAULT ''";
    case 'integer':
      return 'integer';
    case 'number':
      return 'numeric';
    case 'boolean':
      return 'boolean';
    case 'date':
      return 'date';
    case 'datetime':
      return 'timestamptz';
  }
}

/** The columns of a scope. */
function scopeColumns(entity: Entity): string[] {
  if (entity.scope === 'tenant') return ['tenant_code text NOT NULL'];
  if (entity.scope === 'organization') return ['tenant_code text NOT NULL', 'organization_code text NOT NULL'];
  return [];
}


/** The indexes a managed table has: its scope's (the lists lead with it) and one per unique field. */
function indexesOf(entity: Entity): Array<{ name: string; sql: string }> {
  const table = q(entity.table);
  const indexes: Array<{ name: string; sql: string }> = [];
  const scope = entity.scope === 'tenant' ? 'tenant_code, ' : entity.scope === 'organization' ? 'tenant_code, organization_code, ' : '';
  if (scope) {
    const name = entityIndexName(entity.table, 'scope_idx');
    indexes.push({ name, sql: `CREATE INDEX IF NOT EXISTS ${q(name)} ON ${table} (${scope}created_at DESC, id DESC)` });
  }
  for (const field of entity.fields.filter((item) => item.unique)) {
    const name = uniqueIndexName(entity, field);
    const key = entity.scope === 'platform' ? q(field.column) : `tenant_code, ${q(field.column)}`;
    // An empty text is no value: two records may both leave it out.
    const partial = field.type === 'string' ? ` WHERE ${q(field.column)} <> ''` : '';
    indexes.push({ name, sql: `CREATE UNIQUE INDEX IF NOT EXISTS ${q(name)} ON ${table} (${key})${partial}` });
  }
  return indexes;
}

/** A field's value in a demo row: the row's, else the field's default, else empty. */
function seedValue(field: EntityField, value: unknown): unknown {
  const given = value ?? field.default;
  if (given === undefined || given === null) return field.type === 'string' ? '' : null;
  return given;
}

/** The demo rows of a managed entity for the given tenants (the first organisation of each, for organisation scope). */
export function entitySeedRows(entity: Entity, tenantCodes: readonly string[], time: Date): Row[] {
  if (!entity.managed || entity.seed.length === 0) return [];
  const owners: Array<Record<string, string>> =
    entity.scope === 'platform' ? [{}] : tenantCodes.map((tenant): Record<string, string> => (entity.scope === 'tenant' ? { tenant_code: tenant } : { tenant_code: tenant, organization_code: tenant }));
  const at = time.toISOString();
  return owners.flatMap((owner) =>
    entity.seed.map((seed) => {
      const row: Row = { ...owner };
      for (const field of entity.fields) row[field.column] = seedValue(field, seed[field.name]) as Row[string];
      return Object.assign(row, { created_by: 'system', created_at: at, updated_at: at });
    }),
  );
}

/** The demo rows of every managed entity, as seed tables (server/seed/seed.ts), for the tenants of `organizations`. */
export function entitySeedTables(organizations: ReadonlyArray<Record<string, unknown>>, time: Date, entities = loadEntities()): Array<{ table: string; rows: Row[] }> {
  const tenants = organizations.filter((organization) => Number(organization.type) === ORGANIZATION_TYPE.tenant).map((organization) => String(organization.code));
  return entities.map((entity) => ({ table: entity.table, rows: entitySeedRows(entity, tenants, time) })).filter((table) => table.rows.length > 0);
}

/**
 * Creates the missing managed tables, columns and indexes (run in one transaction, under the
 * migration lock); answers what it changed. A table created where tenants exist gets its demo rows.
 */
export async function ensureEntityTables(db: Queryable, now: Date, entities = loadEntities()): Promise<EntityTableChanges> {
  const changes: EntityTableChanges = { tables: [], columns: [], indexes: [], seeded: [] };
  const managed = entities.filter((entity) => entity.managed);
  if (managed.length === 0) return changes;
  const existing = await db.query<{ table_name: string; column_name: string }>(
    `SELECT table_name, column_name FROM information_schema.columns WHERE table_schema = current_schema() AND table_name = ANY($1::text[])`,
    [managed.map((entity) => entity.table)],
  );
  const indexes = new Set(
    (await db.query<{ indexname: string }>(`SELECT indexname FROM pg_indexes WHERE schemaname = current_schema() AND tablename = ANY($1::text[])`, [managed.map((entity) => entity.table)])).map(
      (row) => row.indexname,
    ),
  );
  let tenants: string[] | null = null;
  for (const entity of managed) {
    const columns = new Set(existing.filter((row) => row.table_name === entity.table).map((row) => row.column_name));
    if (columns.size === 0) {
      const definitions = [
        'id bigserial PRIMARY KEY',
        ...scopeColumns(entity),
        ...entity.fields.map((field) => `${q(field.column)} ${columnType(field)}`),
        "created_by text NOT NULL DEFAULT ''",
        'created_at timestamptz NOT NULL DEFAULT now()',
        'updated_at timestamptz NOT NULL DEFAULT now()',
      ];
      await db.exec(`CREATE TABLE ${q(entity.table)} (${definitions.join(', ')})`);
      changes.tables.push(entity.table);
      tenants ??= (await db.query<{ code: string }>('SELECT code FROM organization WHERE type = $1 ORDER BY sort, id', [ORGANIZATION_TYPE.tenant])).map((row) => row.code);
      const rows = entitySeedRows(entity, tenants, now);
      // On an empty database there are no tenants yet: the seed brings these rows with the rest.
      if (rows.length && tenants.length > 0) {
        await insertRows(db, entity.table, rows);
        changes.seeded.push({ table: entity.table, rows: rows.length });
      }
    } else {
      for (const field of entity.fields) {
        if (columns.has(field.column)) continue;
        await db.exec(`ALTER TABLE ${q(entity.table)} ADD COLUMN IF NOT EXISTS ${q(field.column)} ${columnType(field)}`);
        changes.columns.push(`${entity.table}.${field.column}`);
      }
    }
    for (const index of indexesOf(entity)) {
      if (indexes.has(index.name)) continue;
      await db.exec(index.sql);
      changes.indexes.push(index.name);
    }
  }
  return changes;
}

/** Whether a sync changed the tables' shape (a kept copy of the seeded world no longer fits them). */
export const changedShape = (changes: EntityTableChanges): boolean => changes.tables.length > 0 || changes.columns.length > 0;

/** The start-up log line for what a sync changed, or null when nothing. */
export function entityTablesLine(changes: EntityTableChanges): string | null {
  const parts: string[] = [];
  if (changes.tables.length) parts.push(`新建表 ${changes.tables.join('、')}`);
  if (changes.columns.length) parts.push(`新增列 ${changes.columns.join('、')}`);
  if (changes.indexes.length) parts.push(`新增索引 ${changes.indexes.length} 个`);
  if (changes.seeded.length) parts.push(`演示数据 ${changes.seeded.map((seed) => `${seed.table} ${seed.rows} 行`).join('、')}`);
  return parts.length ? `实体表同步：${parts.join('；')}` : null;
}
