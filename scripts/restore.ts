// `npm run restore -- <file> [--data-dir .data/pglite]`: puts a backup of `npm run backup` in place
// of the embedded database. Refused while a server runs on the folder. The copy is unpacked into a
// new folder beside it and checked against <file>.manifest.json (every table's rows and checksum)
// before anything is swapped; the old folder is kept as <data-dir>.before-restore-<time>, and the
// uploads (<data-dir>/files) move to the restored folder.
import { existsSync, readFileSync, renameSync } from 'node:fs';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { folderInUse, liveServerLock } from '../server/db/dataFolderLock';
import { tableContents, type TableContent } from '../server/db/database';
import { openPglite } from '../server/db/pglite';

const { values, positionals } = parseArgs({ options: { 'data-dir': { type: 'string', default: '.data/pglite' } }, allowPositionals: true });
const [file] = positionals;
const dataDir = values['data-dir'];
if (!file || !existsSync(file)) {
  console.error('用法: npm run restore -- <备份文件> [--data-dir .data/pglite]');
  process.exit(2);
}
const lock = liveServerLock(dataDir);
if (lock) {
  console.error(`${folderInUse(dataDir, lock)}：请先停止服务再恢复`);
  process.exit(1);
}

const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '');
const restoring = `${dataDir}.restoring-${stamp}`;
const db = await openPglite({ dataDir: restoring, dump: new Blob([readFileSync(file)]) });
let restored: Record<string, TableContent>;
try {
  restored = await tableContents(db);
} finally {
  await db.close();
}
const manifestFile = `${file}.manifest.json`;
if (existsSync(manifestFile)) {
  const { tables } = JSON.parse(readFileSync(manifestFile, 'utf8')) as { tables: Record<string, TableContent> };
  const differing = Object.keys({ ...tables, ...restored }).filter((name) => JSON.stringify(tables[name]) !== JSON.stringify(restored[name]));
  if (differing.length) {
    console.error(`备份内容与清单不符（${differing.slice(0, 5).join('、')}），未做任何替换；解包的数据在 ${restoring}`);
    process.exit(1);
  }
}
if (existsSync(dataDir)) {
  if (existsSync(join(dataDir, 'files'))) renameSync(join(dataDir, 'files'), join(restoring, 'files'));
  renameSync(dataDir, `${dataDir}.before-restore-${stamp}`);
}
renameSync(restoring, dataDir);
const rows = Object.values(restored).reduce((sum, table) => sum + table.rows, 0);
console.log(`已恢复到 ${dataDir}（${Object.keys(restored).length} 张表，${rows} 行${existsSync(`${dataDir}.before-restore-${stamp}`) ? `；原数据保存在 ${dataDir}.before-restore-${stamp}` : ''}）`);
