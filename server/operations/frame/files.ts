import { issueFileTicket, scopeOfCaller, type FileTicket } from '../../domain/fileAccess';
import { newStoredPath, sniffUpload } from '../../domain/files';
import { tenantOf } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { callerOf, defineOperation } from '../define';

/** The largest file system/file/upload takes. */
export const UPLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
const ORIGINAL_NAME_MAX = 255;

/**
 * Stores the uploaded file (multipart field `file`) by what its bytes are, not what it is called,
 * and answers its relative url (`upload/2026/11/<random>.png`, served at /files/<url> with a file
 * ticket). The file belongs to the tenant of the organisation the caller works in (none above the
 * tenants: a platform file), and only its readers get it (domain/fileAccess.ts).
 */
export const uploadFile = defineOperation<Record<string, never>, { url: string }>('system.file.upload', {
  fileLimitBytes: UPLOAD_LIMIT_BYTES,
  async handler(context) {
    const caller = callerOf(context);
    if (!context.file) throw fail.badField('file（不能为空）');
    if (context.file.content.length === 0) throw fail.badField('file（文件为空）');
    const sniffed = await sniffUpload(context.file.content);
    const path = newStoredPath(sniffed.extension, context.now, context.config.timeZone);
    const organization = context.organizationCode ?? caller.organizationCodes[0];
    const tenant = organization ? await tenantOf(context.db, organization) : null;
    await context.files.write(path, sniffed.content);
    await context.db.query(
      `INSERT INTO uploaded_file (path, user_id, content_type, size_bytes, original_name, created_at, tenant_code) VALUES ($1, $2, $3, $4, $5, $6, $7)`,
      [path, caller.userId, sniffed.contentType, sniffed.content.length, context.file.fileName.slice(0, ORIGINAL_NAME_MAX), context.now, tenant],
    );
    return { url: path };
  },
});

/**
 * The caller's file ticket: what the console appends to every /files/ url (`?ticket=`), since an
 * `<img src>` cannot send the token header. It reads the files of the caller's tenants (every file
 * for platform staff) for FILE_TICKET_SECONDS; the console asks again before it runs out.
 */
export const fileTicket = defineOperation<Record<string, never>, FileTicket>('system.file.ticket', {
  async handler(context) {
    return issueFileTicket(context.fileSecret, await scopeOfCaller(context.db, callerOf(context)), context.now);
  },
});

export const FILE_OPERATIONS = [uploadFile, fileTicket];
