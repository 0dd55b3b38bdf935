import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { UploadedFile } from '../core/context';
import { fail } from './envelope';
import { NUL_REASON } from './errors';

/** The multipart field an upload's file comes in (DESIGN.md, kind `upload`). */
export const UPLOAD_FIELD = 'file';

/** Accepts multipart bodies; upload routes read them with readUpload, every other route ignores them. */
export async function acceptMultipart(app: FastifyInstance, maxFileBytes: number): Promise<void> {
  await app.register(fastifyMultipart, { limits: { fileSize: maxFileBytes, files: 1, fields: 10, parts: 20, fieldSize: 64 * 1024, headerPairs: 200 } });
}

function megabytes(bytes: number): string {
  const value = bytes / (1024 * 1024);
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

/** "参数错误：文件大小不能超过5MB". */
export function uploadTooLargeMessage(limitBytes: number): string {
  return `参数错误：文件大小不能超过${megabytes(limitBytes)}MB`;
}

class TooLarge extends Error {}
class NulInName extends Error {}

/**
 * The file of an upload request, read whole: null when the request carries none in field `file`,
 * "400" when it is larger than `limitBytes` (never a copy cut to the limit) or the multipart body
 * is malformed.
 */
export async function readUpload(request: FastifyRequest, limitBytes: number): Promise<UploadedFile | null> {
  if (!request.isMultipart()) return null;
  try {
    const part = await request.file({ limits: { fileSize: limitBytes, files: 1 } });
    if (!part || part.fieldname !== UPLOAD_FIELD) return null;
    const content = await part.toBuffer();
    // Busboy cuts a file at the limit and marks it truncated; toBuffer only throws when it sees the
    // mark after a chunk, so a file whose chunks end exactly at the limit came back whole-looking,
    // cut to the limit (issue 18, finding 7). The mark is checked here, once the stream has ended.
    if (part.file.truncated || content.length > limitBytes) throw new TooLarge();
    // The name is kept as written (uploaded_file.original_name): text, so never a NUL (finding 8).
    if (part.filename.includes('\u0000')) throw new NulInName();
    return { fileName: part.filename, content };
  } catch (error) {
    if (error instanceof TooLarge || error instanceof request.server.multipartErrors.RequestFileTooLargeError) {
      throw fail.badRequest(uploadTooLargeMessage(limitBytes));
    }
    if (error instanceof NulInName) throw fail.badRequest(`参数错误：${UPLOAD_FIELD}（${NUL_REASON}）`);
    // Only the request stream is read here: whatever else fails is a malformed or cut-off body.
    throw fail.badRequest('参数错误：文件上传请求不合法');
  }
}
