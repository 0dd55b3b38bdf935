import { describe, expect, it } from 'vitest';
import type { OperationContext } from '../../server/core/context';
import { between, column, contains, derived, equals, givenRange, listing, textColumn, timeColumn } from '../../server/core/listing';
import { enumOf, objectOf, positiveInteger, text, timeRange } from '../../server/core/params';

// server/core/listing.ts (issue 32): one declaration gives the param schema, the WHERE with
// numbered parameters, the sort whitelist and the record mapping.

const LIST = listing({
  from: 'usage_message m LEFT JOIN app_user u ON u.id = m.user_id',
  filters: {
    userId: equals('m.user_id', positiveInteger),
    loginName: contains(['u.login_name', 'u.user_name'], text(64)),
    usageUrl: contains('m.usage_url', text(512)),
    platform: equals('m.platform', enumOf(['web', 'app', 'mini'])),
    timeRange: between('m.active_time'),
    createTime: between('m.created_at', givenRange),
  },
  columns: {
    id: column<number>('m.id'),
    loginName: textColumn('u.login_name'),
    activeTime: timeColumn('m.active_time'),
    pendingSeconds: column('m.pending_time', (ms: number) => Math.round(ms / 1000)),
  },
  sorts: ['activeTime', 'pendingSeconds'],
  fallback: 'm.active_time DESC, m.id DESC',
});

type Param = Parameters<typeof LIST.where>[0]['param'];
const contextOf = (param: Param) => ({ param, config: { timeZone: 'Asia/Shanghai' } }) as unknown as OperationContext<Param>;

describe('a list declared once', () => {
  it('its param schema is the filters’ schemas, each optional, as objectOf writes it', () => {
    expect(JSON.parse(JSON.stringify(LIST.paramSchema))).toEqual(
      JSON.parse(JSON.stringify(objectOf({ userId: positiveInteger, loginName: text(64), usageUrl: text(512), platform: enumOf(['web', 'app', 'mini']), timeRange, createTime: timeRange }))),
    );
  });

  it('numbers the parameters of the filters given, in the declaration’s order, and leaves out the rest', async () => {
    const where = await LIST.where(contextOf({ loginName: '50%_', platform: 'app', usageUrl: '', userId: undefined, timeRange: ['2026-12-02 10:00:00', '2026-12-01 10:00:00'] }));
    expect(where.sql).toBe('(u.login_name ILIKE $1 OR u.user_name ILIKE $1) AND m.platform = $2 AND m.active_time >= $3 AND m.active_time <= $4');
    expect(where.params.slice(0, 2)).toEqual(['%50\\%\\_%', 'app']);
    // Reversed bounds swapped (between's default), read on the business zone's clock.
    expect(where.params.slice(2).map((time) => (time as Date).toISOString())).toEqual(['2026-12-01T02:00:00.000Z', '2026-12-02T02:00:00.000Z']);
    expect((await LIST.where(contextOf({}))).sql).toBe('TRUE');
  });

  it('a range read as given keeps its order; a time that is none is "400" naming the filter', async () => {
    const where = await LIST.where(contextOf({ createTime: ['2026-12-02', '2026-12-01'] }));
    expect(where.params.map((time) => (time as Date).toISOString())).toEqual(['2026-12-01T16:00:00.000Z', '2026-11-30T16:00:00.000Z']);
    await expect(LIST.where(contextOf({ createTime: ['2026-02-31 25:00', '2026-12-01'] }))).rejects.toMatchObject({ message: expect.stringContaining('createTime') });
  });

  it('selects each column under its field’s name, sorts by the named columns and maps a row to its record', () => {
    expect(LIST.listing.columns).toBe('m.id AS "id", u.login_name AS "loginName", m.active_time AS "activeTime", m.pending_time AS "pendingSeconds"');
    expect(LIST.listing.sorts).toEqual({ activeTime: 'm.active_time', pendingSeconds: 'm.pending_time' });
    const record = LIST.listing.record({ id: 7, loginName: null, activeTime: new Date('2026-12-02T00:00:00Z'), pendingSeconds: 2600 }, contextOf({}));
    expect(record).toEqual({ id: 7, loginName: '', activeTime: '2026-12-02T00:00:00.000Z', pendingSeconds: 3 });
  });

  it('a derived column selects nothing, stands where it is declared and reads the row as the driver gave it and the request', () => {
    const DUE = listing({
      from: 'card_renew r',
      filters: {},
      columns: {
        id: column<number>('r.id'),
        daysLeft: derived((row, context) => Math.ceil(((row.expireTime as Date).getTime() - context.now.getTime()) / 86_400_000)),
        expireTime: timeColumn('r.expires_at'),
      },
      sorts: ['expireTime'],
      fallback: 'r.id',
    });
    expect(DUE.listing.columns).toBe('r.id AS "id", r.expires_at AS "expireTime"');
    const context = { param: {}, now: new Date('2026-12-01T00:00:00Z') } as unknown as OperationContext<unknown>;
    const record = DUE.listing.record({ id: 3, expireTime: new Date('2026-12-04T12:00:00Z') }, context);
    expect(Object.keys(record)).toEqual(['id', 'daysLeft', 'expireTime']);
    expect(record).toEqual({ id: 3, daysLeft: 4, expireTime: '2026-12-04T12:00:00.000Z' });
    expect(() => listing({ from: 'card_renew r', filters: {}, columns: { daysLeft: derived(() => 0) }, sorts: ['daysLeft'], fallback: 'r.id' })).toThrow('列 daysLeft 没有 SQL，不能排序');
  });
});
