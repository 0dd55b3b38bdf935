import type { Queryable } from '../../db/database';
import { compareVersions } from '../../domain/upgrades';
import type { EntityExtension } from '../../entities/operations';
import { fail } from '../../http/envelope';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { requirePlatformStaff } from '../../core/access';
import { actorOf, idSchema, sizeText } from './workScope';

/**
 * The mobile app's releases, kept by platform staff ("应用版本": 强制更新 and 热更新). A draft
 * may be edited or deleted; publishing offers it to the app (app.upgradePackage.list) and is
 * final, and a published version must be newer than the last one published on its platform.
 * page/detail/insert/modify/delete are served from the entity definition (issue 25).
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
}

const SELECT = `SELECT id, platform, update_type, version, build_number, download_url, package_size, release_notes, min_supported_version,
  published, published_at FROM app_version v`;

async function findVersion(db: Queryable, id: number): Promise<VersionRow> {
  const [row] = await db.query<VersionRow>(`${SELECT} WHERE v.id = $1`, [id]);
  if (!row) throw fail.notFound('版本不存在');
  return row;
}

/**
 * What the definition (schemas/entities/devices/appVersion.json) does not say: platform staff
 * only, a published version is final, the lowest supported version is not above the version, the
 * size as text, and the `version` sort by build (3.10.0 after 3.9.0).
 */
export const appVersionExtension: EntityExtension = {
  access: (context) => requirePlatformStaff(context),
  sorts: { version: 't.build_number' },
  computed: {
    schema: { packageSizeText: { type: 'string' }, publishState: { type: 'string' }, publishedAt: { type: 'string' } },
    of: (record) => ({
      packageSizeText: sizeText(record.packageSize === null ? null : Number(record.packageSize)),
      publishState: record.published ? '1' : '0',
      publishedAt: record.publishedAt ?? '',
    }),
  },
  beforeWrite: ({ values, current }) => {
    if (current?.published) throw fail.conflict('已发布的版本不能修改');
    const lowest = typeof values.minSupportedVersion === 'string' ? values.minSupportedVersion : '';
    if (lowest && compareVersions(lowest, String(values.version)) > 0) throw fail.badRequest('参数错误：minSupportedVersion（最低支持版本不能高于本版本）');
  },
  beforeDelete: ({ current }) => {
    if (current.published) throw fail.conflict('已发布的版本不能删除');
  },
};

export const appVersionOperations = [
  defineOperation('app.version.publish', {
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

  defineOperation('app.upgradePackage.list', {
    paramSchema: objectOf({ platform: enumOf(PLATFORMS), updateType: enumOf(UPDATE_TYPES) }),
    handler: async (context) => {
      const where = new Conditions().add('v.published').when(context.param.platform, 'v.platform = $?').when(context.param.updateType, 'v.update_type = $?');
      const rows = await context.db.query<VersionRow>(`${SELECT} WHERE ${where.sql} ORDER BY v.build_number DESC, v.published_at DESC LIMIT 100`, where.params);
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
