import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startUntilReady, type BenchRow } from './common';

/**
 * Start rows: `npm start` (scripts/start.mjs: dependency and build checks, then the server) to
 * its READY line, first on a new data folder (migrate and seed the demo world), then again on
 * the folder it left.
 */
export async function measureStart(): Promise<BenchRow[]> {
  const dataDir = mkdtempSync(join(tmpdir(), 'bench-start-'));
  const rows: BenchRow[] = [];
  try {
    for (const name of ['无数据目录（迁移并写入演示数据）', '已有数据目录']) {
      const server = await startUntilReady(['scripts/start.mjs', '--data-dir', join(dataDir, 'pglite'), '--port', '0']);
      rows.push({ group: '启动', name: `npm start → READY，${name}`, value: Math.round(server.readyAfterMs), unit: 'ms', budget: '', withinBudget: null });
      await server.stop();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}
