import type { Row } from '../db/bulk';
import { businessDayStamp, businessMinute, wallClockOf } from '../domain/businessTime';
import { ORGANIZATION_TYPE } from '../domain/organizations';
import { NOTIFICATION_TAB, notificationContent, type NotificationTab } from '../domain/notifications';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS } from './clock';

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
  ({ random, place }) => ({
    title: `施工验收提醒：${place}`,
    bodyHtml: `<p>${place}有 ${random.int(1, 4)} 个施工单已完工待验收，请在 <em>3 个工作日</em>内完成验收。</p>`,
  }),
];

/** The daily-read items of platform staff. */
const PLATFORM_DAILY: readonly Template[] = [
  ({ random, at, timeZone }) => ({
    title: `平台运营日报（${monthDay(at, timeZone)}）`,
    bodyHtml: `<h4>运营概况</h4><ul><li>活跃租户：${random.int(18, 40)} 家</li><li>在线设备：${random.int(12_000, 30_000)} 台</li><li>新增工单：${random.int(40, 180)} 单</li></ul>`,
  }),
  ({ random }) => ({
    title: `租户入驻申请：${random.int(1, 5)} 家待审核`,
    bodyHtml: '<p>有新的租户入驻申请待审核，请在“租户配置”中处理。</p>',
  }),
  ({ random, at, timeZone }) => ({
    title: `卡订单同步结果（${monthDay(at, timeZone)}）`,
    bodyHtml: `<p>运营商订单同步完成：新增 ${random.int(0, 30)} 单，更新 ${random.int(0, 60)} 单，失败 ${random.int(0, 3)} 单。</p>`,
  }),
  ({ random }) => ({
    title: '短信通道用量提醒',
    bodyHtml: `<p>本月短信发送量已达套餐的 <strong>${random.int(70, 95)}%</strong>，请关注余量。</p>`,
  }),
];

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
  ({ at, timeZone }) => ({
    title: `系统维护通知：${monthDay(at, timeZone)}凌晨 2:00–4:00`,
    bodyHtml: '<p>为提升服务稳定性，平台将于维护窗口内升级数据库，期间控制台与开放接口<strong>可能短暂不可用</strong>，设备数据不会丢失。</p>',
  }),
  () => ({
    title: '控制台新功能上线：设备健康度看板',
    bodyHtml: '<p>“设备健康度”看板已上线，可按项目查看健康分布、故障趋势与待处理隐患。</p><p>入口：物联网 › 设备健康。</p>',
  }),
  () => ({
    title: '关于物联网卡实名认证的通知',
    bodyHtml: '<p>根据运营商要求，未完成实名认证的物联网卡将被限制使用，请在卡管理中尽快补充使用单位信息。</p>',
  }),
  () => ({
    title: '安全提示：请定期修改登录密码',
    bodyHtml: '<p>为保障账号安全，建议每 90 天修改一次密码，并为账号绑定手机号与邮箱。</p><p>密码须为 8–16 位，包含数字、字母、符号中至少 2 种。</p>',
  }),
  () => ({
    title: '开放平台接口 v2 升级公告',
    bodyHtml: '<p>开放平台接口 v2 已发布，v1 接口将于 90 天后下线。</p><ul><li>统一使用租户访问密钥鉴权</li><li>分页参数统一为 pageNumber / pageSize</li></ul>',
  }),
  ({ random }) => ({
    title: '商城季度促销：传感器与网关限时优惠',
    bodyHtml: `<p>商城精选传感器、网关与物联网卡套餐限时 <strong>${random.int(7, 9)} 折</strong>，活动期间下单即享包邮。</p>`,
  }),
  () => ({
    title: '短信与语音通道切换通知',
    bodyHtml: '<p>平台短信与语音验证码通道已切换至新服务商，如收不到验证码请使用“收不到验证码”获取语音验证码。</p>',
  }),
  () => ({
    title: '隐私政策更新说明',
    bodyHtml: '<p>我们更新了《隐私政策》，补充了设备位置数据的保存期限说明。继续使用即表示您同意更新后的政策。</p>',
  }),
  ({ random }) => ({
    title: `运维 App 2.${random.int(4, 9)}.0 发布`,
    bodyHtml: '<p>新版运维 App 支持离线巡检、工单拍照水印与扫码绑定设备，请在应用商店更新。</p>',
  }),
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
