import type { Queryable, SqlParam } from '../../db/database';
import { compareVersions } from '../../domain/upgrades';
import { fail } from '../../http/envelope';
import { isPlatformStaff } from '../../core/access';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, text, textMatching, optionalPlainText, plainText, type ParamOf, orBlank, orNull, integerIn, matching } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { conflictOnClash } from '../../core/conflicts';
import { catalogueClause } from './tenancy';
import { FILE_PATH_SCHEMA, uploadedFirmware } from './upgradeFiles';
import { actorOf, dateStamp, DOWNLOAD_URL_SCHEMA, idSchema, nextId, sizeText, VERSION_PATTERN, workScope, type WorkScope } from './workScope';

/**
 * Firmware packages ("升级包"). The platform's packages (no tenant) are offered to every tenant;
 * a tenant's own builds only to that tenant. Tenant staff manage their own packages; platform
 * packages are read-only to them. A package that an unfinished task is pushing cannot be deleted,
 * and once any task has used it only its name and description may change.
 *
 * A package's image is either on the platform (`filePath`, uploaded by upgrade.package.upload: its
 * size and SHA-256 are the platform's reading of the bytes, and devices download it on a signed,
 * expiring url) or at an external https address the vendor publishes (`fileUrl`, with the size and
 * checksum the vendor gives; devices are sent that address as it is).
 */

const PACKAGE_TYPES = ['full', 'diff'] as const;
const ALGORITHMS = ['MD5', 'SHA256'] as const;
const CHECKSUM_LENGTH: Record<(typeof ALGORITHMS)[number], number> = { MD5: 32, SHA256: 64 };

interface PackageRow {
  id: number;
  code: string;
  name: string;
  product_code: string;
  product_name: string;
  tenant_code: string | null;
  owner_name: string | null;
  version: string;
  package_type: string;
  base_version: string | null;
  file_url: string;
  file_path: string | null;
  file_name: string;
  file_size: number;
  checksum_algorithm: string;
  checksum: string;
  description: string;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  task_count: number;
  active_task_count: number;
}

const COLUMNS = `
  k.id, k.code, k.name, k.product_code, p.name AS product_name, k.tenant_code, o.name AS owner_name, k.version, k.package_type,
  k.base_version, k.file_url, k.file_path, k.file_name, k.file_size, k.checksum_algorithm, k.checksum, k.description, k.created_by,
  k.created_at, k.updated_at,
  (SELECT count(*)::int FROM upgrade_task t WHERE t.package_id = k.id) AS task_count,
  (SELECT count(*)::int FROM upgrade_task t WHERE t.package_id = k.id AND t.state IN ('pending', 'upgrading')) AS active_task_count`;
const FROM = `
  upgrade_package k
  JOIN product p ON p.code = k.product_code
  LEFT JOIN organization o ON o.code = k.tenant_code`;
const SELECT = `SELECT ${COLUMNS} FROM ${FROM}`;

/** Packages the scope sees: the platform's and its tenant's; every package above the tenants. */
const visibleClause = (scope: WorkScope, params: SqlParam[], alias = 'k'): string => catalogueClause(scope.tenantCode, params, alias);

const editable = (context: OperationContext<unknown>, row: { tenant_code: string | null }) => isPlatformStaff(context) || row.tenant_code !== null;

