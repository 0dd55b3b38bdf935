// The telemetry history partitioned by month (issue 22, migration 108): the server creates the
// months ahead, a reading of a month without its partition waits in the default partition and moves
// into its month once that is created, and the retention (TELEMETRY_RETENTION_DAYS) drops whole
// months older than it, leaving the recent ones and the queries over them as they were.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { configFromEnv } from '../../server/config';
import { maintainTelemetryPartitions, MONTHS_AHEAD, telemetryPartitions } from '../../server/ingest/telemetryPartitions';
import { catalogue, startServer, type TestServer } from './harness';

let server: TestServer;
let device: { id: number; code: string };

beforeAll(async () => {
  server = await startServer();
  [device] = await server.db.query<{ id: number; code: string }>(
    "SELECT d.id, d.code FROM device d WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND EXISTS (SELECT 1 FROM device_telemetry t WHERE t.device_id = d.id) ORDER BY d.id LIMIT 1",
  );
});
afterAll(() => server.close());

const DAY = 86_400_000;
const monthName = (at: Date) => `device_telemetry_p${at.getUTCFullYear()}${String(at.getUTCMonth() + 1).padStart(2, '0')}`;
const monthFrom = (at: Date, offset: number) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth() + offset, 15));
const names = async () => (await telemetryPartitions(server.db)).map((partition) => partition.name);
const insert = (at: Date, level: number) =>
  server.db.query('INSERT INTO device_telemetry (device_id, reported_at, metrics, battery_level) VALUES ($1, $2, $3, $4)', [device.id, at, JSON.stringify({ level }), 50]);
const rowsIn = async (table: string) => {
  if (!/^device_telemetry(_[a-z0-9]+)?$/.test(table)) throw new Error(table);
  return (await server.db.query<{ n: number }>(`SELECT count(*)::int AS n FROM ${table} WHERE device_id = $1`, [device.id]))[0].n;
};

describe('telemetry partitions', () => {
  it('is partitioned by month, the months around now created, and the seeded history in them', async () => {
    const now = server.now();
    const [{ kind }] = await server.db.query<{ kind: string }>("SELECT c.relkind::text AS kind FROM pg_class c WHERE c.relname = 'device_telemetry'");
    expect(kind).toBe('p');
    const present = await names();
    for (let offset = 0; offset <= MONTHS_AHEAD; offset += 1) expect(present).toContain(monthName(monthFrom(now, offset)));
    expect(present.at(-1)).toBe('device_telemetry_default');
    expect(await rowsIn('device_telemetry_default')).toBe(0);
    expect(await rowsIn('device_telemetry')).toBeGreaterThan(0);
    // The device's history as 设备详情 lists it, through the partitioned table.
    const tadmin = await server.login('tadmin');
    const page = await server.post(catalogue['device.data.page'].path, { pageParam: { pageNumber: 1, pageSize: 10 }, param: { code: device.code }, sortParamList: [] }, { token: tadmin });
    expect(page.body.code, page.body.message).toBe('200');
    expect((page.body.data as { total: number }).total).toBe(await rowsIn('device_telemetry'));
  });

  it('creates the months ahead, once, and moves the readings that waited in the default partition into their month', async () => {
    const now = server.now();
    const later = new Date(now.getTime() + 400 * DAY);
    // A month nobody created: the reading waits in the default partition, and is read as any other.
    await insert(later, 7);
    expect(await rowsIn('device_telemetry_default')).toBe(1);
    expect(await names()).not.toContain(monthName(later));
    const changes = await maintainTelemetryPartitions(server.db, now, 0);
    expect(changes.created).toContain(monthName(later));
    expect(changes.dropped).toEqual([]);
    expect(await rowsIn('device_telemetry_default')).toBe(0);
    expect(await rowsIn(monthName(later))).toBe(1);
    // Months ahead of a later clock: created ahead of time, and nothing twice.
    const ahead = new Date(now.getTime() + 150 * DAY);
    const second = await maintainTelemetryPartitions(server.db, ahead, 0);
    for (let offset = 0; offset <= MONTHS_AHEAD; offset += 1) expect(await names()).toContain(monthName(monthFrom(ahead, offset)));
    expect((await maintainTelemetryPartitions(server.db, ahead, 0)).created).toEqual([]);
    expect(second.created.every((name) => /^device_telemetry_p\d{6}$/.test(name))).toBe(true);
  });

  it('drops whole months older than the retention, keeping the recent ones', async () => {
    const now = server.now();
    const old = new Date(now.getTime() - 500 * DAY);
    const edge = new Date(now.getTime() - 300 * DAY);
    await insert(old, 1);
    await insert(edge, 2);
    // Kept everything (0): their months are created and the rows moved there.
    await maintainTelemetryPartitions(server.db, now, 0);
    expect(await names()).toEqual(expect.arrayContaining([monthName(old), monthName(edge)]));
    const recent = await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = $1 AND reported_at > $2', [device.id, new Date(now.getTime() - 30 * DAY)]);
    // A year: the month of 500 days ago goes (a DROP of its table, not a DELETE), 300 days ago stays.
    const changes = await maintainTelemetryPartitions(server.db, now, 365);
    expect(changes.dropped).toContain(monthName(old));
    expect(changes.dropped).not.toContain(monthName(edge));
    const present = await names();
    expect(present).not.toContain(monthName(old));
    expect(present).toContain(monthName(edge));
    const left = await server.db.query<{ reported_at: Date }>('SELECT reported_at FROM device_telemetry WHERE device_id = $1 AND reported_at < $2', [device.id, new Date(now.getTime() - 200 * DAY)]);
    expect(left.map((row) => new Date(row.reported_at).getTime())).toEqual([edge.getTime()]);
    expect(await server.db.query<{ n: number }>('SELECT count(*)::int AS n FROM device_telemetry WHERE device_id = $1 AND reported_at > $2', [device.id, new Date(now.getTime() - 30 * DAY)])).toEqual(recent);
    // A reading still lands, in its month.
    await insert(new Date(now.getTime() - 1000), 3);
    expect(await rowsIn(monthName(now))).toBeGreaterThan(0);
  });

  it('TELEMETRY_RETENTION_DAYS: 365 by default, 0 keeps everything, less than two months refused', () => {
    expect(configFromEnv({}).telemetryRetentionDays).toBe(365);
    expect(configFromEnv({ TELEMETRY_RETENTION_DAYS: '0' }).telemetryRetentionDays).toBe(0);
    expect(configFromEnv({ TELEMETRY_RETENTION_DAYS: '90' }).telemetryRetentionDays).toBe(90);
    expect(() => configFromEnv({ TELEMETRY_RETENTION_DAYS: '30' })).toThrow('TELEMETRY_RETENTION_DAYS must be 0 (keep all) or at least 62 days, got "30"');
  });
});
