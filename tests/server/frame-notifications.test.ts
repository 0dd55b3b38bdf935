import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { NOTIFICATION_TAB, saveNotification, type NotificationItem } from '../../server/domain/notifications';
import { HOSTILE_NOTIFICATION } from '../../server/seed/notifications';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let tadmin: string;
let badmin: string;
beforeAll(async () => {
  server = await startServer();
  [tadmin, badmin] = await Promise.all([server.login('tadmin'), server.login('badmin')]);
});
afterAll(() => server.close());

interface Counts {
  dailyCount: number;
  systemCount: number;
}
interface Page {
  records: NotificationItem[];
  total: number;
  pageNumber: number;
  pageSize: number;
}

const counts = async (token: string) => (await server.call<Counts>('notification.count', {}, { token })).data!;
const latest = async (token: string, tabType: number, pageSize?: number) =>
  (await server.call<NotificationItem[]>('notification.list', pageSize === undefined ? { tabType } : { tabType, pageSize }, { token })).data!;
const userId = async (loginName: string) => (await server.db.query<{ id: number }>('SELECT id FROM app_user WHERE login_name = $1', [loginName]))[0].id;

/** Posts a page operation as the console does. */
async function page(name: string, token: string, param: object, pageParam = { pageNumber: 1, pageSize: 10 }, sortParamList: object[] = []) {
  const { body } = await server.post(
    name === 'daily' ? '/user/message/daily/_page' : '/user/message/system/_page',
    { pageParam, param, sortParamList },
    { token },
  );
  return body as { code: string; message: string; data: Page | null };
}

describe('the seeded notifications', () => {
  it('give every user about 12 daily-read and 8 system notifications over 60 days, about half unread', async () => {
    const rows = await server.db.query<{ user_id: number; tab_type: number; total: number; unread: number; oldest: Date }>(
      `SELECT r.user_id, n.tab_type, count(*)::int AS total, count(*) FILTER (WHERE r.read_at IS NULL)::int AS unread, min(n.created_at) AS oldest
         FROM notification_recipient r JOIN notification n ON n.id = r.notification_id GROUP BY 1, 2`,
    );
    const [{ users }] = await server.db.query<{ users: number }>('SELECT count(*)::int AS users FROM app_user');
    expect(rows.filter((row) => row.tab_type === 1)).toHaveLength(users);
    let total = 0;
    let unread = 0;
    for (const row of rows) {
      if (row.tab_type === 1) expect(row.total).toBeGreaterThanOrEqual(12);
      if (row.tab_type === 2) expect(row.total).toBeGreaterThanOrEqual(3);
      expect(Date.now() - row.oldest.getTime()).toBeLessThan(61 * 86_400_000);
      total += row.total;
      unread += row.unread;
    }
    expect(unread / total).toBeGreaterThan(0.35);
    expect(unread / total).toBeLessThan(0.65);
  });

  it('store every body sanitised, the tadmin item with a script and a handler included', async () => {
    const [hostile] = await latest(tadmin, 1, 1);
    expect(hostile.notificationTitle).toBe(HOSTILE_NOTIFICATION.title);
    expect(hostile.hasRead).toBe(false);
    expect(hostile.notificationDescription).toContain('灵隐加压泵站');
    expect(hostile.notificationDescription).not.toMatch(/script|onerror|javascript:|__xss/);
    expect(hostile.notificationDescription).toContain('<a href="https://inspect.example.com/reports/20260318" target="_blank" rel="noopener noreferrer">');
    const stored = await server.db.query<{ body_html: string }>('SELECT body_html FROM notification');
    for (const { body_html } of stored) expect(body_html).not.toMatch(/<script|\son\w+=|javascript:/i);
  });
});

