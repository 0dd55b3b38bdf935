import type { Row } from '../db/bulk';
import { businessDayStamp, businessMinute, wallClockOf } from '../domain/businessTime';
import { ORGANIZATION_TYPE } from '../domain/organizations';
import { NOTIFICATION_TAB, notificationContent, type NotificationTab } from '../domain/notifications';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS } from './clock';
import { drawnInt, filled, readFixture } from './fixtures/fixture';

/** Days of notifications the demo world starts with. */
export const NOTIFICATION_DAYS = 60;
export const DAILY_PER_USER = 12;
/** Platform-wide system notices; each user has received most of them (about 8). */
export const SYSTEM_NOTICES = 10;
const SYSTEM_RECEIVED_SHARE = 0.8;
const UNREAD_SHARE = 0.5;

/**
 * The daily item of `tadmin` whose body arrives with a script and an image handler: stored
 * sanitised like every body, so the browser test can show that nothing in it runs.
 */
export const HOSTILE_NOTIFICATION = {
  loginName: 'tadmin',
  title: '第三方平台同步：灵隐加压泵站巡检报告',
  bodyHtml:
    '<p>第三方巡检平台同步的报告：<strong>灵隐加压泵站</strong>本周巡检 6 次，发现隐患 1 处（2 号泵轴承异响），已派单处理。</p>' +
    '<script>window.__xss=1</script>' +
    '<img src=x onerror="window.__xss=1">' +
    '<p><a href="javascript:window.__xss=1">查看原始报告</a> · <a href="https://inspect.example.com/reports/20260318" target="_blank">在巡检平台查看</a></p>',
} as const;

export interface NotifiedUser {
  id: number;
  loginName: string;
  organizationCode: string;
}

interface Context {
  random: Random;
  /** The user's organisation (project, area, department) or tenant. */
  place: string;
  /** When the notification came. */
  at: Date;
  /** The business zone its dates are written in. */
  timeZone: string;
}

type Template = (context: Context) => { title: string; bodyHtml: string };

const monthDay = (at: Date, timeZone: string) => `${wallClockOf(at, timeZone).month}月${wallClockOf(at, timeZone).day}日`;
const clock = (at: Date, timeZone: string) => businessMinute(at, timeZone).slice(11);
const compactDate = (at: Date, timeZone: string) => businessDayStamp(at, timeZone);

function deviceCode(random: Random): string {
  const letters = 'ABCDEFGHJKLMNPQRSTUVWXYZ';
  return `${letters[random.int(0, letters.length - 1)]}${letters[random.int(0, letters.length - 1)]}${String(random.int(0, 9_999_999_999)).padStart(10, '0')}`;
}

function iccid(random: Random): string {
  return `898604${String(random.int(0, 9_999_999)).padStart(7, '0')}${String(random.int(0, 9_999_999)).padStart(7, '0')}`;
}

const times = <T>(count: number, make: (index: number) => T): T[] => Array.from({ length: count }, (_, index) => make(index));

/**
 * notifications.json: the items that are text with a few drawn parts: `{place}` the reader's
 * place, `{monthDay}` the day it came, `{int:min:max}` a number drawn as it is written (title
 * first).
 */
const TEXTS = readFixture<Record<'TENANT_DAILY' | 'PLATFORM_DAILY' | 'SYSTEM_NOTICES', ReadonlyArray<{ title: string; bodyHtml: string }>>>('notifications');

const written =
  (text: { title: string; bodyHtml: string }): Template =>
  ({ random, place, at, timeZone }) => {
    const fill = (value: string) => filled(value, { place: () => place, monthDay: () => monthDay(at, timeZone), int: drawnInt(random) });
    const title = fill(text.title);
    return { title, bodyHtml: fill(text.bodyHtml) };
  };

