import type { Queryable, SqlParam } from '../../db/database';
import { compareVersions } from '../../domain/upgrades';
import { fail } from '../../http/envelope';
import { defineOperation, objectOf, text, type ParamSchema } from '../define';
import { Conditions, containing, pageOf, type Listing } from '../listQuery';
import { conflictOnClash, plainText, requirePlatformStaff } from '../system/shared';
import { actorOf, DOWNLOAD_URL_SCHEMA, idSchema, RELEASE_VERSION_PATTERN, sizeText } from './workScope';

/**
 * The mobile app's releases, kept by platform staff ("应用版本": 强制更新 and 热更新). A draft
 * may be edited or deleted; publishing offers it to the app (app.upgradePackage.list) and is
 * final, and a published version must be newer than the last one published on its platform.
 */

const PLATFORMS = ['android', 'ios'] as const;
const UPDATE_TYPES = ['forced', 'hot'] as const;

interface VersionRow {
  id: number;
  platform: string;
  update_type: string;
  version: string;
  build_number: number;
  download_url: string;
  package_size: number | null;
  release_notes: string;
  min_supported_version: string | null;
  published: boolean;
  published_at: Date | null;
  published_by: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

const COLUMNS = `id, platform, update_type, version, build_number, download_url, package_size, release_notes, min_supported_version,
  published, published_at, published_by, created_by, created_at, updated_at`;
const SELECT = `SELECT ${COLUMNS} FROM app_version v`;

function toRecord(row: VersionRow) {
  return {
    id: row.id,
    platform: row.platform,
    updateType: row.update_type,
    version: row.version,
    buildNumber: row.build_number,
    downloadUrl: row.download_url,
    packageSize: row.package_size,
    packageSizeText: sizeText(row.package_size),
    releaseNotes: row.release_notes,
    minSupportedVersion: row.min_supported_version ?? '',
    published: row.published,
    publishState: row.published ? '1' : '0',
    publishedAt: row.published_at ? row.published_at.toISOString() : '',
    publishedBy: row.published_by ?? '',
    createdBy: row.created_by,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

/** The platform's releases (one table, no scope: platform staff only). */
const versionListing: Listing<VersionRow, ReturnType<typeof toRecord>> = {
  from: 'app_version v',
  columns: COLUMNS,
  sorts: { buildNumber: 'v.build_number', createTime: 'v.created_at', publishedAt: 'v.published_at', version: 'v.build_number' },
  fallback: 'v.build_number DESC, v.id DESC',
  record: toRecord,
};

async function findVersion(db: Queryable, id: number): Promise<VersionRow> {
  const [row] = await db.query<VersionRow>(`${SELECT} WHERE v.id = $1`, [id]);
  if (!row) throw fail.notFound('版本不存在');
  return row;
}

interface VersionFilter {
  updateType?: (typeof UPDATE_TYPES)[number];
  platform?: (typeof PLATFORMS)[number];
  published?: '0' | '1';
  keyword?: string;
}

const filterSchema: Record<string, ParamSchema> = {
  updateType: { type: 'string', enum: [...UPDATE_TYPES] },
  platform: { type: 'string', enum: [...PLATFORMS] },
  published: { type: 'string', enum: ['0', '1'] },
  keyword: text(64),
};

interface VersionFields {
  platform: (typeof PLATFORMS)[number];
  updateType: (typeof UPDATE_TYPES)[number];
  version: string;
  buildNumber: number;
  downloadUrl: string;
  packageSize?: number | null;
  releaseNotes: string;
  minSupportedVersion?: string | null;
}

const versionFields = objectOf(
  {
    platform: { type: 'string', enum: [...PLATFORMS] },
    updateType: { type: 'string', enum: [...UPDATE_TYPES] },
    version: { type: 'string', maxLength: 16, pattern: RELEASE_VERSION_PATTERN },
    buildNumber: { type: 'integer', minimum: 1, maximum: 99_999_999 },
    downloadUrl: DOWNLOAD_URL_SCHEMA,
    packageSize: { anyOf: [{ type: 'integer', minimum: 1, maximum: 4_294_967_295 }, { type: 'null' }] },
    releaseNotes: plainText(1000),
    minSupportedVersion: { anyOf: [{ type: 'string', maxLength: 16, pattern: RELEASE_VERSION_PATTERN }, { type: 'string', maxLength: 0 }, { type: 'null' }] },
  },
  ['platform', 'updateType', 'version', 'buildNumber', 'downloadUrl', 'releaseNotes'],
);

function checkFields(fields: VersionFields): void {
  if (fields.minSupportedVersion && compareVersions(fields.minSupportedVersion, fields.version) > 0) {
    throw fail.badRequest('参数错误：minSupportedVersion（最低支持版本不能高于本版本）');
  }
}

const CLASH = { unique: '该平台已有相同版本号或构建号的版本' };

export const appVersionOperations = [
  defineOperation<VersionFilter>('app.version.page', {
    paramSchema: objectOf(filterSchema),
    handler: async (context) => {
      requirePlatformStaff(context);
      const filter = context.param;
      const where = new Conditions();
      if (filter.updateType) where.add('v.update_type = $?', filter.updateType);
      if (filter.platform) where.add('v.platform = $?', filter.platform);
      if (filter.published) where.add(filter.published === '1' ? 'v.published' : 'NOT v.published');
      if (filter.keyword) where.add('(v.version ILIKE $? OR v.release_notes ILIKE $?)', containing(filter.keyword));
      return pageOf(context, versionListing, where);
    },
  }),

  defineOperation<{ id: number }>('app.version.detail', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => {
      requirePlatformStaff(context);
      return toRecord(await findVersion(context.db, context.param.id));
    },
  }),

  defineOperation<{ version: VersionFields }>('app.version.insert', {
    paramSchema: objectOf({ version: versionFields }, ['version']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const fields = context.param.version;
      checkFields(fields);
      const [created] = await conflictOnClash(
        () =>
          context.db.query<{ id: number }>(
            `INSERT INTO app_version (platform, update_type, version, build_number, download_url, package_size, release_notes, min_supported_version,
                                      created_by, created_at, updated_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $10) RETURNING id`,
            [
              fields.platform,
              fields.updateType,
              fields.version,
              fields.buildNumber,
              fields.downloadUrl,
              fields.packageSize ?? null,
              fields.releaseNotes,
              fields.minSupportedVersion || null,
              actorOf(context),
              context.now,
            ],
          ),
        CLASH,
      );
      return { id: created.id };
    },
  }),

  defineOperation<{ id: number; version: VersionFields }>('app.version.modify', {
    paramSchema: objectOf({ id: idSchema, version: versionFields }, ['id', 'version']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const row = await findVersion(context.db, context.param.id);
      if (row.published) throw fail.conflict('已发布的版本不能修改');
      const fields = context.param.version;
      checkFields(fields);
      await conflictOnClash(
        () =>
          context.db.query(
            `UPDATE app_version SET platform = $2, update_type = $3, version = $4, build_number = $5, download_url = $6, package_size = $7,
                    release_notes = $8, min_supported_version = $9, updated_at = $10
              WHERE id = $1 AND NOT published`,
            [
              row.id,
              fields.platform,
              fields.updateType,
              fields.version,
              fields.buildNumber,
              fields.downloadUrl,
              fields.packageSize ?? null,
              fields.releaseNotes,
              fields.minSupportedVersion || null,
              context.now,
            ],
          ),
        CLASH,
      );
      return null;
    },
  }),

  defineOperation<{ id: number }>('app.version.delete', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const row = await findVersion(context.db, context.param.id);
      if (row.published) throw fail.conflict('已发布的版本不能删除');
      await context.db.query('DELETE FROM app_version WHERE id = $1 AND NOT published', [row.id]);
      return null;
    },
  }),

