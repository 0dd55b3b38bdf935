import { randomBytes } from 'node:crypto';
import type { Envelope } from '../../server/http/envelope';
import { catalogue, type TestServer } from './harness';

/** A 1×1 transparent PNG. */
export const PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');
/** The start of a JFIF JPEG (what sniffing looks at). */
export const JPEG = Buffer.concat([Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00]), Buffer.alloc(64), Buffer.from([0xff, 0xd9])]);
export const GIF = Buffer.from('R0lGODlhAQABAIAAAAAAAP///yH5BAEAAAAALAAAAAABAAEAAAIBRAA7', 'base64');
export const WEBP = Buffer.from('UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA=', 'base64');
export const PDF = Buffer.from('%PDF-1.4\n1 0 obj <<>> endobj\ntrailer <<>>\n%%EOF\n');

export interface UploadOptions {
  token?: string;
  field?: string;
  contentType?: string;
}

/** A multipart/form-data body with one file part. */
export function multipartBody(fileName: string, content: Buffer, field = 'file', contentType = 'application/octet-stream'): { body: Buffer; contentType: string } {
  const boundary = `----frame${randomBytes(8).toString('hex')}`;
  const head = `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${fileName}"\r\nContent-Type: ${contentType}\r\n\r\n`;
  return { body: Buffer.concat([Buffer.from(head), content, Buffer.from(`\r\n--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** Uploads through system.file.upload as the console does (multipart field `file`). */
export async function upload(server: TestServer, fileName: string, content: Buffer, options: UploadOptions = {}): Promise<Envelope<{ url: string }>> {
  const { body, contentType } = multipartBody(fileName, content, options.field, options.contentType);
  const response = await server.app.inject({
    method: 'POST',
    url: `/api${catalogue['system.file.upload'].path}`,
    headers: { 'content-type': contentType, ...(options.token ? { token: options.token } : {}) },
    payload: body,
  });
  if (response.statusCode !== 200) throw new Error(`upload answered HTTP ${response.statusCode}`);
  return response.json<Envelope<{ url: string }>>();
}

/** The url system.file.ticket gives the caller for a stored path (what the console shows it at), or undefined. */
export async function fileUrlOf(server: TestServer, token: string, path: string): Promise<string | undefined> {
  const reply = await server.call<{ urls: Record<string, string>; expiresAt: string }>('system.file.ticket', { paths: [path] }, { token });
  if (reply.code !== '200' || !reply.data) throw new Error(`system.file.ticket answered ${reply.code} ${reply.message}`);
  return reply.data.urls[path];
}

/** The ticket of the url the caller is given for a stored path. */
export async function fileTicketOf(server: TestServer, token: string, path: string): Promise<string> {
  const url = await fileUrlOf(server, token, path);
  const ticket = url ? new URL(url, 'http://x').searchParams.get('ticket') : null;
  if (!ticket) throw new Error(`no ticket for ${path}: ${url}`);
  return ticket;
}

/** GET /files/<path>, with a file ticket when given. */
export function fetchFile(server: TestServer, path: string, ticket?: string) {
  return server.app.inject({ method: 'GET', url: `/files/${path}${ticket === undefined ? '' : `?ticket=${encodeURIComponent(ticket)}`}` });
}

/** GET a stored path at the url its caller is given for it (the plain /files/<path> when none). */
export async function fetchFileAs(server: TestServer, token: string, path: string) {
  return server.app.inject({ method: 'GET', url: (await fileUrlOf(server, token, path)) ?? `/files/${path}` });
}
