import type { Queryable } from '../../db/database';
import { FIRMWARE_FILE_PATH, FIRMWARE_LIMIT_BYTES, newFirmwarePath, sha256Of, writeFirmwareFile } from '../../domain/firmwareFiles';
import { fail } from '../../http/envelope';
import { holdsButton } from '../../security/caller';
import { callerOf } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { orBlank, textMatching } from '../../core/params';
import { workScope, type WorkScope } from './workScope';

/**
 * A package's firmware image on the platform (issue 31): upgrade.package.upload stores the bytes as
 * they are (`firmware/yyyy/mm/<random>.bin`) and answers their path, size and SHA-256, read by the
 * platform; a package saved with that path (upgradePackages.ts) takes its size and checksum from
 * here, and its devices download it on a ticket of their own (http/files.ts).
 */

const ORIGINAL_NAME_MAX = 128;

export interface FirmwareFileRow {
  path: string;
  tenant_code: string | null;
  size_bytes: number;
  sha256: string;
  original_name: string;
}

/** A stored image's path in a package's param: one upload answered, '' or null for none. */
export const FILE_PATH_SCHEMA = orBlank(textMatching(64, FIRMWARE_FILE_PATH.source));

/**
 * The image at `path`, when the scope uploaded it (a tenant's staff their tenant's images, platform
 * staff above the tenants the platform's): "400" otherwise, whether or not it exists.
 */
export async function uploadedFirmware(db: Queryable, scope: WorkScope, path: string): Promise<FirmwareFileRow> {
  const [row] = await db.query<FirmwareFileRow>('SELECT path, tenant_code, size_bytes, sha256, original_name FROM firmware_file WHERE path = $1', [path]);
  if (!row || row.tenant_code !== scope.tenantCode) throw fail.badRequest('参数错误：filePath（固件文件不存在，请重新上传）');
  return row;
}

export const upgradeFileOperations = [
  defineOperation('upgrade.package.upload', {
    fileLimitBytes: FIRMWARE_LIMIT_BYTES,
    async handler(context): Promise<{ url: string; fileName: string; fileSize: number; checksumAlgorithm: 'SHA256'; checksum: string }> {
      const caller = callerOf(context);
      // Whoever may add or change a package may upload its image; nobody else stores 20 MB here.
      const [inserts, modifies] = await Promise.all([holdsButton(context.db, caller, 'upgrade.package.insert'), holdsButton(context.db, caller, 'upgrade.package.modify')]);
      if (!inserts && !modifies) throw fail.forbidden();
      const scope = await workScope(context);
      if (!context.file) throw fail.badField('file（不能为空）');
      const { content, fileName } = context.file;
      if (content.length === 0) throw fail.badField('file（文件为空）');
      const path = newFirmwarePath(context.now, context.config.timeZone);
      const checksum = sha256Of(content);
      const name = fileName.replace(/[\\/]/g, '_').slice(0, ORIGINAL_NAME_MAX) || 'firmware.bin';
      await writeFirmwareFile(context.files, path, content);
      await context.db.query(
        'INSERT INTO firmware_file (path, tenant_code, user_id, size_bytes, sha256, original_name, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
        [path, scope.tenantCode, caller.userId, content.length, checksum, name, context.now],
      );
      return { url: path, fileName: name, fileSize: content.length, checksumAlgorithm: 'SHA256', checksum };
    },
  }),
];
