import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** How an operation is called (DESIGN.md, "The operation catalogue"). */
export type OperationKind = 'call' | 'page' | 'blob' | 'upload' | 'get';
export type OperationAccess = 'public' | 'token' | 'dev';

export interface CatalogueEntry {
  path: string;
  kind: OperationKind;
  title: string;
  access?: OperationAccess;
  param?: 'string';
  button?: boolean;
}

export type Catalogue = Readonly<Record<string, CatalogueEntry>>;

export const CATALOGUE_FILE = fileURLToPath(new URL('../schemas/operations.json', import.meta.url));

/**
 * Operations the server serves that `schemas/operations.json` does not list yet (asked of the
 * lead, who owns the catalogue). An entry here is dropped as soon as the catalogue has the name.
 */
export const PENDING_CATALOGUE_ENTRIES: Catalogue = {
  'dev.reset': { path: '/dev/_reset', kind: 'call', title: '开发用：恢复种子数据', access: 'dev' },
  'dev.session.expire': { path: '/dev/session/_expire', kind: 'call', title: '开发用：使用户令牌过期', access: 'dev' },
};

/** The catalogue file plus the pending entries it does not name yet. */
export function loadCatalogue(file = CATALOGUE_FILE): Catalogue {
  const listed = JSON.parse(readFileSync(file, 'utf8')) as Record<string, CatalogueEntry>;
  return { ...PENDING_CATALOGUE_ENTRIES, ...listed };
}

export function accessOf(entry: CatalogueEntry): OperationAccess {
  return entry.access ?? 'token';
}
