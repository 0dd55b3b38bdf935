import { spawnSync } from 'node:child_process';
import { chmodSync, lstatSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { removeServerLock, writeServerLock } from '../../server/db/dataFolderLock';
import { openDatabase } from '../../server/openDatabase';
import { openPglite } from '../../server/db/pglite';
import { fileStoreAt } from '../../server/domain/files';

/**
 * The embedded database's data folder, the uploads and the backups hold the key that decrypts the
 * stored secrets (issue 30): only their owner may read them, whatever the umask the server starts
 * under. Folders 700, files 600, for every file PGlite writes (a fresh cluster's initdb, a dump
 * unpacked, the server's own start-up, later writes and checkpoints), the uploads, the lock file
 * and what `npm run backup` / `npm run restore` write. PGlite only (the data folder is PGlite's).
 */

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let previousUmask: number;

/** Every path under `root` (itself included) whose mode is not 700 (folders) or 600 (files), as "path mode". */
function looseModes(root: string): string[] {
  const loose: string[] = [];
  const visit = (path: string) => {
    const stat = lstatSync(path);
    const mode = stat.mode & 0o777;
    if (stat.isDirectory()) {
      if (mode !== 0o700) loose.push(`${relative(root, path) || '.'}/ ${mode.toString(8)}`);
      for (const name of readdirSync(path)) visit(join(path, name));
    } else if (!stat.isSymbolicLink() && mode !== 0o600) loose.push(`${relative(root, path)} ${mode.toString(8)}`);
  };
  visit(root);
  return loose;
}

function countFiles(root: string): number {
  return readdirSync(root, { recursive: true }).length;
}

/** Runs one of the scripts as `npm run` does (tsx as a loader), under the test's umask. */
function script(name: 'backup' | 'restore', args: string[]): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'iot-permissions-'));
  // The loosest umask there is: nothing below may depend on the one the server is started with.
  previousUmask = process.umask(0);
});

afterAll(() => {
  process.umask(previousUmask);
  rmSync(dir, { recursive: true, force: true });
});

describe('the embedded database keeps its files to its owner', () => {
  it('a fresh cluster (initdb), its writes and checkpoints: folders 700, files 600', async () => {
    const dataDir = join(dir, 'fresh');
    const db = await openPglite({ dataDir });
    try {
      await db.exec("CREATE TABLE probe (id int PRIMARY KEY, note text); INSERT INTO probe SELECT n, repeat('x', 200) FROM generate_series(1, 5000) n");
      await db.exec('CHECKPOINT');
      await db.exec('CREATE INDEX probe_note ON probe (note)');
      await db.exec('VACUUM probe');
      await db.exec('CHECKPOINT');
    } finally {
      await db.close();
    }
    expect(countFiles(dataDir)).toBeGreaterThan(1000);
    expect(looseModes(dataDir)).toEqual([]);
  }, 60_000);

  it('a seeded folder opened by the server (a dump unpacked, then the start-up path), uploads and the lock file included', async () => {
    const dataDir = join(dir, 'seeded');
    const unpacked = await openPglite({ dataDir, dump: new Blob([readFileSync(inject('seededDatabaseDump'))]) });
    await unpacked.close();
    const { db } = await openDatabase({ dataDir });
    try {
      await db.query("UPDATE app_user SET user_name = user_name || '' WHERE id IN (SELECT id FROM app_user LIMIT 50)");
      await db.exec('CHECKPOINT');
    } finally {
      await db.close();
    }
    const files = fileStoreAt(join(dataDir, 'files'));
    await files.write('upload/2026/11/0123456789abcdef0123456789abcdef.png', Buffer.from('picture'));
    // A lock left behind by a server that died, readable by all, is replaced, not kept.
    writeFileSync(join(dataDir, 'server.lock'), '{}', { mode: 0o644 });
    writeServerLock(dataDir, { pid: process.pid, url: 'http://127.0.0.1:1', token: 'secret' });
    expect(looseModes(dataDir)).toEqual([]);
    // No server runs on it: the backup below opens the folder itself.
    removeServerLock(dataDir);
  }, 60_000);

  it('a folder left with loose modes by an earlier version is tightened when it opens', async () => {
    const dataDir = join(dir, 'fresh');
    chmodSync(dataDir, 0o755);
    chmodSync(join(dataDir, 'PG_VERSION'), 0o666);
    chmodSync(join(dataDir, 'base'), 0o777);
    const db = await openPglite({ dataDir });
    await db.close();
    expect(looseModes(dataDir)).toEqual([]);
  }, 60_000);

  it('npm run backup writes the copy and its manifest 600 (a folder it makes for them 700); npm run restore unpacks 700/600', () => {
    const dataDir = join(dir, 'seeded');
    const file = join(dir, 'backups', 'daily', 'iot.tar.gz');
    const backup = script('backup', ['--data-dir', dataDir, file]);
    expect(backup.code, backup.output).toBe(0);
    expect(readFileSync(file).length).toBeGreaterThan(1000);
    expect(looseModes(join(dir, 'backups'))).toEqual([]);

    const restoredDir = join(dir, 'restored');
    const restore = script('restore', ['--data-dir', restoredDir, file]);
    expect(restore.code, restore.output).toBe(0);
    expect(looseModes(restoredDir)).toEqual([]);
  }, 120_000);
});
