import { createHash, randomBytes } from 'node:crypto';
import { mkdir, rename, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { OWNER_DIRECTORY_MODE, OWNER_FILE_MODE } from '../db/ownerOnlyFiles';
import { businessMonth } from './businessTime';
import type { FileStore } from './files';

/**
 * Firmware images on the platform (issue 31): uploaded by upgrade.package.upload, kept in the file
 * folder beside the uploads (`firmware/yyyy/mm/<32 hex>.bin`, owner-only like every stored file),
 * and downloaded by the devices of an upgrade task on a device ticket (domain/fileAccess.ts,
 * http/files.ts). The bytes are whatever the vendor built: they are never sniffed or served as
 * anything but application/octet-stream. Their size and SHA-256 are read here, from the bytes.
 */

/** A firmware image's path relative to the file folder. */
export const FIRMWARE_FILE_PATH = /^firmware\/\d{4}\/\d{2}\/[0-9a-f]{32}\.bin$/;

/** The largest image upgrade.package.upload takes (the server's multipart limit). */
export const FIRMWARE_LIMIT_BYTES = 20 * 1024 * 1024;

export const sha256Of = (content: Buffer) => createHash('sha256').update(content).digest('hex');

/** A fresh, unguessable path for an image stored at `now`, in the folder of its business month. */
export function newFirmwarePath(now: Date, timeZone: string): string {
  const [year, month] = businessMonth(now, timeZone).split('-');
  return `firmware/${year}/${month}/${randomBytes(16).toString('hex')}.bin`;
}

/** Where an image lives on disk (under the store's root); "not a firmware path" otherwise. */
export function firmwareFileOnDisk(store: FileStore, path: string): string {
  if (!FIRMWARE_FILE_PATH.test(path)) throw new Error(`not a firmware file path: ${path}`);
  return join(store.root, path);
}

/** Writes an image atomically (a device never downloads half of one), owner-only. */
export async function writeFirmwareFile(store: FileStore, path: string, content: Buffer): Promise<void> {
  const target = firmwareFileOnDisk(store, path);
  await mkdir(dirname(target), { recursive: true, mode: OWNER_DIRECTORY_MODE });
  const partial = `${target}.${randomBytes(4).toString('hex')}.part`;
  await writeFile(partial, content, { flag: 'wx', mode: OWNER_FILE_MODE });
  await rename(partial, target);
}
