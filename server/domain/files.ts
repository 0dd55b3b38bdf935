import { randomBytes } from 'node:crypto';
import { chmodSync, mkdirSync, statSync } from 'node:fs';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve } from 'node:path';
import { fileTypeFromBuffer } from 'file-type';
import { OWNER_DIRECTORY_MODE, OWNER_FILE_MODE } from '../db/ownerOnlyFiles';
import { fail } from '../http/envelope';
import { businessMonth } from './businessTime';
import { sanitizeSvg } from './svg';

/** The kinds of file the platform stores, by the extension it gives them. */
export const STORED_FILE_TYPES = {
  jpg: 'image/jpeg',
  png: 'image/png',
  gif: 'image/gif',
  webp: 'image/webp',
  pdf: 'application/pdf',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  svg: 'image/svg+xml',
} as const;

export type StoredExtension = keyof typeof STORED_FILE_TYPES;

/** What file-type reports, mapped to the stored extension (an animated PNG is a PNG). */
const SNIFFED: Readonly<Record<string, StoredExtension>> = { jpg: 'jpg', png: 'png', apng: 'png', gif: 'gif', webp: 'webp', pdf: 'pdf', xlsx: 'xlsx' };

export const UNSUPPORTED_FILE_MESSAGE = '参数错误：仅支持 JPEG、PNG、GIF、WebP、PDF、XLSX 和 SVG 文件';

/** A stored file's path relative to the file folder: upload/2026/11/<32 hex>.png. */
export const STORED_FILE_PATH = /^upload\/\d{4}\/\d{2}\/[0-9a-f]{32}\.(jpg|png|gif|webp|pdf|xlsx|svg)$/;

export interface SniffedFile {
  extension: StoredExtension;
  contentType: string;
  /** The bytes to store (an SVG sanitised). */
  content: Buffer;
}

/**
 * What the bytes are, whatever the file is called: one of STORED_FILE_TYPES, SVG only after
 * sanitising. "400" for anything else (HTML, scripts, archives, text …).
 */
export async function sniffUpload(content: Buffer): Promise<SniffedFile> {
  const detected = await fileTypeFromBuffer(content);
  const extension = detected ? SNIFFED[detected.ext] : undefined;
  if (extension) return { extension, contentType: STORED_FILE_TYPES[extension], content };
  if (!detected || detected.ext === 'xml') {
    const svg = svgOf(content);
    if (svg !== null) return { extension: 'svg', contentType: STORED_FILE_TYPES.svg, content: Buffer.from(svg, 'utf8') };
  }
  throw fail.badRequest(UNSUPPORTED_FILE_MESSAGE);
}

function svgOf(content: Buffer): string | null {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true }).decode(content);
  } catch {
    return null;
  }
  return sanitizeSvg(text);
}

export function contentTypeOfPath(path: string): string {
  const extension = path.slice(path.lastIndexOf('.') + 1) as StoredExtension;
  return STORED_FILE_TYPES[extension] ?? 'application/octet-stream';
}

/** A fresh, unguessable path for a file stored at `now`, in the folder of its business month (upload/yyyy/mm/). */
export function newStoredPath(extension: StoredExtension, now: Date, timeZone: string): string {
  const [year, month] = businessMonth(now, timeZone).split('-');
  return `upload/${year}/${month}/${randomBytes(16).toString('hex')}.${extension}`;
}

/** The folder uploaded files live in (the data folder's `files`, a temporary one in memory mode). */
export interface FileStore {
  readonly root: string;
  /** Writes a file at a STORED_FILE_PATH (atomically: a reader never sees half of it). */
  write(path: string, content: Buffer): Promise<void>;
  /** The file at a STORED_FILE_PATH, or null when there is none. */
  read(path: string): Promise<Buffer | null>;
}

/**
 * The file store at `root`. Uploads are their owner's alone, as the data folder is (issue 30): the
 * folder and every folder below it 0700, every file 0600; a root readable by others (an earlier
 * version's, or one made by hand) is narrowed to 0700 here.
 */
export function fileStoreAt(root: string): FileStore {
  const absolute = resolve(root);
  mkdirSync(absolute, { recursive: true, mode: OWNER_DIRECTORY_MODE });
  if ((statSync(absolute).mode & 0o077) !== 0) chmodSync(absolute, OWNER_DIRECTORY_MODE);
  const locate = (path: string) => {
    if (!STORED_FILE_PATH.test(path)) throw new Error(`not a stored file path: ${path}`);
    return join(absolute, path);
  };
  return {
    root: absolute,
    async write(path, content) {
      const target = locate(path);
      await mkdir(dirname(target), { recursive: true, mode: OWNER_DIRECTORY_MODE });
      const partial = `${target}.${randomBytes(4).toString('hex')}.part`;
      await writeFile(partial, content, { flag: 'wx', mode: OWNER_FILE_MODE });
      await rename(partial, target);
    },
    async read(path) {
      try {
        return await readFile(locate(path));
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
  };
}
