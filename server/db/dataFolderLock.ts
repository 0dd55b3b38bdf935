import { existsSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writeOwnerOnlyFile } from './ownerOnlyFiles';

/**
 * The lock file a server keeps in the embedded database's data folder while it runs. PGlite is one
 * process's database: a second server, a restore or a direct backup on a folder in use would
 * corrupt it, so they look here first. It also tells `npm run backup` where the running server
 * answers, and the token it asks with (only who can read the folder has it).
 */
export interface ServerLock {
  pid: number;
  /** Where the server answers: http://127.0.0.1:3000. */
  url: string;
  token: string;
}

const LOCK_FILE = 'server.lock';

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The lock of a server that still runs on `dataDir`, or null (none, or left behind by one that died). */
export function liveServerLock(dataDir: string): ServerLock | null {
  const file = join(dataDir, LOCK_FILE);
  if (!existsSync(file)) return null;
  try {
    const lock = JSON.parse(readFileSync(file, 'utf8')) as ServerLock;
    return Number.isInteger(lock.pid) && lock.pid !== process.pid && alive(lock.pid) ? lock : null;
  } catch {
    return null;
  }
}

/** Writes the lock, its owner's alone (it holds the backup token), replacing one left behind whatever its mode. */
export function writeServerLock(dataDir: string, lock: ServerLock): void {
  writeOwnerOnlyFile(join(dataDir, LOCK_FILE), JSON.stringify(lock));
}

export function removeServerLock(dataDir: string): void {
  rmSync(join(dataDir, LOCK_FILE), { force: true });
}

/** The sentence for a folder another server uses. */
export function folderInUse(dataDir: string, lock: ServerLock): string {
  return `数据目录 ${dataDir} 正被另一个服务进程使用（进程 ${lock.pid}，${lock.url}）`;
}
