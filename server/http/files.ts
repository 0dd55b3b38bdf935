import type { FastifyInstance } from 'fastify';
import { contentTypeOfPath, STORED_FILE_PATH, type FileStore } from '../domain/files';

/** Where stored files are served (the console's FILE_PATH_PREFIX). */
export const FILES_PREFIX = '/files/';

/**
 * A stored file never runs as a page: no sniffing, no script, no plugins, no requests of its own
 * (an SVG may keep its inline styles), and a sandbox in case it is opened directly.
 */
export const FILE_CONTENT_SECURITY_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * Serves uploaded files read-only at GET /files/<path>, with the content type their bytes were
 * sniffed as at upload (the stored extension). No token: images load through <img src>, and the
 * path's 128 random bits are the capability.
 */
export function serveStoredFiles(app: FastifyInstance, store: FileStore): void {
  app.get(`${FILES_PREFIX}*`, async (request, reply) => {
    const path = (request.params as { '*'?: string })['*'] ?? '';
    const content = STORED_FILE_PATH.test(path) ? await store.read(path) : null;
    void reply.header('x-content-type-options', 'nosniff').header('content-security-policy', FILE_CONTENT_SECURITY_POLICY);
    if (!content) return reply.code(404).type('text/plain; charset=utf-8').send('Not Found');
    const contentType = contentTypeOfPath(path);
    void reply
      .type(contentType)
      .header('cache-control', 'private, max-age=31536000, immutable')
      .header('cross-origin-resource-policy', 'same-origin')
      .header('content-disposition', contentType.startsWith('image/') || contentType === 'application/pdf' ? 'inline' : 'attachment');
    return reply.send(content);
  });
}
