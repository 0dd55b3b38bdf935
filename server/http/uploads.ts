import type { FastifyInstance, FastifyRequest } from 'fastify';
import fastifyMultipart from '@fastify/multipart';
import type { UploadedFile } from '../operations/define';
import { fail } from './envelope';

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

/**
 * The file of an upload request, read whole: null when the request carries none in field `file`,
 * "400" when it is larger than `limitBytes` or the multipart body is malformed.
 */
export async function readUpload(request: FastifyRequest, limitBytes: number): Promise<UploadedFile | null> {
  if (!request.isMultipart()) return null;
  try {
    const part = await request.file({ limits: { fileSize: limitBytes, files: 1 } });
    if (!part || part.fieldname !== UPLOAD_FIELD) return null;
    const content = await part.toBuffer();
    return { fileName: part.filename, content };
  } catch (error) {
    if (error instanceof request.server.multipartErrors.RequestFileTooLargeError) {
      throw fail.badRequest(`参数错误：文件大小不能超过${megabytes(limitBytes)}MB`);
    }
    // Only the request stream is read here: whatever else fails is a malformed or cut-off body.
    throw fail.badRequest('参数错误：文件上传请求不合法');
  }
}
