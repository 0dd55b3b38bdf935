import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database';
import { FILE_TICKET_PARAMETER, FILES_PREFIX, liveSessionExpiry, verifyFileTicket, type FileAccessRow } from '../domain/fileAccess';
import { contentTypeOfPath, STORED_FILE_PATH, type FileStore } from '../domain/files';

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
