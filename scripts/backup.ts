// `npm run backup -- <file> [--data-dir .data/pglite]`: a consistent copy of the embedded database.
// While a server runs on the folder it is asked for the copy (taken between two of its statements,
// writes in flight or not); otherwise the folder is opened here. Writes <file> (a gzipped tarball
// that `npm run restore` and PGlite's loadDataDir read) and <file>.manifest.json (what every table
// held), each whole or not at all and readable by its owner only (0600). PostgreSQL: use pg_dump
// (README "Operations").
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { liveServerLock } from '../server/db/dataFolderLock';
import type { DatabaseBackup, TableContent } from '../server/db/database';
import { writeOwnerOnlyFile } from '../server/db/ownerOnlyFiles';
import { openPglite } from '../server/db/pglite';
import { BACKUP_PATH } from '../server/http/operability';

const { values, positionals } = parseArgs({ options: { 'data-dir': { type: 'string', default: '.data/pglite' } }, allowPositionals: true });
const [file] = positionals;
const dataDir = values['data-dir'];
if (!file) {
  console.error('用法: npm run backup -- <备份文件> [--data-dir .data/pglite]');
  process.exit(2);
}
if (!existsSync(join(dataDir, 'PG_VERSION'))) {
  console.error(`数据目录 ${dataDir} 中没有数据库`);
  process.exit(1);
}

async function fromRunningServer(url: string, token: string): Promise<DatabaseBackup> {
  const response = await fetch(`${url}${BACKUP_PATH}`, { method: 'POST', headers: { 'x-backup-token': token } });
  if (!response.ok) throw new Error(`运行中的服务拒绝了备份请求：HTTP ${response.status}`);
  const body = Buffer.from(await response.arrayBuffer());
  const newline = body.indexOf(0x0a);
  const { tables } = JSON.parse(body.subarray(0, newline).toString('utf8')) as { tables: Record<string, TableContent> };
  return { tables, archive: new Blob([body.subarray(newline + 1)]) };
}

async function fromFolder(): Promise<DatabaseBackup> {
  const db = await openPglite({ dataDir });
  try {
    return await db.backup();
  } finally {
    await db.close();
  }
}

const lock = liveServerLock(dataDir);
const { archive, tables } = lock ? await fromRunningServer(lock.url, lock.token) : await fromFolder();
const bytes = Buffer.from(await archive.arrayBuffer());
// Whole or not at all, and its owner's alone (0600, its folder 0700 when created): the copy holds
// the key that decrypts the stored secrets.
writeOwnerOnlyFile(file, bytes);
writeOwnerOnlyFile(`${file}.manifest.json`, `${JSON.stringify({ takenAt: new Date().toISOString(), dataDir, tables }, null, 1)}\n`);
const rows = Object.values(tables).reduce((sum, table) => sum + table.rows, 0);
console.log(`已备份到 ${file}（${Object.keys(tables).length} 张表，${rows} 行，${(bytes.length / 1048576).toFixed(1)} MB${lock ? `，来自运行中的服务进程 ${lock.pid}` : ''}）`);