/** The daily-read items of tenant staff: reports about their own devices, cards and work. */
const TENANT_DAILY: readonly Template[] = [
  ({ random, place, at, timeZone }) => {
    const count = random.int(2, 5);
    const rows = times(count, () => `<li>设备 <strong>${deviceCode(random)}</strong> 最后上报 ${clock(new Date(at.getTime() - random.int(1, 9) * HOUR_MS), timeZone)}</li>`);
    return {
      title: `设备离线报告：${place}有 ${count} 台设备离线`,
      bodyHtml: `<p>以下设备已超过 <strong>30 分钟</strong>未上报数据：</p><ul>${rows.join('')}</ul><p>请安排运维人员现场排查供电与网络情况。</p>`,
    };
  },
  ({ random, place, at, timeZone }) => {
    const [low, high, offline] = [random.int(0, 12), random.int(0, 8), random.int(0, 6)];
    const total = low + high + offline;
    return {
      title: `告警日报（${monthDay(at, timeZone)}）`,
      bodyHtml:
        `<h4>${place}告警概况</h4><p>当日新增告警 <strong>${total}</strong> 条，已处理 ${random.int(0, total)} 条。</p>` +
        `<ul><li>水压过低：${low} 条</li><li>温度超限：${high} 条</li><li>设备离线：${offline} 条</li></ul>`,
    };
  },
  ({ random, at, timeZone }) => {
    const received = random.int(8, 40);
    const done = random.int(Math.floor(received / 2), received);
    return {
      title: `工单周报：本周完成维修工单 ${done} 单`,
      bodyHtml:
        `<p>本周共受理维修工单 ${received} 单，完成 <strong>${done}</strong> 单，平均响应时长 ${random.int(1, 6)} 小时。</p>` +
        `<ol><li>超时未处理：${received - done} 单</li><li>客户回访满意率：${random.int(88, 100)}%</li></ol>` +
        `<p>统计截至 ${monthDay(at, timeZone)}，详情见<a href="https://help.example.com/work-orders/weekly">工单周报说明</a>。</p>`,
    };
  },
  ({ random, at, timeZone }) => {
    const count = random.int(3, 20);
    const expiry = new Date(at.getTime() + 30 * DAY_MS);
    return {
      title: `物联网卡到期提醒：${count} 张卡将于 30 天内到期`,
      bodyHtml:
        `<p>以下物联网卡将在 <strong>${monthDay(expiry, timeZone)}</strong> 前到期，请及时续费，避免设备断网：</p>` +
        `<ul>${times(Math.min(count, 3), () => `<li>ICCID ${iccid(random)}</li>`).join('')}</ul>` +
        (count > 3 ? `<p>等共 ${count} 张，完整清单见“续费管理”。</p>` : ''),
    };
  },
  ({ random, place }) => {
    const planned = random.int(10, 40);
    const done = random.int(Math.floor(planned / 2), planned);
    return {
      title: `巡检任务汇总：${place}`,
      bodyHtml: `<p>${place}本月巡检计划 ${planned} 项，已完成 <strong>${done}</strong> 项，发现隐患 ${random.int(0, 5)} 处。</p><blockquote>未完成的巡检任务将自动顺延至下周。</blockquote>`,
    };
  },
  ({ random }) => {
    const count = random.int(1, 6);
    return {
      title: `低电量提醒：${count} 台设备电量低于 20%`,
      bodyHtml: `<p>以下设备电池电量偏低，建议一周内更换电池：</p><ul>${times(count, () => `<li>${deviceCode(random)}：剩余 ${random.int(5, 19)}%</li>`).join('')}</ul>`,
    };
  },
  ({ random, place, at, timeZone }) => {
    const success = random.int(20, 200);
    const failed = random.int(0, 6);
    return {
      title: `固件升级任务完成：${place}`,
      bodyHtml:
        `<p>升级任务 <strong>UT${compactDate(at, timeZone)}${String(random.int(1, 99)).padStart(2, '0')}</strong> 已完成：成功 ${success} 台，失败 ${failed} 台。</p>` +
        (failed > 0 ? '<p>失败设备将在下次上线时自动重试。</p>' : '<p>全部设备已升级到目标版本。</p>'),
    };
  },
  ({ random }) => ({
    title: '设备健康度周报',
    bodyHtml: `<p>本周设备健康度平均 <strong>${random.int(78, 97)}</strong> 分，较上周${random.next() < 0.5 ? '上升' : '下降'} ${random.int(1, 5)} 分。</p><ul><li>健康：${random.int(60, 90)}%</li><li>亚健康：${random.int(5, 25)}%</li><li>故障：${random.int(1, 8)}%</li></ul>`,
  }),
  ({ random }) => {
    const percent = random.int(80, 98);
    return {
      title: `流量使用提醒：${random.int(2, 12)} 张卡本月流量已用 ${percent}%`,
      bodyHtml: `<p>本月流量池已使用 <strong>${percent}%</strong>，预计 ${random.int(2, 9)} 天后用尽。</p><p>可在“物联网卡 › 流量套餐”中追加流量包。</p>`,
    };
  },
  ...TEXTS.TENANT_DAILY.map(written),
];