  defineOperation<{ id: number }>('app.version.publish', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => {
      requirePlatformStaff(context);
      const row = await findVersion(context.db, context.param.id);
      if (row.published) throw fail.conflict('该版本已发布');
      const published = await context.db.query<{ version: string; build_number: number }>(
        'SELECT version, build_number FROM app_version WHERE platform = $1 AND update_type = $2 AND published',
        [row.platform, row.update_type],
      );
      const newest = published.reduce<string | null>((best, other) => (best === null || compareVersions(other.version, best) > 0 ? other.version : best), null);
      if (newest !== null && compareVersions(row.version, newest) <= 0) throw fail.conflict(`版本号须高于已发布的最新版本 ${newest}`);
      if (published.some((other) => other.build_number >= row.build_number)) throw fail.conflict('构建号须高于已发布的版本');
      await context.db.query('UPDATE app_version SET published = true, published_at = $2, published_by = $3, updated_at = $2 WHERE id = $1', [
        row.id,
        context.now,
        actorOf(context),
      ]);
      return null;
    },
  }),

  defineOperation<{ platform?: (typeof PLATFORMS)[number]; updateType?: (typeof UPDATE_TYPES)[number] }>('app.upgradePackage.list', {
    paramSchema: objectOf({ platform: { type: 'string', enum: [...PLATFORMS] }, updateType: { type: 'string', enum: [...UPDATE_TYPES] } }),
    handler: async (context) => {
      const params: SqlParam[] = [];
      const clauses = ['v.published'];
      if (context.param.platform) {
        params.push(context.param.platform);
        clauses.push(`v.platform = $${params.length}`);
      }
      if (context.param.updateType) {
        params.push(context.param.updateType);
        clauses.push(`v.update_type = $${params.length}`);
      }
      const rows = await context.db.query<VersionRow>(`${SELECT} WHERE ${clauses.join(' AND ')} ORDER BY v.build_number DESC, v.published_at DESC LIMIT 100`, params);
      return rows.map((row) => ({
        id: row.id,
        platform: row.platform,
        updateType: row.update_type,
        version: row.version,
        buildNumber: row.build_number,
        downloadUrl: row.download_url,
        packageSize: row.package_size,
        releaseNotes: row.release_notes,
        minSupportedVersion: row.min_supported_version ?? '',
        forced: row.update_type === 'forced',
        publishedAt: row.published_at ? row.published_at.toISOString() : '',
      }));
    },
  }),
];
