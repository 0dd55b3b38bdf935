import { createHash } from 'node:crypto';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database';
import { FILE_TICKET_PARAMETER, FILES_PREFIX, liveSessionExpiry, verifyDeviceTicket, verifyFileTicket, type DeviceDownload, type FileAccessRow } from '../domain/fileAccess';
import { contentTypeOfPath, STORED_FILE_PATH, type FileStore } from '../domain/files';
import { FIRMWARE_FILE_PATH } from '../domain/firmwareFiles';

export { FILES_PREFIX };

/**
 * A stored file never runs as a page: no sniffing, no script, no plugins, no requests of its own
 * (an SVG may keep its inline styles), and a sandbox in case it is opened directly.
 */
export const FILE_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

export interface FileServing {
  store: FileStore;
  db: Queryable;
  /** The key file tickets are signed with (domain/fileAccess.ts). */
  secret: Buffer;
  now: () => Date;
}

/** A stored file never changes (its path is new for every upload): its path names its content. */
const entityTagOf = (path: string) => `"${createHash('sha256').update(path).digest('base64url').slice(0, 22)}"`;

/**
 * Serves uploaded files read-only at GET /files/<path>, with the content type their bytes were
 * sniffed as at upload (the stored extension), to whom may read them (domain/fileAccess.ts): a
 * public file to anyone; any other only with a valid ticket for that path (`?ticket=`) whose
 * session is still alive. No such ticket: 403, whether or not the path exists. A path that is not
 * stored: 404. A file served on a ticket may be kept by the browser but is asked for again each
 * time it is shown (an unchanged one answers 304), so that it ends with its session there too.
 */
export function serveStoredFiles(app: FastifyInstance, { store, db, secret, now }: FileServing): void {
  serveFirmwareDownloads(app, { store, db, secret, now });
  app.get(`${FILES_PREFIX}*`, async (request, reply) => {
    const path = (request.params as { '*'?: string })['*'] ?? '';
    void reply.header('x-content-type-options', 'nosniff').header('content-security-policy', FILE_CONTENT_SECURITY_POLICY);
    const notFound = () => reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    if (!STORED_FILE_PATH.test(path)) return notFound();
    const [row] = await db.query<FileAccessRow>('SELECT tenant_code, public FROM uploaded_file WHERE path = $1', [path]);
    if (!row?.public) {
      const ticket = (request.query as Record<string, unknown>)[FILE_TICKET_PARAMETER];
      const at = now();
      const holder = verifyFileTicket(secret, path, typeof ticket === 'string' ? ticket : undefined, at);
      if (!holder || !(await liveSessionExpiry(db, holder.sessionId, at))) return reply.code(403).type('text/plain; charset=utf-8').send('Forbidden');
    }
    if (!row) return notFound();
    const entityTag = entityTagOf(path);
    const contentType = contentTypeOfPath(path);
    void reply
      // A public picture may be kept by any cache; another file only by this browser, and asked
      // for again (with its ticket, checked above) whenever it is shown.
      .header('cache-control', row.public ? 'public, max-age=31536000, immutable' : 'private, no-cache')
      .header('etag', entityTag)
      .header('cross-origin-resource-policy', 'same-origin')
      .header('content-disposition', contentType.startsWith('image/') || contentType === 'application/pdf' ? 'inline' : 'attachment');
    if (request.headers['if-none-match'] === entityTag) return reply.code(304).send();
    const content = await store.read(path);
    if (!content) return notFound();
    return reply.type(contentType).send(content);
  });
}

/** Where devices download firmware images (domain/firmwareFiles.ts): /files/firmware/<yyyy>/<mm>/<hex>.bin. */
const FIRMWARE_PREFIX = `${FILES_PREFIX}firmware/`;

/** Whether a device ticket's target is still upgrading in that attempt, with a package whose image is `path`. */
async function mayDownload(db: Queryable, download: DeviceDownload, path: string): Promise<boolean> {
  const rows = await db.query(
    `SELECT 1 FROM upgrade_task_device td JOIN upgrade_task t ON t.id = td.task_id JOIN upgrade_package k ON k.id = t.package_id
      WHERE td.task_id = $1 AND td.device_code = $2 AND td.attempts = $3 AND td.state IN ('pending', 'upgrading') AND k.file_path = $4`,
    [download.taskId, download.deviceCode, download.attempt, path],
  );
  return rows.length > 0;
}

/**
 * Serves firmware images to the devices of an upgrade task (issue 31), on a device ticket for that
 * image and that target (domain/fileAccess.ts) while the target is upgrading: anything else is 403,
 * whether the image exists or not. The bytes go out through @fastify/static's sendFile (its `send`
 * answers a Range request 206 with Content-Range, an unsatisfiable one 416, and honours If-Range
 * against the ETag and Last-Modified it sends), so a device whose download broke off resumes where
 * it stopped. Never cached on the way (the url carries a ticket), never shown as anything but bytes.
 */
function serveFirmwareDownloads(app: FastifyInstance, { store, db, secret, now }: FileServing): void {
  // In a scope of its own: the console's static files (http/static.ts) decorate the root's replies with their own headers.
  void app.register(async (scope) => {
    await scope.register(fastifyStatic, { serve: false, root: store.root, dotfiles: 'deny', index: false });
    // What send refuses (416 with its Content-Range, 412 for a stale If-Match) goes out as send says, not as an API envelope.
    scope.setErrorHandler((error: Error & { statusCode?: number; headers?: Record<string, string> }, request, reply) => {
      const status = error.statusCode ?? 500;
      if (status >= 500) request.log.error({ err: error }, 'firmware download failed');
      void reply.code(status).headers(error.headers ?? {}).type('text/plain; charset=utf-8');
      return reply.send(status >= 500 ? 'Internal Server Error' : error.message);
    });
    scope.get(`${FIRMWARE_PREFIX}*`, async (request, reply) => {
      const path = `firmware/${(request.params as { '*'?: string })['*'] ?? ''}`;
      void reply.header('x-content-type-options', 'nosniff').header('content-security-policy', FILE_CONTENT_SECURITY_POLICY);
      const ticket = (request.query as Record<string, unknown>)[FILE_TICKET_PARAMETER];
      const download = FIRMWARE_FILE_PATH.test(path) ? verifyDeviceTicket(secret, path, typeof ticket === 'string' ? ticket : undefined, now()) : null;
      if (!download || !(await mayDownload(db, download, path))) return reply.code(403).type('text/plain; charset=utf-8').send('Forbidden');
      void reply.header('cache-control', 'private, no-store').header('content-disposition', 'attachment');
      return reply.sendFile(path, store.root, { acceptRanges: true, etag: true, lastModified: true, cacheControl: false });
    });
  });
}
