import { randomBytes } from 'node:crypto';
import { chmodSync, lstatSync, mkdirSync, readdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * What holds the key that decrypts the stored secrets (the data folder, the uploads, the backups,
 * the server's lock file with its backup token) is its owner's alone (issue 30): folders 0700,
 * files 0600, whatever the umask the process starts under.
 */
export const OWNER_DIRECTORY_MODE = 0o700;
export const OWNER_FILE_MODE = 0o600;
/** The bits nobody but the owner may have. */
export const GROUP_AND_OTHERS = 0o077;

/** `mode` without the group and other bits. */
export const ownerOnly = (mode: number) => mode & ~GROUP_AND_OTHERS;

/**
 * A folder written before it was kept owner-only (an earlier version's data folder, its root
 * readable by others): clears the group and other bits of everything in it, the root last, so
 * that a walk cut short is walked again at the next open. Symbolic links are left as they are.
 * A folder whose root is owner-only is not walked: everything in it was created owner-only.
 */
export function tightenTree(root: string): void {
  if ((lstatSync(root).mode & GROUP_AND_OTHERS) === 0) return;
  const visit = (path: string) => {
    const stat = lstatSync(path);
    if (stat.isSymbolicLink()) return;
    if (stat.isDirectory()) for (const name of readdirSync(path)) visit(join(path, name));
    if ((stat.mode & GROUP_AND_OTHERS) !== 0) chmodSync(path, ownerOnly(stat.mode & 0o7777));
  };
  visit(root);
}

/**
 * Writes `path` whole or not at all, readable by its owner only, replacing whatever was there
 * (a file's mode is set when it is created: an older copy readable by all is replaced, not
 * rewritten). Its folder is created 0700 when missing.
 */
export function writeOwnerOnlyFile(path: string, content: string | Uint8Array): void {
  mkdirSync(dirname(path), { recursive: true, mode: OWNER_DIRECTORY_MODE });
  const partial = `${path}.${randomBytes(4).toString('hex')}.part`;
  try {
    writeFileSync(partial, content, { mode: OWNER_FILE_MODE, flag: 'wx' });
    // The mode asked for at creation is narrowed by the umask, never widened: 0600 or less.
    renameSync(partial, path);
  } catch (error) {
    rmSync(partial, { force: true });
    throw error;
  }
}
