import type { Queryable } from '../db/database';

/** Organisation types (dictionary organization_type). */
export const ORGANIZATION_TYPE = { platform: 1, tenant: 2, project: 3, area: 4, virtual: 5, department: 6 } as const;

/** The platform's own organisation, the root above every tenant (a registration files a new tenant below it). */
export const PLATFORM_CODE = 'P0001';

export interface OrganizationRow {
  id: number;
  code: string;
  name: string;
  type: number;
  parent_code: string | null;
  sort: number;
}

/** An organisation node of `organization/new/tree/_list` (SPEC §3). */
export interface OrganizationNode {
  id: number;
  organizationCode: string;
  organizationName: string;
  organizationType: number;
  parentCode: string | null;
  label: string;
  children: OrganizationNode[];
}

/**
 * Takes the organisation tree's write lock for the rest of the transaction: organisations are
 * added one at a time, so each one's code (the next free one under its parent) and its name
 * (unique among its siblings) are decided against every organisation added before it, and of two
 * identical additions sent at once the second finds the first. It must be the transaction's first
 * statement: a serializable transaction's snapshot is taken by its first query, and LOCK is none,
 * so what the transaction reads after the wait includes what the holder committed. Readers are not
 * held up; other writers of organisations wait for the transaction.
 */
export async function lockOrganizationTree(tx: Queryable): Promise<void> {
  await tx.exec('LOCK TABLE organization IN SHARE ROW EXCLUSIVE MODE');
}

/** The given organisations and all their descendants, ordered by (sort, id). */
export async function organizationsWithin(db: Queryable, rootCodes: readonly string[]): Promise<OrganizationRow[]> {
  if (rootCodes.length === 0) return [];
  return db.query<OrganizationRow>(
    `WITH RECURSIVE scope (code) AS (
       SELECT code FROM organization WHERE code = ANY($1::text[])
       UNION
       SELECT c.code FROM organization c JOIN scope s ON c.parent_code = s.code
     )
     SELECT id, code, name, type, parent_code, sort FROM organization
      WHERE code IN (SELECT code FROM scope) ORDER BY sort, id`,
    [rootCodes],
  );
}

/**
 * Builds the tree of the given rows: a row whose parent is not among them becomes a root.
 * Siblings keep the order of `rows`.
 */
export function organizationTree(rows: readonly OrganizationRow[]): OrganizationNode[] {
  const nodes = new Map<string, OrganizationNode>();
  for (const row of rows) {
    nodes.set(row.code, {
      id: row.id,
      organizationCode: row.code,
      organizationName: row.name,
      organizationType: row.type,
      parentCode: row.parent_code,
      label: row.name,
      children: [],
    });
  }
  const roots: OrganizationNode[] = [];
  for (const row of rows) {
    const node = nodes.get(row.code);
    const parent = row.parent_code ? nodes.get(row.parent_code) : undefined;
    if (!node) continue;
    if (parent) parent.children.push(node);
    else roots.push(node);
  }
  return roots;
}

/** Keeps the rows whose name or code contains `keyword`, plus their ancestors among `rows`. */
export function filterWithAncestors(rows: readonly OrganizationRow[], keyword: string): OrganizationRow[] {
  const needle = keyword.trim().toLowerCase();
  if (!needle) return [...rows];
  const byCode = new Map(rows.map((row) => [row.code, row]));
  const kept = new Set<string>();
  for (const row of rows) {
    if (!row.name.toLowerCase().includes(needle) && !row.code.toLowerCase().includes(needle)) continue;
    for (let current: OrganizationRow | undefined = row; current && !kept.has(current.code); ) {
      kept.add(current.code);
      current = current.parent_code ? byCode.get(current.parent_code) : undefined;
    }
  }
  return rows.filter((row) => kept.has(row.code));
}

/** `organizationCode` and the organisations above it, nearest first (empty for an unknown code). */
async function lineOf(db: Queryable, organizationCode: string): Promise<Array<{ code: string; type: number }>> {
  return db.query<{ code: string; type: number }>(
    `WITH RECURSIVE up (code, type, parent_code, depth) AS (
       SELECT code, type, parent_code, 0 FROM organization WHERE code = $1
       UNION ALL
       SELECT o.code, o.type, o.parent_code, up.depth + 1 FROM organization o JOIN up ON o.code = up.parent_code WHERE up.depth < 64
     )
     SELECT code, type FROM up ORDER BY depth`,
    [organizationCode],
  );
}

/** The tenant (type 2 organisation) at or above `organizationCode`, or null above the tenants and for unknown codes. */
export async function tenantOf(db: Queryable, organizationCode: string): Promise<string | null> {
  return (await lineOf(db, organizationCode)).find((organization) => organization.type === ORGANIZATION_TYPE.tenant)?.code ?? null;
}

/**
 * Whose organisation `organizationCode` is, for the log (issue 24): the tenant at or above it, or,
 * above the tenants, the top of its tree (the platform). Null for an unknown code.
 */
export async function tenantOrPlatformOf(db: Queryable, organizationCode: string): Promise<string | null> {
  const line = await lineOf(db, organizationCode);
  return (line.find((organization) => organization.type === ORGANIZATION_TYPE.tenant) ?? line.at(-1))?.code ?? null;
}

/** The organisation `code` and everything below it ("an organisation" in a filter means its subtree). */
export async function subtreeOf(db: Queryable, code: string): Promise<string[]> {
  return (await organizationsWithin(db, [code])).map((org) => org.code);
}

/** The names of tenants, by code. */
export async function tenantNames(db: Queryable, codes: readonly string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ code: string; name: string }>('SELECT code, name FROM organization WHERE code = ANY($1::text[])', [codes]);
  return new Map(rows.map((row) => [row.code, row.name]));
}
