import autocannon from 'autocannon';
import { existsSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { openDatabase } from '../../server/db/open';
import { benchDir, callApi, residentMiB, startServer, type BenchRow } from './common';

export const LARGE_DEVICES = 100_000;
export const LARGE_ALARMS = 1_000_000;
const LARGE_DIR = join(benchDir, 'pglite-large');
const READY_MARK = join(benchDir, 'pglite-large.ready');

/**
 * A data folder with the demo world grown to 100,000 devices and 1,000,000 alarms (built once,
 * kept under .bench/): the extra rows are generated in SQL, spread over the tenant's areas.
 */
async function prepareLargeWorld(log: (line: string) => void): Promise<void> {
  if (existsSync(READY_MARK)) return;
  rmSync(LARGE_DIR, { recursive: true, force: true });
  mkdirSync(benchDir, { recursive: true });
  log(`生成大数据量数据库（${LARGE_DEVICES} 台设备、${LARGE_ALARMS} 条告警）…`);
  const { db } = await openDatabase({ dataDir: LARGE_DIR });
  try {
    const [{ count }] = await db.query<{ count: number }>('SELECT count(*)::int AS count FROM device');
    await db.exec(`
      INSERT INTO device (code, name, product_code, organization_code, tenant_code, imei, firmware_version, online_state, health_state,
                          health_score, battery_level, signal_strength, longitude, latitude, address, last_seen_at, activated_at, created_at)
      SELECT 'BNCH' || lpad(i::text, 8, '0'), '压测设备-' || i, p.code, o.code, 'T0001', '86' || lpad(i::text, 13, '0'), '1.0.' || (i % 7),
             (ARRAY['online','online','online','offline','inactive'])[1 + i % 5], (ARRAY['healthy','healthy','subhealthy','faulty'])[1 + i % 4],
             40 + i % 60, i % 101, i % 32, 120.0 + (i % 1000) / 2500.0, 30.1 + (i % 997) / 2500.0, '浙江省杭州市压测路' || i || '号',
             now() - (i % 10080) * interval '1 minute', now() - (i % 400) * interval '1 day', now() - (i % 700) * interval '1 day'
        FROM generate_series(1, ${LARGE_DEVICES - count}) AS i
        CROSS JOIN LATERAL (SELECT code FROM product ORDER BY code OFFSET i % (SELECT count(*) FROM product) LIMIT 1) p
        CROSS JOIN LATERAL (SELECT code FROM organization WHERE code LIKE 'T0001P%' ORDER BY code OFFSET i % (SELECT count(*) FROM organization WHERE code LIKE 'T0001P%') LIMIT 1) o`);
    const [alarms] = await db.query<{ present: boolean }>("SELECT to_regclass('alarm_record') IS NOT NULL AS present");
    if (alarms.present) {
      const [{ existing }] = await db.query<{ existing: number }>('SELECT count(*)::int AS existing FROM alarm_record');
      const missing = LARGE_ALARMS - existing;
      // In slices, so that no single statement holds a million rows in memory.
      for (let start = 0; start < missing; start += 200_000) {
        const size = Math.min(200_000, missing - start);
        await db.exec(`
          INSERT INTO alarm_record (code, device_code, organization_code, tenant_code, alarm_type, level, state, title, content, triggered_at, source, created_at)
          SELECT 'BA' || lpad((${start} + i)::text, 10, '0'), d.code, d.organization_code, d.tenant_code,
                 (ARRAY['threshold','offline','fault','battery'])[1 + i % 4], 1 + i % 4,
                 (ARRAY['pending','processing','resolved','recovered','ignored'])[1 + i % 5], '压测告警', '压测生成的告警记录',
                 now() - (i % 129600) * interval '1 minute', 'device', now() - (i % 129600) * interval '1 minute'
            FROM generate_series(1, ${size}) AS i
            JOIN device d ON d.id = 1 + (i * 7919) % ${LARGE_DEVICES}`);
        log(`  告警 ${Math.min(missing, start + size)} / ${missing}`);
      }
    }
    await db.exec('ANALYZE');
  } finally {
    await db.close();
  }
  writeFileSync(READY_MARK, new Date().toISOString());
}

interface LoadResult {
  requestsPerSecond: number;
  p99: number;
  errors: number;
}

async function load(url: string, body: unknown, token: string): Promise<LoadResult> {
  const result = await autocannon({
    url,
    method: 'POST',
    connections: 50,
    duration: 10,
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
  });
  return { requestsPerSecond: Math.round(result.requests.average), p99: result.latency.p99, errors: result.errors + result.timeouts + result.non2xx };
}

/** Server rows: requests per second and p99 at 50 connections, resident memory. */
export async function measureServer(log: (line: string) => void): Promise<BenchRow[]> {
  await prepareLargeWorld(log);
  const server = await startServer(['--data-dir', LARGE_DIR, '--port', '0', '--host', '127.0.0.1']);
  try {
    const login = await callApi<{ accessToken: string }>(server.url, '/auth/web/_login', { param: { loginName: 'tadmin', password: 'Demo@2026' } });
    if (login.code !== '200') throw new Error(`login failed: ${login.message}`);
    const token = login.data.accessToken;
    const devicePage = {
      pageParam: { pageNumber: 200, pageSize: 20 },
      param: { onlineState: 'online' },
      sortParamList: [{ field: 'lastSeenTime', order: 'desc' }],
    };
    const cases: Array<{ name: string; path: string; body: unknown }> = [
      { name: 'device/_page（在线、按最近上报排序、第 200 页）', path: '/device/_page', body: devicePage },
      { name: 'auth/web/_init', path: '/auth/web/_init', body: { param: {} } },
    ];
    const rows: BenchRow[] = [];
    for (const item of cases) {
      const probe = await callApi(server.url, item.path, item.body, token);
      if (probe.code !== '200') {
        rows.push({ group: '服务端', name: item.name, value: NaN, unit: 'ms p99', budget: '≤ 50 ms', withinBudget: false, note: `接口未就绪：${probe.code} ${probe.message}` });
        continue;
      }
      const result = await load(`${server.url}/api${item.path}`, item.body, token);
      // Requests autocannon left in flight are still being answered (a deep device page each takes
      // ~100 ms): one more of the same kind queues behind them, so the next case starts on an idle
      // server instead of waiting behind seconds of the previous case's work.
      await callApi(server.url, item.path, item.body, token);
      rows.push({
        group: '服务端',
        name: `${item.name}，50 连接`,
        value: result.p99,
        unit: 'ms p99',
        budget: '≤ 50 ms',
        withinBudget: result.p99 <= 50 && result.errors === 0,
        note: `${result.requestsPerSecond} 次/秒${result.errors ? `，${result.errors} 个错误` : ''}`,
      });
    }
    rows.push({ group: '服务端', name: '常驻内存（压测后）', value: residentMiB(server.process.pid ?? 0), unit: 'MiB', budget: '', withinBudget: null });
    return rows;
  } finally {
    await server.stop();
  }
}
