import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { tableContents, type TableContent } from '../../server/db/database';
import { openPglite } from '../../server/db/pglite';
import { ADMIN_PASSWORD } from './harness';
import { startServerProcess, type ServerProcess } from './serverProcess';

/**
 * `npm run backup` / `npm run restore` for the embedded database: a consistent copy of a server
 * that is writing, a restore into a fresh folder that holds exactly what the copy held, and the
 * refusals that keep a folder in use from being corrupted.
 */

const ROOT = join(import.meta.dirname, '..', '..');
let dir: string;
let dataDir: string;
let server: ServerProcess;

/** Runs one of the scripts as `npm run` does (tsx as a loader): exit code and output. */
function script(name: 'backup' | 'restore', args: string[]): { code: number | null; output: string } {
  const result = spawnSync(process.execPath, ['--import', 'tsx', `scripts/${name}.ts`, ...args], { cwd: ROOT, encoding: 'utf8', env: { PATH: process.env.PATH ?? '' } });
  return { code: result.status, output: `${result.stdout}${result.stderr}` };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'iot-backup-'));
  dataDir = join(dir, 'pglite');
  // A data folder holding the seeded world, as npm start's first run leaves it.
  const seeded = await openPglite({ dataDir, dump: new Blob([readFileSync(inject('seededDatabaseDump'))]) });
  await seeded.close();
  server = await startServerProcess({}, ['--data-dir', dataDir]);
}, 120_000);

afterAll(async () => {
  await server?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('backup and restore of the embedded database', () => {
  it('a second server on the same folder is refused with a sentence', async () => {
    const second = await startServerProcess({}, ['--data-dir', dataDir]).catch((error: unknown) => error);
    expect(String(second)).toContain(`数据目录 ${dataDir} 正被另一个服务进程使用`);
  });

  it('copies a server with writes in flight; restore is refused while it runs, and puts back exactly what the copy held', async () => {
    const token = (await server.call<{ accessToken: string }>('auth.login', { loginName: 'admin', password: ADMIN_PASSWORD })).data!.accessToken;
    let writing = true;
    let written = 0;
    const writer = (async () => {
      for (let index = 0; writing && index < 400; index += 1) {
        const reply = await server.call('system.user.insert', { user: { loginName: `backup_${index}`, userName: '备份测试', organizationCode: 'T0001P01', roleCode: 'ROLE_TENANT_REPAIR', status: '1' } }, token);
        if (reply.code === '200') written += 1;
      }
    })();
    // Let some writes land first.
    while (written < 5) await new Promise((resolve) => setTimeout(resolve, 20));
    const file = join(dir, 'iot.tar.gz');
    const backup = script('backup', ['--data-dir', dataDir, file]);
    writing = false;
    await writer;
    expect(backup.code, backup.output).toBe(0);
    expect(backup.output).toMatch(/^已备份到 .*来自运行中的服务进程 \d+）$/m);
    expect(existsSync(file) && existsSync(`${file}.manifest.json`)).toBe(true);
    const { tables } = JSON.parse(readFileSync(`${file}.manifest.json`, 'utf8')) as { tables: Record<string, TableContent> };
    const usersInCopy = tables.app_user.rows;

    // Restoring into the folder of the running server is refused, and changes nothing.
    const refused = script('restore', ['--data-dir', dataDir, file]);
    expect(refused.code).toBe(1);
    expect(refused.output).toContain(`数据目录 ${dataDir} 正被另一个服务进程使用`);
    expect(refused.output).toContain('请先停止服务再恢复');

    // Into a fresh folder: every table's rows and checksum are what the copy held.
    const freshDir = join(dir, 'restored');
    const restore = script('restore', ['--data-dir', freshDir, file]);
    expect(restore.code, restore.output).toBe(0);
    expect(restore.output).toMatch(/^已恢复到 /m);
    const restored = await openPglite({ dataDir: freshDir });
    try {
      expect(await tableContents(restored)).toEqual(tables);
    } finally {
      await restored.close();
    }
    const [atEnd] = await (async () => {
      await server.stop();
      const db = await openPglite({ dataDir });
      try {
        return await db.query<{ count: number }>('SELECT count(*)::int AS count FROM app_user');
      } finally {
        await db.close();
      }
    })();
    // Taken in the middle of the writes: at least the five before it, not more than all of them.
    expect(usersInCopy).toBeGreaterThanOrEqual(atEnd.count - written + 5);
    expect(usersInCopy).toBeLessThanOrEqual(atEnd.count);
  }, 180_000);
});