function toRecord(context: OperationContext<unknown>, row: PackageRow) {
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    productCode: row.product_code,
    productName: row.product_name,
    version: row.version,
    packageType: row.package_type,
    baseVersion: row.base_version ?? '',
    fileUrl: row.file_url,
    /** The image on the platform (null when the package names an external address only). */
    filePath: row.file_path,
    fileName: row.file_name,
    fileSize: row.file_size,
    fileSizeText: sizeText(row.file_size),
    checksumAlgorithm: row.checksum_algorithm,
    checksum: row.checksum,
    description: row.description,
    owner: row.tenant_code === null ? 'platform' : 'tenant',
    ownerName: row.tenant_code === null ? '平台' : (row.owner_name ?? row.tenant_code),
    editable: editable(context, row),
    taskCount: row.task_count,
    activeTaskCount: row.active_task_count,
    createdBy: row.created_by,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

/** The package `id` if the scope sees it ("404" 升级包不存在 otherwise). */
export async function findVisiblePackage(db: Queryable, scope: WorkScope, id: number): Promise<PackageRow> {
  const params: SqlParam[] = [id];
  const [row] = await db.query<PackageRow>(`${SELECT} WHERE k.id = $1 AND ${visibleClause(scope, params)}`, params);
  if (!row) throw fail.notFound('升级包不存在');
  return row;
}

const filterSchema = objectOf({
  keyword: text(64),
  productCode: text(32),
  packageType: enumOf(PACKAGE_TYPES),
  owner: enumOf(['platform', 'tenant']),
});
type PackageFilter = ParamOf<typeof filterSchema>;

/** The packages the scope sees (by their own tenant_code: the platform's and the tenant's), narrowed by the filter. */
function where(scope: WorkScope, filter: PackageFilter): Conditions {
  const where = new Conditions();
  where.add(visibleClause(scope, where.params));
  if (filter.keyword) where.add('(k.code ILIKE $? OR k.name ILIKE $? OR k.version ILIKE $?)', containing(filter.keyword));
  if (filter.productCode) where.add('k.product_code = $?', filter.productCode);
  if (filter.packageType) where.add('k.package_type = $?', filter.packageType);
  if (filter.owner) where.add(filter.owner === 'platform' ? 'k.tenant_code IS NULL' : 'k.tenant_code IS NOT NULL');
  return where;
}

const SORTS = { createTime: 'k.created_at', name: 'k.name', version: 'k.version', fileSize: 'k.file_size', code: 'k.code' };

/** The package list: counted and chosen over the packages alone (every package has its product); names and task counts for the page's rows. */
function packageListing(context: OperationContext<unknown>): Listing<PackageRow, ReturnType<typeof toRecord>> {
  return { from: FROM, narrowFrom: 'upgrade_package k', key: 'k.id', columns: COLUMNS, sorts: SORTS, fallback: 'k.id DESC', record: (row) => toRecord(context, row) };
}

const packageFields = objectOf(
  {
    name: plainText(64),
    productCode: text(32, 1),
    version: textMatching(32, VERSION_PATTERN),
    packageType: enumOf(PACKAGE_TYPES),
    baseVersion: orBlank(textMatching(32, VERSION_PATTERN)),
    filePath: FILE_PATH_SCHEMA,
    fileUrl: orBlank(DOWNLOAD_URL_SCHEMA),
    fileSize: orNull(integerIn(1, 2_147_483_647)),
    checksumAlgorithm: orNull(enumOf(ALGORITHMS)),
    checksum: orNull(matching('^([0-9A-Fa-f]{32}|[0-9A-Fa-f]{64})$')),
    description: orNull(optionalPlainText(500)),
  },
  ['name', 'productCode', 'version', 'packageType'],
);
type PackageFields = ParamOf<typeof packageFields>;

const fileNameOf = (url: string) => decodeURIComponent(url.split(/[?#]/)[0].split('/').pop() ?? '').slice(0, 128) || 'firmware.bin';

/** A package's image as stored: on the platform (path) or at an external address. */
interface PackageFile {
  filePath: string | null;
  fileUrl: string;
  fileName: string;
  fileSize: number;
  checksumAlgorithm: (typeof ALGORITHMS)[number];
  checksum: string;
}

/**
 * The image a package's fields name: an uploaded one (`filePath`; size and checksum are its own,
 * and any given with it must agree), else an external address with its size and checksum.
 */
async function packageFileOf(db: Queryable, scope: WorkScope, fields: PackageFields): Promise<PackageFile> {
  if (fields.filePath) {
    const file = await uploadedFirmware(db, scope, fields.filePath);
    if (fields.fileSize && fields.fileSize !== file.size_bytes) throw fail.badRequest('参数错误：fileSize（与上传的固件文件不符）');
    if (fields.checksum && (fields.checksumAlgorithm !== 'SHA256' || fields.checksum.toLowerCase() !== file.sha256)) throw fail.badRequest('参数错误：checksum（与上传的固件文件不符）');
    return { filePath: file.path, fileUrl: '', fileName: file.original_name, fileSize: file.size_bytes, checksumAlgorithm: 'SHA256', checksum: file.sha256 };
  }
  if (!fields.fileUrl) throw fail.badRequest('参数错误：filePath（请上传固件文件，或填写固件下载地址）');
  if (!fields.fileSize) throw fail.badField('fileSize（不能为空）');
  if (!fields.checksumAlgorithm) throw fail.badField('checksumAlgorithm（不能为空）');
  if (!fields.checksum) throw fail.badField('checksum（不能为空）');
  if (fields.checksum.length !== CHECKSUM_LENGTH[fields.checksumAlgorithm]) {
    throw fail.badRequest(`参数错误：checksum（${fields.checksumAlgorithm} 校验值应为 ${CHECKSUM_LENGTH[fields.checksumAlgorithm]} 位十六进制）`);
  }
  return { filePath: null, fileUrl: fields.fileUrl, fileName: fileNameOf(fields.fileUrl), fileSize: fields.fileSize, checksumAlgorithm: fields.checksumAlgorithm, checksum: fields.checksum.toLowerCase() };
}

/** The fields made consistent: a differential package names the version it patches, a full one none; its image as stored. */
async function normalise(db: Queryable, scope: WorkScope, fields: PackageFields): Promise<PackageFields & PackageFile & { baseVersion: string | null }> {
  const baseVersion = fields.packageType === 'diff' ? fields.baseVersion || null : null;
  if (fields.packageType === 'diff' && !baseVersion) throw fail.badRequest('参数错误：baseVersion（差分包须填写基础版本）');
  if (baseVersion && compareVersions(baseVersion, fields.version) >= 0) throw fail.badRequest('参数错误：baseVersion（基础版本须低于升级版本）');
  return { ...fields, ...(await packageFileOf(db, scope, fields)), baseVersion };
}

/** The product a package is for: one the scope's catalogue holds ("404" 产品不存在 otherwise). */
async function productFor(db: Queryable, scope: WorkScope, code: string): Promise<{ code: string; tenant_code: string | null }> {
  const [row] = await db.query<{ code: string; tenant_code: string | null }>('SELECT code, tenant_code FROM product WHERE code = $1', [code]);
  if (!row || (scope.tenantCode !== null && row.tenant_code !== null && row.tenant_code !== scope.tenantCode)) throw fail.notFound('产品不存在');
  return row;
}

const CLASH = { unique: '该产品已有相同版本和类型的升级包' };

async function editablePackage(context: OperationContext<unknown>, id: number): Promise<{ scope: WorkScope; row: PackageRow }> {
  const scope = await workScope(context);
  const row = await findVisiblePackage(context.db, scope, id);
  if (!editable(context, row)) throw fail.forbidden('平台升级包不能修改');
  return { scope, row };
}

const IN_USE = '升级包已被升级任务使用，只能修改名称和描述';

export const upgradePackageOperations = [
  defineOperation('upgrade.package.page', {
    paramSchema: filterSchema,
    handler: async (context) => {
      return pageOf(context, packageListing(context), where(await workScope(context), context.param));
    },
  }),

  defineOperation('upgrade.package.list', {
    paramSchema: objectOf({ productCode: text(32) }),
    handler: async (context) => {
      const clause = where(await workScope(context), { productCode: context.param.productCode });
      const rows = await context.db.query<PackageRow>(`${SELECT} WHERE ${clause.sql} ORDER BY p.name, k.created_at DESC LIMIT 500`, clause.params);
      return rows.map((row) => ({
        id: row.id,
        code: row.code,
        name: row.name,
        label: `${row.product_name} v${row.version}（${row.package_type === 'diff' ? `差分包，自 ${row.base_version}` : '整包'}）`,
        productCode: row.product_code,
        version: row.version,
        packageType: row.package_type,
        baseVersion: row.base_version ?? '',
      }));
    },
  }),

  defineOperation('upgrade.package.detail', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => {
      const scope = await workScope(context);
      const row = await findVisiblePackage(context.db, scope, context.param.id);
      const params: SqlParam[] = [row.id, scope.organizationCodes];
      const tasks = await context.db.query<{ id: number; code: string; name: string; state: string; created_at: Date; device_count: number }>(
        `SELECT t.id, t.code, t.name, t.state, t.created_at, (SELECT count(*)::int FROM upgrade_task_device td WHERE td.task_id = t.id) AS device_count
           FROM upgrade_task t WHERE t.package_id = $1 AND t.organization_code = ANY($2::text[]) ORDER BY t.created_at DESC LIMIT 20`,
        params,
      );
      return {
        ...toRecord(context, row),
        tasks: tasks.map((task) => ({ id: task.id, code: task.code, name: task.name, state: task.state, deviceCount: task.device_count, createTime: task.created_at.toISOString() })),
      };
    },
  }),

  defineOperation('upgrade.package.insert', {
    paramSchema: objectOf({ package: packageFields }, ['package']),
    handler: async (context) => {
      const scope = await workScope(context);
      const fields = await normalise(context.db, scope, context.param.package);
      const product = await productFor(context.db, scope, fields.productCode);
      // Above the tenants a package is the platform's, unless the product is a tenant's own.
      const tenantCode = scope.tenantCode ?? product.tenant_code;
      return context.db.transaction(async (tx) => {
        const id = await nextId(tx, 'upgrade_package');
        const code = `FW${dateStamp(context.now, context.config.timeZone)}${String(id).padStart(3, '0')}`;
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO upgrade_package (id, code, name, product_code, tenant_code, version, package_type, base_version, file_url, file_name, file_size,
                                            checksum_algorithm, checksum, description, created_by, created_at, updated_at, file_path)
               VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $16, $17)`,
              [
                id,
                code,
                fields.name,
                product.code,
                tenantCode,
                fields.version,
                fields.packageType,
                fields.baseVersion,
                fields.fileUrl,
                fields.fileName,
                fields.fileSize,
                fields.checksumAlgorithm,
                fields.checksum,
                fields.description ?? '',
                actorOf(context),
                context.now,
                fields.filePath,
              ],
            ),
          CLASH,
        );
        return { id, code };
      });
    },
  }),

  defineOperation('upgrade.package.modify', {
    paramSchema: objectOf({ id: idSchema, package: packageFields }, ['id', 'package']),
    handler: async (context) => {
      const { scope, row } = await editablePackage(context, context.param.id);
      const fields = await normalise(context.db, scope, context.param.package);
      if (fields.productCode !== row.product_code) throw fail.badRequest('参数错误：productCode（升级包的产品不能修改）');
      const fileChanged =
        fields.version !== row.version ||
        fields.packageType !== row.package_type ||
        fields.baseVersion !== row.base_version ||
        fields.fileUrl !== row.file_url ||
        fields.filePath !== row.file_path ||
        fields.fileSize !== row.file_size ||
        fields.checksumAlgorithm !== row.checksum_algorithm ||
        fields.checksum !== row.checksum;
      if (fileChanged && row.task_count > 0) throw fail.conflict(IN_USE);
      await context.db.transaction(async (tx) => {
        // Locked and counted again: a task created since the read holds the file as it was.
        const [held] = await tx.query<{ tasks: number }>('SELECT (SELECT count(*)::int FROM upgrade_task WHERE package_id = $1) AS tasks FROM upgrade_package WHERE id = $1 FOR UPDATE', [row.id]);
        if (!held) throw fail.notFound('升级包不存在');
        if (fileChanged && held.tasks > 0) throw fail.conflict(IN_USE);
        await conflictOnClash(
          () =>
            tx.query(
              `UPDATE upgrade_package SET name = $2, version = $3, package_type = $4, base_version = $5, file_url = $6, file_name = $7, file_size = $8,
                      checksum_algorithm = $9, checksum = $10, description = $11, updated_at = $12, file_path = $13
                WHERE id = $1`,
              [
                row.id,
                fields.name,
                fields.version,
                fields.packageType,
                fields.baseVersion,
                fields.fileUrl,
                fields.filePath === null && fields.fileUrl === row.file_url ? row.file_name : fields.fileName,
                fields.fileSize,
                fields.checksumAlgorithm,
                fields.checksum,
                fields.description ?? '',
                context.now,
                fields.filePath,
              ],
            ),
          CLASH,
        );
      });
      return null;
    },
  }),

  defineOperation('upgrade.package.delete', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => {
      const { row } = await editablePackage(context, context.param.id);
      await context.db.transaction(async (tx) => {
        // Locked first: a task created at the same time (it holds the package FOR SHARE) is either in already or waits.
        const [held] = await tx.query('SELECT 1 FROM upgrade_package WHERE id = $1 FOR UPDATE', [row.id]);
        if (!held) throw fail.notFound('升级包不存在');
        const [busy] = await tx.query<{ code: string }>("SELECT code FROM upgrade_task WHERE package_id = $1 AND state IN ('pending', 'upgrading') ORDER BY id LIMIT 1", [row.id]);
        if (busy) throw fail.conflict(`升级包正被未完成的升级任务 ${busy.code} 使用，不能删除`);
        await tx.query('DELETE FROM upgrade_package WHERE id = $1', [row.id]);
      });
      return null;
    },
  }),
];