/** The daily-read items of platform staff. */
const PLATFORM_DAILY: readonly Template[] = TEXTS.PLATFORM_DAILY.map(written);

/** Platform-wide system notices (one row each, received by most users). */
const SYSTEM_TEMPLATES: readonly Template[] = [
  ({ random }) => {
    const version = `V2.${random.int(3, 9)}.${random.int(0, 9)}`;
    return {
      title: `网关固件 ${version} 发布说明`,
      bodyHtml:
        `<h3>新增</h3><ul><li>支持 4G Cat.1 模组自动切换</li><li>断网期间数据本地缓存 72 小时</li></ul>` +
        `<h3>修复</h3><ul><li>修复低温环境下偶发重启的问题</li></ul><p>详见<a href="https://help.example.com/firmware/${version.toLowerCase()}">发布说明</a>。</p>`,
    };
  },
  ...TEXTS.SYSTEM_NOTICES.map(written),
];

const PLACES = new Map(flattenOrganizations().map((org) => [org.code, org]));

/** Where a user works, as a notification names it: their project or area, else their tenant. */
function placeOf(organizationCode: string): string {
  return PLACES.get(organizationCode)?.name ?? '平台';
}

function isPlatformUser(organizationCode: string): boolean {
  return PLACES.get(organizationCode)?.type === ORGANIZATION_TYPE.platform;
}

export interface NotificationTables {
  notifications: Row[];
  recipients: Row[];
}

/**
 * The notifications of the last NOTIFICATION_DAYS days before `today`: for every user about 12
 * daily-read items of their own and about 8 of the platform-wide system notices, about half
 * unread. Every body goes through notificationContent (the sanitiser), as any saved one does.
 */
export function notificationTables(random: Random, users: readonly NotifiedUser[], today: Date, timeZone: string): NotificationTables {
  const notifications: Row[] = [];
  const recipients: Row[] = [];
  // Whole hours, so that two builds of the same day agree (the seed is deterministic).
  const latest = Math.floor(today.getTime() / HOUR_MS) * HOUR_MS - HOUR_MS;
  const randomTime = () => new Date(latest - random.int(0, NOTIFICATION_DAYS * DAY_MS - 2 * HOUR_MS));
  const add = (tabType: NotificationTab, title: string, bodyHtml: string, at: Date): number => {
    const id = notifications.length + 1;
    notifications.push({ id, tab_type: tabType, ...notificationContent(title, bodyHtml), created_at: at.toISOString() });
    return id;
  };
  const receive = (notificationId: number, userId: number, at: Date, unread: boolean) => {
    recipients.push({ notification_id: notificationId, user_id: userId, read_at: unread ? null : new Date(Math.min(at.getTime() + random.int(1, 48) * HOUR_MS, latest)).toISOString() });
  };

  const notices = SYSTEM_TEMPLATES.slice(0, SYSTEM_NOTICES).map((template) => {
    const at = randomTime();
    const { title, bodyHtml } = template({ random, place: '', at, timeZone });
    return { id: add(NOTIFICATION_TAB.system, title, bodyHtml, at), at };
  });

  for (const user of users) {
    const templates = isPlatformUser(user.organizationCode) ? PLATFORM_DAILY : TENANT_DAILY;
    const place = placeOf(user.organizationCode);
    for (let n = 0; n < DAILY_PER_USER; n += 1) {
      const at = randomTime();
      const { title, bodyHtml } = random.pick(templates)({ random, place, at, timeZone });
      receive(add(NOTIFICATION_TAB.daily, title, bodyHtml, at), user.id, at, random.next() < UNREAD_SHARE);
    }
    if (user.loginName === HOSTILE_NOTIFICATION.loginName) {
      const at = new Date(latest);
      receive(add(NOTIFICATION_TAB.daily, HOSTILE_NOTIFICATION.title, HOSTILE_NOTIFICATION.bodyHtml, at), user.id, at, true);
    }
    for (const notice of notices) {
      if (random.next() < SYSTEM_RECEIVED_SHARE) receive(notice.id, user.id, notice.at, random.next() < UNREAD_SHARE);
    }
  }
  return { notifications, recipients };
}