describe('notification.count and notification.list', () => {
  it('count the caller\'s unread notifications per tab', async () => {
    const id = await userId('tadmin');
    const [row] = await server.db.query<Counts>(
      `SELECT count(*) FILTER (WHERE n.tab_type = 1)::int AS "dailyCount", count(*) FILTER (WHERE n.tab_type = 2)::int AS "systemCount"
         FROM notification_recipient r JOIN notification n ON n.id = r.notification_id WHERE r.user_id = $1 AND r.read_at IS NULL`,
      [id],
    );
    expect(await counts(tadmin)).toEqual(row);
    expect(row.dailyCount).toBeGreaterThan(0);
  });

  it('list the newest 3 of a tab by default, in the SPEC §3 shape', async () => {
    const items = await latest(tadmin, 2);
    expect(items).toHaveLength(3);
    for (const item of items) {
      expect(Object.keys(item).sort()).toEqual(['hasRead', 'id', 'notificationDateTime', 'notificationDescription', 'notificationStatus', 'notificationTitle', 'tabType']);
      expect(item.tabType).toBe(2);
      expect(item.notificationStatus).toBe(item.hasRead ? '1' : '0');
      expect(new Date(item.notificationDateTime).toISOString()).toBe(item.notificationDateTime);
    }
    const times = items.map((item) => item.notificationDateTime);
    expect(times).toEqual([...times].sort().reverse());
    const all = await latest(tadmin, 1, 50);
    expect(all.length).toBeGreaterThan(3);
    expect(all.every((item) => item.tabType === 1)).toBe(true);
  });

  it('refuse a bad tab or size with "400"', async () => {
    for (const param of [{}, { tabType: 3 }, { tabType: '1' }, { tabType: 1, pageSize: 0 }, { tabType: 1, pageSize: 51 }, { tabType: 1, pageSize: 2.5 }, { tabType: 1, extra: true }]) {
      const reply = await server.call('notification.list', param, { token: tadmin });
      expect(reply.code, JSON.stringify(param)).toBe('400');
      expect(reply.message).toMatch(/^参数错误/);
    }
  });

  it('need a session', async () => {
    for (const name of ['notification.count', 'notification.list', 'notification.tab.readAll', 'notification.read', 'notification.detail']) {
      expect((await server.call(name, { tabType: 1, id: 1 })).code, name).toBe('301');
    }
  });
});

describe('reading notifications', () => {
  it('notification.read marks one read and the unread count moves by one, once', async () => {
    const before = await counts(badmin);
    const unread = (await latest(badmin, 1, 50)).find((item) => !item.hasRead)!;
    expect(await server.call('notification.read', { id: unread.id }, { token: badmin })).toEqual({ code: '200', message: '成功', data: null });
    expect(await counts(badmin)).toEqual({ ...before, dailyCount: before.dailyCount - 1 });
    expect((await server.call('notification.read', { id: String(unread.id) }, { token: badmin })).code).toBe('200');
    expect(await counts(badmin)).toEqual({ ...before, dailyCount: before.dailyCount - 1 });
    const detail = await server.call<NotificationItem>('notification.detail', { id: unread.id }, { token: badmin });
    expect(detail.data).toMatchObject({ id: unread.id, hasRead: true, notificationStatus: '1' });
  });

  it('refuses another user\'s notification, or none, with "404"', async () => {
    const theirs = (await latest(tadmin, 1, 1))[0];
    for (const name of ['notification.read', 'notification.detail']) {
      expect(await server.call(name, { id: theirs.id }, { token: badmin }), name).toEqual({ code: '404', message: '消息不存在', data: null });
      expect((await server.call(name, { id: 987_654_321 }, { token: badmin })).code).toBe('404');
      expect((await server.call(name, { id: '9999999999' }, { token: badmin })).code).toBe('404');
    }
    expect((await latest(tadmin, 1, 1))[0].hasRead).toBe(false);
  });

  it('refuses a malformed id with "400"', async () => {
    for (const id of [0, -1, 1.5, 'abc', '01', '', null, 2 ** 31]) {
      expect((await server.call('notification.read', { id }, { token: badmin })).code, String(id)).toBe('400');
    }
    expect((await server.call('notification.detail', {}, { token: badmin })).code).toBe('400');
  });

  it('a system notice read by one recipient stays unread for the others', async () => {
    const [shared] = await server.db.query<{ notification_id: number }>(
      `SELECT a.notification_id FROM notification_recipient a JOIN notification_recipient b ON b.notification_id = a.notification_id
        WHERE a.user_id = $1 AND b.user_id = $2 AND a.read_at IS NULL AND b.read_at IS NULL LIMIT 1`,
      [await userId('tadmin'), await userId('badmin')],
    );
    expect(shared).toBeDefined();
    const before = await counts(badmin);
    expect((await server.call('notification.read', { id: shared.notification_id }, { token: tadmin })).code).toBe('200');
    expect(await counts(badmin)).toEqual(before);
    expect((await server.call<NotificationItem>('notification.detail', { id: shared.notification_id }, { token: badmin })).data?.hasRead).toBe(false);
  });

  it('notification.tab.readAll clears one tab of the caller only', async () => {
    const mine = await counts(badmin);
    const theirs = await counts(tadmin);
    expect(mine.systemCount).toBeGreaterThan(0);
    expect(await server.call('notification.tab.readAll', { tabType: 2 }, { token: badmin })).toEqual({ code: '200', message: '成功', data: null });
    expect(await counts(badmin)).toEqual({ dailyCount: mine.dailyCount, systemCount: 0 });
    expect(await counts(tadmin)).toEqual(theirs);
    expect((await latest(badmin, 2, 50)).every((item) => item.hasRead)).toBe(true);
    // Nothing left to read is no error.
    expect((await server.call('notification.tab.readAll', { tabType: 2 }, { token: badmin })).code).toBe('200');
    for (const param of [{}, { tabType: 0 }, { tabType: 'all' }]) expect((await server.call('notification.tab.readAll', param, { token: badmin })).code).toBe('400');
  });
});

