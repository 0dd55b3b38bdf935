import { newStoredPath, sniffUpload } from '../../domain/files';
import { fail } from '../../http/envelope';
import { callerOf, defineOperation } from '../define';

/** The largest file system/file/upload takes. */
export const UPLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
const ORIGINAL_NAME_MAX = 255;

/**
 * Stores the uploaded file (multipart field `file`) by what its bytes are, not what it is called,
 * and answers its relative url (`upload/2026/11/<random>.png`, served at /files/<url>).
 */
export const uploadFile = defineOperation<Record<string, never>, { url: string }>('system.file.upload', {
  fileLimitBytes: UPLOAD_LIMIT_BYTES,
  async handler(context) {
    const caller = callerOf(context);
    if (!context.file) throw fail.badField('file（不能为空）');
    if (context.file.content.length === 0) throw fail.badField('file（文件为空）');
    const sniffed = await sniffUpload(context.file.content);
    const path = newStoredPath(sniffed.extension, context.now, context.config.timeZone);
    await context.files.write(path, sniffed.content);
    await context.db.query(
      `INSERT INTO uploaded_file (path, user_id, content_type, size_bytes, original_name, created_at) VALUES ($1, $2, $3, $4, $5, $6)`,
      [path, caller.userId, sniffed.contentType, sniffed.content.length, context.file.fileName.slice(0, ORIGINAL_NAME_MAX), context.now],
    );
    return { url: path };
  },
});

export const FILE_OPERATIONS = [uploadFile];
