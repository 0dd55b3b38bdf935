import type { FastifyInstance } from 'fastify';
import type { Queryable } from '../db/database';
import { FILE_TICKET_PARAMETER, mayRead, verifyFileTicket, type FileAccessRow } from '../domain/fileAccess';
import { contentTypeOfPath, STORED_FILE_PATH, type FileStore } from '../domain/files';

/** Where stored files are served (the console's FILE_PATH_PREFIX). */
export const FILES_PREFIX = '/files/';

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

/**
 * Serves uploaded files read-only at GET /files/<path>, with the content type their bytes were
 * sniffed as at upload (the stored extension), to whom may read them (domain/fileAccess.ts): a
 * public file to anyone; any other only with a valid file ticket (`?ticket=`) whose scope covers
 * it. No valid ticket: 403, whether or not the path exists. A ticket that does not cover the file,
 * or a path that is not stored: 404, the same answer.
 */
export function serveStoredFiles(app: FastifyInstance, { store, db, secret, now }: FileServing): void {
  app.get(`${FILES_PREFIX}*`, async (request, reply) => {
    const path = (request.params as { '*'?: string })['*'] ?? '';
    void reply.header('x-content-type-options', 'nosniff').header('content-security-policy', FILE_CONTENT_SECURITY_POLICY);
    const notFound = () => reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    if (!STORED_FILE_PATH.test(path)) return notFound();
    const [row] = await db.query<FileAccessRow>('SELECT tenant_code, public FROM uploaded_file WHERE path = $1', [path]);
    const ticket = (request.query as Record<string, unknown>)[FILE_TICKET_PARAMETER];
    const scope = row?.public ? null : verifyFileTicket(secret, typeof ticket === 'string' ? ticket : undefined, now());
    if (!row?.public && !scope) return reply.code(403).type('text/plain; charset=utf-8').send('Forbidden');
    const content = row && mayRead(row, scope) ? await store.read(path) : null;
    if (!content) return notFound();
    const contentType = contentTypeOfPath(path);
    void reply
      .type(contentType)
      // A public picture may be kept by any cache; another file only by this browser, for a while
      // (its url carries a ticket that changes every FILE_TICKET_STEP_SECONDS).
      .header('cache-control', row?.public ? 'public, max-age=31536000, immutable' : 'private, max-age=600')
      .header('cross-origin-resource-policy', 'same-origin')
      .header('content-disposition', contentType.startsWith('image/') || contentType === 'application/pdf' ? 'inline' : 'attachment');
    return reply.send(content);
  });
}