describe('the daily-read and system-message pages', () => {
  it('page one tab of the caller, newest first, with the unread filter', async () => {
    const { dailyCount } = await counts(tadmin);
    const all = await page('daily', tadmin, {});
    expect(all.code).toBe('200');
    expect(all.data!.records).toHaveLength(10);
    expect(all.data!.records.every((item) => item.tabType === 1)).toBe(true);
    const times = all.data!.records.map((item) => item.notificationDateTime);
    expect(times).toEqual([...times].sort().reverse());
    const unread = await page('daily', tadmin, { notificationStatus: '0' }, { pageNumber: 1, pageSize: 50 });
    expect(unread.data!.total).toBe(dailyCount);
    expect(unread.data!.records.every((item) => !item.hasRead)).toBe(true);
    const read = await page('daily', tadmin, { notificationStatus: '1' }, { pageNumber: 1, pageSize: 50 });
    expect(read.data!.total + unread.data!.total).toBe(all.data!.total);
    const second = await page('daily', tadmin, {}, { pageNumber: 2, pageSize: 5 });
    expect(second.data).toMatchObject({ pageNumber: 2, pageSize: 5, total: all.data!.total });
    expect(second.data!.records.map((item) => item.id)).toEqual(all.data!.records.slice(5, 10).map((item) => item.id));
    const oldestFirst = await page('daily', tadmin, {}, { pageNumber: 1, pageSize: 50 }, [{ field: 'notificationDateTime', order: 'asc' }]);
    const ascending = oldestFirst.data!.records.map((item) => item.notificationDateTime);
    expect(ascending).toEqual([...ascending].sort());
  });

  it('search titles and text by keyword, never markup', async () => {
    const found = await page('daily', tadmin, { keyword: '灵隐加压泵站' });
    expect(found.data!.records.map((item) => item.notificationTitle)).toContain(HOSTILE_NOTIFICATION.title);
    expect((await page('daily', tadmin, { keyword: 'strong' })).data!.total).toBe(0);
    // A wildcard is a literal character.
    const percent = (await page('daily', tadmin, { keyword: '%' }, { pageNumber: 1, pageSize: 50 })).data!.records;
    for (const item of percent) expect(`${item.notificationTitle}${item.notificationDescription}`).toContain('%');
    expect((await page('daily', tadmin, { keyword: '_' })).data!.total).toBe(0);
  });

  it('the system page holds tab 2 only and refuses a bad filter', async () => {
    const system = await page('system', tadmin, {});
    expect(system.data!.records.every((item) => item.tabType === 2)).toBe(true);
    for (const param of [{ notificationStatus: '2' }, { notificationStatus: 0 }, { keyword: 'x'.repeat(65) }, { tabType: 1 }]) {
      expect((await page('system', tadmin, param)).code, JSON.stringify(param)).toBe('400');
    }
  });
});

describe('saving a notification', () => {
  it('sanitises the body on save, whatever it carries', async () => {
    const recipient = await userId('tuser');
    const token = await server.login('tuser');
    const hostile = [
      '<p>正文</p><script>window.__xss=1</script>',
      '<img src=x onerror="window.__xss=1"><img src="/files/upload/2026/01/0123456789abcdef0123456789abcdef.png" onload="x">',
      '<a href="javascript:window.__xss=1">x</a><a href="https://example.com">ok</a>',
      '<iframe srcdoc="<script>1</script>"></iframe><svg onload=1><circle/></svg><style>*{}</style>',
      '<p style="color:red" class="x" id="y">样式</p>',
    ];
    const expected = [
      '<p>正文</p>',
      // sanitize-html writes a void element as `<img … />` (issue 18): the same element to a browser.
      '<img src="/files/upload/2026/01/0123456789abcdef0123456789abcdef.png" />',
      '<a>x</a><a href="https://example.com">ok</a>',
      '',
      '<p>样式</p>',
    ];
    for (const [index, bodyHtml] of hostile.entries()) {
      const id = await saveNotification(server.db, { tabType: NOTIFICATION_TAB.system, title: `测试 ${index}`, bodyHtml, recipientUserIds: [recipient], createdAt: new Date() });
      const detail = await server.call<NotificationItem>('notification.detail', { id }, { token });
      expect(detail.data?.notificationDescription).toBe(expected[index]);
      const [row] = await server.db.query<{ body_html: string }>('SELECT body_html FROM notification WHERE id = $1', [id]);
      expect(row.body_html).toBe(expected[index]);
    }
    expect((await latest(token, 2, 1))[0]).toMatchObject({ notificationTitle: '测试 4', hasRead: false });
  });
});
