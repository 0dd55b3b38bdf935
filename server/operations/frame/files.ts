import { fileUrlFor, liveSessionExpiry, mayRead, scopeOfCaller, ticketExpiry, type FileAccessRow } from '../../domain/fileAccess';
import { newStoredPath, sniffUpload, STORED_FILE_PATH } from '../../domain/files';
import { tenantOf } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { callerOf } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, schemaOf } from '../../core/params';

/** The largest file system/file/upload takes. */
export const UPLOAD_LIMIT_BYTES = 5 * 1024 * 1024;
const ORIGINAL_NAME_MAX = 255;

/**
 * Stores the uploaded file (multipart field `file`) by what its bytes are, not what it is called,
 * and answers its relative url (`upload/2026/11/<random>.png`, served at /files/<url> to those
 * system.file.ticket gives a url for it). The file belongs to the tenant of the organisation the
 * caller works in (none above the tenants: a platform file), and only its readers get it
 * (domain/fileAccess.ts).
 */
export const uploadFile = defineOperation('system.file.upload', {
  fileLimitBytes: UPLOAD_LIMIT_BYTES,
  async handler(context): Promise<{ url: string }> {
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

/** The most paths one system.file.ticket call takes: a page's worth (a list of 100 rows with a picture each). */
export const FILE_URL_BATCH_MAX = 200;

export interface FileUrls {
  /** The url of each path the caller may read (a public file's without a ticket); others are left out. */
  urls: Record<string, string>;
  /** When the urls stop working (ISO 8601): the tickets' expiry, or the session's if sooner. */
  expiresAt: string;
}

/**
 * The urls of the stored files a page shows, in one call (issue 30): `{paths: [...]}` answers
 * `{urls: {path: url}, expiresAt}`. Each url opens its one file, for this session only and while
 * it lives (domain/fileAccess.ts), since an `<img src>` cannot send the token header. A path the
 * caller may not read, or that is not stored, gets no url (the same for both).
 */
export const fileTicket = defineOperation('system.file.ticket', {
  paramSchema: objectOf(
    {
      paths: schemaOf<string[]>({
        type: 'array',
        minItems: 1,
        maxItems: FILE_URL_BATCH_MAX,
        uniqueItems: true,
        items: { type: 'string', maxLength: 64, pattern: STORED_FILE_PATH.source },
      }),
    },
    ['paths'],
  ),
  async handler(context): Promise<FileUrls> {
    const caller = callerOf(context);
    const [scope, sessionExpiry, files] = await Promise.all([
      scopeOfCaller(context.db, caller),
      liveSessionExpiry(context.db, caller.sessionId, context.now),
      context.db.query<FileAccessRow & { path: string }>('SELECT path, tenant_code, public FROM uploaded_file WHERE path = ANY($1::text[])', [context.param.paths]),
    ]);
    if (!sessionExpiry) throw fail.session();
    const expires = ticketExpiry(context.now);
    const urls: Record<string, string> = {};
    for (const file of files) if (mayRead(file, scope)) urls[file.path] = fileUrlFor(context.fileSecret, file.path, file, caller.sessionId, expires);
    return { urls, expiresAt: new Date(Math.min(expires * 1000, sessionExpiry.getTime())).toISOString() };
  },
});

export const FILE_OPERATIONS = [uploadFile, fileTicket];
