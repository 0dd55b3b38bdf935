import type { JsonObject, Row } from '../db/bulk';
import { addDays, businessDay, startOfDay } from '../domain/businessTime';
import { NOTIFICATION_TAB, notificationContent, type NotificationTab } from '../domain/notifications';
import {
  ADDRESS_OF,
  CHANNEL_FIELDS,
  framedMessage,
  isRobot,
  messageTime,
  renderTemplate,
  type ChannelSecrets,
  type ChannelSettings,
  type ChannelType,
} from '../domain/notificationChannels';
import { USER_STATUS } from '../domain/users';
import { workCode } from '../domain/workOrders';
import { PLATFORM_CODE } from '../domain/organizations';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import type { UserTables } from './users';

/**
 * The demo world's notification side (issue 6): every channel type configured for each tenant
 * (some enabled, some not) and a few of the platform's own; notifications the administrators
 * maintain, drafts and published ones (a published one delivered into its recipients' bells,
 * most of them read); and two months of messages sent through the channels, per recipient sent,
 * failed with the provider's reason or for want of an address, and a few scheduled for
 * tomorrow that are still pending.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
/** Days of sending history. */
export const SEND_HISTORY_DAYS = 60;

const ORGANIZATIONS = flattenOrganizations();

interface SeedUser {
  id: number;
  loginName: string;
  userName: string;
  phone: string | null;
  mail: string | null;
  wechatOpenId: string | null;
  active: boolean;
  organizations: string[];
  roles: string[];
}

function seedUsers(tables: UserTables): SeedUser[] {
  return tables.users.map((user) => {
    const id = Number(user.id);
    return {
      id,
      loginName: String(user.login_name),
      userName: String(user.user_name),
      phone: user.phone === null ? null : String(user.phone),
      mail: user.mail === null ? null : String(user.mail),
      wechatOpenId: user.wechat_open_id === null ? null : String(user.wechat_open_id),
      active: Number(user.status) === USER_STATUS.active,
      organizations: tables.userOrganizations.filter((row) => Number(row.user_id) === id).map((row) => String(row.organization_code)),
      roles: tables.userRoles.filter((row) => Number(row.user_id) === id).map((row) => String(row.role_code)),
    };
  });
}

/** Active users under `owner` (codes extend their parent's), narrowed like the server's audiences. */
function reach(users: readonly SeedUser[], owner: string, audience: { organizations?: readonly string[]; roles?: readonly string[] }): SeedUser[] {
  // Codes extend their parent's below the tenants; the platform root holds everyone.
  const under = (code: string, roots: readonly string[]) => roots.some((root) => root === PLATFORM_CODE || code.startsWith(root));
  return users.filter(
    (user) =>
      user.active &&
      user.organizations.some((code) => under(code, [owner]) && (!audience.organizations || under(code, audience.organizations))) &&
      (!audience.roles || user.roles.some((role) => audience.roles!.includes(role))),
  );
}

const hex = (random: Random, length: number) => Array.from({ length }, () => '0123456789abcdef'[random.int(0, 15)]).join('');
const alnum = (random: Random, length: number, alphabet = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnpqrstuvwxyz23456789') =>
  Array.from({ length }, () => alphabet[random.int(0, alphabet.length - 1)]).join('');
const uuid = (random: Random) => `${hex(random, 8)}-${hex(random, 4)}-4${hex(random, 3)}-${'89ab'[random.int(0, 3)]}${hex(random, 3)}-${hex(random, 12)}`;

// ---------------------------------------------------------------------------------------------
// Channels

interface ChannelPlan {
  tenant: string | null;
  name: string;
  type: ChannelType;
  enabled: boolean;
  template: string;
  remark: string;
  settings: (random: Random) => ChannelSettings;
}

const TEMPLATES = {
  robot: '【${标题}】\n${内容}\n通知对象：${姓名}\n时间：${时间}',
  alarmRobot: '【设备告警】${标题}\n告警设备：${设备名称}\n${内容}\n通知对象：${姓名}\n告警时间：${时间}',
  feishu: '${标题}\n${内容}\n@${姓名}（${时间}）',
  mail: (company: string) => `${'${姓名}'}，您好：\n\n${'${内容}'}\n\n此邮件由${company}物联网平台于 ${'${时间}'} 自动发送，请勿直接回复。`,
  sms: '${姓名}您好，${标题}：${内容}',
  voice: '您好，${姓名}，${内容}，请尽快处理。',
  wechat: '${标题}\n${内容}\n发送时间：${时间}',
} as const;

const dingtalk = (random: Random): ChannelSettings => ({ webhook: `https://oapi.dingtalk.com/robot/send?access_token=${hex(random, 64)}` });
const feishu = (random: Random): ChannelSettings => ({ webhook: `https://open.feishu.cn/open-apis/bot/v2/hook/${uuid(random)}` });

const CHANNEL_PLANS: readonly ChannelPlan[] = [
  { tenant: 'T0001', name: '运维值班群机器人', type: 'dingtalk', enabled: true, template: TEMPLATES.robot, remark: '运维中心 7×24 值班群', settings: dingtalk },
  { tenant: 'T0001', name: '设备告警群机器人', type: 'dingtalk', enabled: true, template: TEMPLATES.alarmRobot, remark: '告警中心推送，已开启加签', settings: dingtalk },
  { tenant: 'T0001', name: '研发部飞书群', type: 'feishu', enabled: false, template: TEMPLATES.feishu, remark: '硬件组试用中', settings: feishu },
  {
    tenant: 'T0001',
    name: '企业邮箱（告警通知）',
    type: 'mail',
    enabled: true,
    template: TEMPLATES.mail('杭州云联'),
    remark: '腾讯企业邮箱，使用客户端授权码',
    settings: () => ({ smtpHost: 'smtp.exmail.qq.com', smtpPort: 465, smtpTls: true, mailAccount: 'notice@hzyunlian.com', sender: 'notice@hzyunlian.com' }),
  },
  {
    tenant: 'T0001',
    name: '阿里云短信',
    type: 'sms',
    enabled: true,
    template: TEMPLATES.sms,
    remark: '签名与模板已通过审核',
    settings: (random) => ({ provider: 'aliyun', accessKeyId: `LTAI5t${alnum(random, 18)}`, signName: '云联物联网', templateCode: `SMS_4${String(random.int(10_000_000, 99_999_999))}` }),
  },
  {
    tenant: 'T0001',
    name: '阿里云语音（紧急告警）',
    type: 'voice',
    enabled: true,
    template: TEMPLATES.voice,
    remark: '仅用于一级告警的电话通知',
    settings: (random) => ({ provider: 'aliyun', accessKeyId: `LTAI5t${alnum(random, 18)}`, templateCode: `TTS_2${String(random.int(10_000_000, 99_999_999))}` }),
  },
  {
    tenant: 'T0001',
    name: '云联物联服务号',
    type: 'wechat',
    enabled: true,
    template: TEMPLATES.wechat,
    remark: '模板消息：设备状态提醒',
    settings: (random) => ({ appId: `wx${hex(random, 16)}`, templateId: alnum(random, 43, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-') }),
  },
  { tenant: 'T0002', name: '水质监测值班群', type: 'dingtalk', enabled: true, template: TEMPLATES.robot, remark: '', settings: dingtalk },
  { tenant: 'T0002', name: '智水运维飞书群', type: 'feishu', enabled: true, template: TEMPLATES.feishu, remark: '工程部与客服部', settings: feishu },
  {
    tenant: 'T0002',
    name: '智水企业邮箱',
    type: 'mail',
    enabled: false,
    template: TEMPLATES.mail('苏州智水'),
    remark: '邮箱迁移中，暂停使用',
    settings: () => ({ smtpHost: 'smtp.qiye.aliyun.com', smtpPort: 465, smtpTls: true, mailAccount: 'service@szzhishui.cn', sender: 'service@szzhishui.cn' }),
  },
  {
    tenant: 'T0002',
    name: '腾讯云短信',
    type: 'sms',
    enabled: true,
    template: TEMPLATES.sms,
    remark: '',
    settings: (random) => ({ provider: 'tencent', accessKeyId: `AKID${alnum(random, 32)}`, signName: '智水环境', templateCode: String(random.int(1_000_000, 1_999_999)) }),
  },
  {
    tenant: 'T0002',
    name: '华为云语音通知',
    type: 'voice',
    enabled: false,
    template: TEMPLATES.voice,
    remark: '待开通外呼号码',
    settings: (random) => ({ provider: 'huawei', accessKeyId: alnum(random, 20, 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'), templateCode: hex(random, 32) }),
  },
  {
    tenant: 'T0002',
    name: '智水环境服务号',
    type: 'wechat',
    enabled: false,
    template: TEMPLATES.wechat,
    remark: '公众号认证中',
    settings: (random) => ({ appId: `wx${hex(random, 16)}`, templateId: alnum(random, 43, 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_-') }),
  },
  {
    tenant: null,
    name: '平台短信通道',
    type: 'sms',
    enabled: true,
    template: TEMPLATES.sms,
    remark: '平台通知与租户到期提醒',
    settings: (random) => ({ provider: 'aliyun', accessKeyId: `LTAI5t${alnum(random, 18)}`, signName: '云联物联网平台', templateCode: `SMS_4${String(random.int(10_000_000, 99_999_999))}` }),
  },
  {
    tenant: null,
    name: '平台通知邮箱',
    type: 'mail',
    enabled: true,
    template: TEMPLATES.mail('云联'),
    remark: '',
    settings: () => ({ smtpHost: 'smtp.exmail.qq.com', smtpPort: 465, smtpTls: true, mailAccount: 'platform@iot.example.com', sender: 'platform@iot.example.com' }),
  },
];

function secretsFor(random: Random, type: ChannelType, settings: ChannelSettings): ChannelSecrets {
  switch (type) {
    case 'dingtalk':
      return { secret: `SEC${hex(random, 64)}` };
    case 'feishu':
      return { secret: alnum(random, 22) };
    case 'mail':
      return { mailPassword: alnum(random, 16, 'abcdefghijklmnopqrstuvwxyz') };
    case 'sms':
    case 'voice':
      return { accessKeySecret: settings.provider === 'tencent' ? alnum(random, 32) : alnum(random, 30) };
    case 'wechat':
      return { appSecret: hex(random, 32) };
  }
}

interface SeedChannel {
  id: number;
  code: string;
  tenant: string | null;
  name: string;
  type: ChannelType;
  enabled: boolean;
  template: string;
  settings: ChannelSettings;
}

// ---------------------------------------------------------------------------------------------
// Maintained notifications

interface NoticeText {
  title: string;
  body: string;
  tab: NotificationTab;
}

const TENANT_NOTICES: readonly NoticeText[] = [
  {
    tab: NOTIFICATION_TAB.system,
    title: '关于春节期间运维值班安排的通知',
    body: '<p>各位同事：</p><p>春节假期（2月14日至2月22日）期间，运维中心实行 <strong>7×24 小时值班</strong>，值班表见附件。</p><ul><li>一级告警 15 分钟内响应</li><li>值班电话保持畅通</li></ul><p>特此通知。</p>',
  },
  {
    tab: NOTIFICATION_TAB.daily,
    title: '2026年第一季度设备巡检计划',
    body: '<p>第一季度巡检计划已发布，共 <strong>48</strong> 项巡检任务，覆盖各项目泵站、监测站与园区厂房。</p><p>请各巡检人员在“巡检任务”中查看本人任务并按期完成。</p>',
  },
  {
    tab: NOTIFICATION_TAB.system,
    title: '关于开展汛期设备安全检查的通知',
    body: '<p>为做好汛期防范工作，请各项目于本月底前完成以下检查：</p><ol><li>表井、阀门井排水情况</li><li>设备箱体密封与防水</li><li>备用电源与电池电量</li></ol><p>检查结果请在维保工单中上报。</p>',
  },
  {
    tab: NOTIFICATION_TAB.daily,
    title: '新版运维 App 使用培训通知',
    body: '<p>新版运维 App 将于下周三下午 14:00 在三楼会议室开展使用培训，内容包括离线巡检、拍照水印与扫码绑定设备。</p><p>请维修、巡检与实施人员准时参加。</p>',
  },
  {
    tab: NOTIFICATION_TAB.system,
    title: '关于规范维修工单处理时限的通知',
    body: '<p>自下月起，维修工单处理时限调整如下：</p><ul><li>紧急：4 小时内到场</li><li>高：24 小时内完成</li><li>普通：72 小时内完成</li></ul><p>超时工单将纳入月度考核。</p>',
  },
  {
    tab: NOTIFICATION_TAB.daily,
    title: '管网改造期间部分设备暂停上报',
    body: '<p>因管网改造施工，本周四 8:00 至 18:00 期间部分监测设备将暂停数据上报，期间产生的离线告警无需处理。</p>',
  },
  {
    tab: NOTIFICATION_TAB.daily,
    title: '物联网卡年度续费提醒',
    body: '<p>本年度共有 <strong>126</strong> 张物联网卡将于下月到期，请项目负责人在“续费管理”中确认续费清单，避免设备断网。</p>',
  },
  {
    tab: NOTIFICATION_TAB.system,
    title: '安全生产月活动通知',
    body: '<p>6 月为安全生产月，请各部门组织开展现场作业安全培训，高处作业与有限空间作业须持证上岗。</p><blockquote>安全第一，预防为主。</blockquote>',
  },
  {
    tab: NOTIFICATION_TAB.daily,
    title: '设备健康度考核办法（试行）',
    body: '<p>为提升设备在线率，现试行设备健康度考核：项目月均健康度低于 <strong>85</strong> 分的，由项目负责人提交整改说明。</p><p>详见<a href="https://help.example.com/health/assessment">考核细则</a>。</p>',
  },
  {
    tab: NOTIFICATION_TAB.daily,
    title: '本周告警处理情况通报',
    body: '<p>本周共产生告警 312 条，已处理 298 条，处理率 95.5%。水压过低类告警较上周下降 18%。</p><p>请各片区继续关注低电量设备的电池更换。</p>',
  },
  {
    tab: NOTIFICATION_TAB.system,
    title: '关于启用工单电子签名的通知',
    body: '<p>即日起，施工与勘察工单完工时须由现场负责人在 App 中电子签名确认，纸质签字单不再作为验收依据。</p>',
  },
  {
    tab: NOTIFICATION_TAB.daily,
    title: '备品备件领用流程调整',
    body: '<p>备品备件领用改为线上申请：在“物料管理”中提交领用单，经运维中心审批后到仓库领取。</p>',
  },
];

const PLATFORM_NOTICES: readonly NoticeText[] = [
  {
    tab: NOTIFICATION_TAB.system,
    title: '平台例行维护公告',
    body: '<p>平台将于本周日凌晨 1:00–3:00 进行例行维护，期间控制台可能短暂无法访问，设备数据上报不受影响。</p>',
  },
  {
    tab: NOTIFICATION_TAB.system,
    title: '消息通知渠道配置功能上线',
    body: '<p>“发送配置”现已支持钉钉、飞书、邮件、短信、语音与微信渠道，租户管理员可自行配置机器人与短信签名，并通过测试发送验证配置。</p>',
  },
  {
    tab: NOTIFICATION_TAB.daily,
    title: '租户管理员操作手册更新',
    body: '<p>《租户管理员操作手册》已更新至 v3.2，新增消息发送、维保管理与动态表单章节。可在顶部“操作手册”中查看。</p>',
  },
  {
    tab: NOTIFICATION_TAB.system,
    title: '关于短信签名实名制备案的通知',
    body: '<p>根据运营商要求，所有短信签名须完成实名制备案，未备案签名将于下月起无法发送，请尽快在服务商控制台完成备案。</p>',
  },
  {
    tab: NOTIFICATION_TAB.daily,
    title: '平台服务满意度调查',
    body: '<p>为持续改进服务，诚邀您参与平台服务满意度调查，约需 3 分钟。</p><p><a href="https://survey.example.com/iot-2026">立即参与</a></p>',
  },
  {
    tab: NOTIFICATION_TAB.system,
    title: '开放平台访问密钥轮换提醒',
    body: '<p>为保障接口安全，建议每 180 天轮换一次开放平台访问密钥。轮换后旧密钥将在 24 小时内失效。</p>',
  },
];

const TENANT_ROLES = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT'];

// ---------------------------------------------------------------------------------------------
// Sends

interface SendText {
  title: string;
  content: string;
  /** Channel types it suits. */
  types: readonly ChannelType[];
}

const SEND_TEXTS = (place: () => string, device: () => string, code: () => string): Array<() => SendText> => [
  () => ({ title: '设备离线告警', content: `${place()} ${device()} 等 3 台设备离线超过 30 分钟，请尽快排查供电与网络`, types: ['dingtalk', 'sms', 'feishu', 'wechat'] }),
  () => ({ title: '水压过低告警', content: `${place()}出口压力 0.18MPa，低于下限 0.25MPa，已持续 15 分钟`, types: ['dingtalk', 'sms', 'voice', 'feishu'] }),
  () => ({ title: '工单超时提醒', content: `维修工单 ${code()} 已超过处理时限 2 小时，请及时处理或说明原因`, types: ['sms', 'dingtalk', 'mail', 'wechat'] }),
  () => ({ title: '巡检任务提醒', content: `您有 2 项巡检任务将于今日 18:00 到期（${place()}），请按时完成`, types: ['sms', 'wechat', 'dingtalk'] }),
  () => ({ title: '物联网卡到期提醒', content: `${place()}有 12 张物联网卡将于 30 天内到期，请在续费管理中确认续费`, types: ['mail', 'dingtalk', 'sms'] }),
  () => ({ title: '值班提醒', content: '今晚 20:00 至明早 8:00 由您值班，请保持电话畅通', types: ['sms', 'voice', 'dingtalk'] }),
  () => ({ title: '设备电量低', content: `${device()} 电池电量 8%，建议一周内更换电池`, types: ['dingtalk', 'mail', 'feishu', 'sms'] }),
  () => ({ title: '一级告警电话通知', content: `${place()}发生一级告警，水质浊度超标`, types: ['voice'] }),
  () => ({ title: '月度运维报告', content: `${place()}本月设备在线率 97.6%，完成维修工单 86 单，详见附件报告`, types: ['mail', 'feishu'] }),
];

const FAIL_REASONS: Readonly<Record<ChannelType, readonly string[]>> = {
  dingtalk: ['钉钉返回 130101：发送速度太快而限流', '钉钉返回 310000：签名校验失败，请核对加签密钥'],
  feishu: ['飞书返回 9499：请求频率超限', '飞书返回 19021：签名校验失败'],
  mail: ['连接 SMTP 服务器超时', '邮件服务器返回 550：收件人邮箱不存在或已停用'],
  sms: ['服务商返回 isv.BUSINESS_LIMIT_CONTROL：触发号码天级流控', '服务商返回 isv.MOBILE_NUMBER_ILLEGAL：号码状态异常（停机）', '运营商网关超时'],
  voice: ['被叫号码无应答', '被叫号码正忙', '服务商返回 isv.OUT_OF_SERVICE：外呼业务已欠费停机'],
  wechat: ['微信返回 43004：需要接收者关注公众号', '微信返回 45047：客服消息下行条数超过上限'],
};

const deviceCodeOf = (random: Random) => `${'WMNB01'}${String(random.int(0, 999_999)).padStart(6, '0')}`;

export interface NoticeSeed {
  /** The id the first notification of this generator takes (after the frame's own). */
  firstNotificationId: number;
  /** The world's clock (the start of the current hour). */
  now: Date;
  /** The business zone: the dates in codes, message times and "tomorrow morning". */
  timeZone: string;
}

/** The rows of the notification side, table by table in insertion order. */
export function noticeTables(random: Random, userTables: UserTables, options: NoticeSeed): Array<{ table: string; rows: Row[] }> {
  const users = seedUsers(userTables);
  const { now, timeZone } = options;
  const past = (maxDays: number, minHours = 1) => new Date(now.getTime() - random.int(minHours * HOUR_MS, maxDays * DAY_MS));

  // Channels.
  const channels: SeedChannel[] = [];
  const channelRows: Row[] = CHANNEL_PLANS.map((plan, index) => {
    const id = index + 1;
    const settings = plan.settings(random);
    const secrets = secretsFor(random, plan.type, settings);
    const created = past(180, 24 * 60);
    const updated = new Date(created.getTime() + random.int(0, 40) * DAY_MS);
    const tested = random.next() < 0.7 ? new Date(Math.min(updated.getTime() + random.int(1, 72) * HOUR_MS, now.getTime() - HOUR_MS)) : null;
    const admin = plan.tenant === 'T0001' ? 'tadmin' : plan.tenant === 'T0002' ? 'badmin' : 'admin';
    channels.push({ id, code: `QD${String(id).padStart(6, '0')}`, tenant: plan.tenant, name: plan.name, type: plan.type, enabled: plan.enabled, template: plan.template, settings });
    return {
      id,
      code: `QD${String(id).padStart(6, '0')}`,
      tenant_code: plan.tenant,
      name: plan.name,
      channel_type: plan.type,
      settings: settings as unknown as JsonObject,
      secrets: secrets as unknown as JsonObject,
      template: plan.template,
      enabled: plan.enabled,
      remark: plan.remark,
      last_test_at: tested ? tested.toISOString() : null,
      last_test_by: tested ? admin : null,
      created_by: admin,
      created_at: created.toISOString(),
      updated_at: updated.toISOString(),
    };
  });
  // Every type's fields are all there (a test reads them through the operations).
  for (const channel of channels) {
    for (const name of CHANNEL_FIELDS[channel.type].settings) if (channel.settings[name] === undefined) throw new Error(`seed channel ${channel.name} lacks ${name}`);
  }

  // Maintained notifications, the published ones delivered.
  const notifications: Row[] = [];
  const recipients: Row[] = [];
  const maintained: Row[] = [];
  let notificationId = options.firstNotificationId;
  const owners: Array<{ owner: string; admins: string[]; notices: readonly NoticeText[]; count: number }> = [
    { owner: 'T0001', admins: ['tadmin'], notices: TENANT_NOTICES, count: 24 },
    { owner: 'T0002', admins: ['badmin'], notices: TENANT_NOTICES, count: 14 },
    { owner: PLATFORM_CODE, admins: ['admin', 'operator'], notices: PLATFORM_NOTICES, count: 10 },
  ];
  for (const { owner, admins, notices, count } of owners) {
    const places = ORGANIZATIONS.filter((org) => org.parentCode === owner && !org.code.includes('V'));
    for (let n = 0; n < count; n += 1) {
      const text = notices[n % notices.length];
      const id = maintained.length + 1;
      // Within the bells' two months (the frame's notifications span 60 days).
      const created = past(55, 3);
      // The newest few are still drafts; about one in five of the older ones too.
      const draft = n >= count - 3 || random.next() < 0.2;
      const kind = random.next();
      const audience: { type: 'all' | 'organization' | 'role'; organizations: string[]; roles: string[] } =
        kind < 0.5
          ? { type: 'all', organizations: [], roles: [] }
          : kind < 0.75
            ? { type: 'organization', organizations: [...new Set([random.pick(places).code, random.pick(places).code])], roles: [] }
            : { type: 'role', organizations: [], roles: owner === PLATFORM_CODE ? ['TENANT_ADMIN'] : [...new Set([random.pick(TENANT_ROLES), 'TENANT_ADMIN'])] };
      const reached = reach(users, owner, {
        organizations: audience.type === 'organization' ? audience.organizations : undefined,
        roles: audience.type === 'role' ? audience.roles : undefined,
      });
      const content = notificationContent(text.title, text.body);
      const author = random.pick(admins);
      let linked: number | null = null;
      let publishedAt: Date | null = null;
      if (!draft && reached.length > 0) {
        // Before the frame's newest seeded item (an hour before the clock), never level with it.
        publishedAt = new Date(Math.min(created.getTime() + random.int(1, 30) * HOUR_MS, now.getTime() - 2 * HOUR_MS));
        linked = notificationId;
        notificationId += 1;
        notifications.push({ id: linked, tab_type: text.tab, ...content, created_at: publishedAt.toISOString() });
        for (const user of reached) {
          const read = random.next() < 0.65;
          recipients.push({
            notification_id: linked,
            user_id: user.id,
            read_at: read ? new Date(Math.min(publishedAt.getTime() + random.int(1, 96) * HOUR_MS, now.getTime())).toISOString() : null,
          });
        }
      }
      maintained.push({
        id,
        code: workCode('XX', id, created, timeZone),
        organization_code: owner,
        tab_type: text.tab,
        title: content.title,
        body_html: content.body_html,
        body_text: content.body_text,
        audience_type: audience.type,
        audience_organizations: audience.organizations,
        audience_roles: audience.roles,
        state: linked === null ? 'draft' : 'published',
        notification_id: linked,
        recipient_count: linked === null ? 0 : reached.length,
        created_by: author,
        created_at: created.toISOString(),
        updated_at: (publishedAt ?? created).toISOString(),
        published_by: linked === null ? null : author,
        published_at: publishedAt ? publishedAt.toISOString() : null,
      });
    }
  }

  // Sends.
  const sends: Row[] = [];
  const sendRecipients: Row[] = [];
  const plans: Array<{ owner: string; admin: string; count: number }> = [
    { owner: 'T0001', admin: 'tadmin', count: 130 },
    { owner: 'T0002', admin: 'badmin', count: 70 },
    { owner: PLATFORM_CODE, admin: 'admin', count: 12 },
  ];
  for (const { owner, admin, count } of plans) {
    const tenant = owner === PLATFORM_CODE ? null : owner;
    const usable = channels.filter((channel) => channel.tenant === tenant);
    const places = ORGANIZATIONS.filter((org) => (tenant === null || org.code.startsWith(owner)) && org.code.length > 5 && !org.code.includes('V'));
    const texts = SEND_TEXTS(
      () => random.pick(places).name,
      () => deviceCodeOf(random),
      () => workCode('WX', random.int(1, 800), past(10), timeZone),
    );
    const people = owner === PLATFORM_CODE ? reach(users, PLATFORM_CODE, { roles: ['TENANT_ADMIN'] }) : reach(users, owner, {});
    for (let n = 0; n < count; n += 1) {
      const id = sends.length + 1;
      // The last few of each tenant are scheduled for tomorrow morning and wait.
      const scheduled = n >= count - 3 && tenant !== null;
      const created = scheduled ? new Date(now.getTime() - random.int(1, 20) * HOUR_MS) : past(SEND_HISTORY_DAYS);
      const tomorrow = startOfDay(addDays(businessDay(now, timeZone), 1), timeZone).getTime();
      const scheduledAt = scheduled ? new Date(tomorrow + (8 + random.pick([0.5, 1, 1.5])) * HOUR_MS) : created;
      let text = random.pick(texts)();
      let candidates = usable.filter((channel) => (scheduled || channel.enabled || random.next() < 0.3) && text.types.includes(channel.type));
      for (let tries = 0; candidates.length === 0 && tries < 20; tries += 1) {
        text = random.pick(texts)();
        candidates = usable.filter((channel) => channel.enabled && text.types.includes(channel.type));
      }
      if (candidates.length === 0) candidates = usable.filter((channel) => channel.enabled);
      const channel = random.pick(candidates);
      const kind = random.next();
      let audienceType: 'user' | 'organization' | 'role';
      let chosen: SeedUser[];
      let summary: string;
      if (kind < 0.5 || owner === PLATFORM_CODE) {
        audienceType = 'user';
        const wanted = random.int(1, 4);
        const picked = new Map<number, SeedUser>();
        for (let k = 0; k < wanted; k += 1) {
          const person = random.pick(people);
          picked.set(person.id, person);
        }
        chosen = [...picked.values()].sort((a, b) => a.id - b.id);
        const names = chosen.map((user) => user.userName);
        summary = names.length > 3 ? `${names.slice(0, 3).join('、')} 等 ${names.length} 人` : names.join('、');
      } else if (kind < 0.8) {
        audienceType = 'organization';
        const place = random.pick(places.filter((org) => org.code.length <= 8));
        chosen = reach(users, owner, { organizations: [place.code] });
        summary = place.name;
        if (chosen.length === 0) {
          chosen = [random.pick(people)];
          audienceType = 'user';
          summary = chosen[0].userName;
        }
      } else {
        const role = random.pick(['ROLE_TENANT_REPAIR', 'ROLE_REPAIR_IMPLEMENT', 'TENANT_ADMIN']);
        audienceType = 'role';
        chosen = reach(users, owner, { roles: [role] });
        summary = { ROLE_TENANT_REPAIR: '维修人员', ROLE_REPAIR_IMPLEMENT: '维修实施人员', TENANT_ADMIN: '租户管理员' }[role] ?? role;
        if (chosen.length === 0) {
          chosen = [random.pick(people)];
          audienceType = 'user';
          summary = chosen[0].userName;
        }
      }
      const variables: Record<string, string> = channel.template.includes('${设备名称}') ? { 设备名称: `${deviceCodeOf(random)}（${random.pick(places).name}）` } : {};
      const values = { ...variables, 标题: text.title, 内容: text.content, 时间: messageTime(scheduledAt, timeZone) };
      sends.push({
        id,
        code: workCode('FS', id, created, timeZone),
        organization_code: owner,
        channel_id: channel.id,
        channel_type: channel.type,
        channel_name: channel.name,
        title: text.title,
        content: text.content,
        variables,
        audience_type: audienceType,
        audience_summary: summary,
        scheduled_at: scheduledAt.toISOString(),
        created_by: admin,
        created_at: created.toISOString(),
      });
      const reachable = chosen.filter((user) => ({ phone: user.phone, mail: user.mail, wechat_open_id: user.wechatOpenId })[ADDRESS_OF[channel.type].column]);
      const robotText = renderTemplate(channel.template, { ...values, 姓名: reachable.map((user) => user.userName).join('、') });
      const robotMessage = `${robotText}\n${reachable.map((user) => `@${user.phone ?? ''}`).join(' ')}`;
      for (const user of chosen) {
        const address = { phone: user.phone, mail: user.mail, wechat_open_id: user.wechatOpenId }[ADDRESS_OF[channel.type].column];
        const message = isRobot(channel.type) ? robotMessage : framedMessage(channel.type, channel.settings, renderTemplate(channel.template, { ...values, 姓名: user.userName }));
        const base = { send_id: id, user_id: user.id, user_name: user.userName };
        const sentAt = new Date(scheduledAt.getTime() + random.int(1, 20) * 1000);
        if (scheduled) {
          sendRecipients.push({ id: sendRecipients.length + 1, ...base, address: '', message: '', state: 'pending', fail_reason: '', attempts: 0, sent_at: null, updated_at: created.toISOString() });
        } else if (!address) {
          sendRecipients.push({ id: sendRecipients.length + 1, ...base, address: '', message: '', state: 'failed', fail_reason: ADDRESS_OF[channel.type].missing, attempts: 1, sent_at: null, updated_at: sentAt.toISOString() });
        } else if (random.next() < 0.1) {
          sendRecipients.push({
            id: sendRecipients.length + 1,
            ...base,
            address,
            message: '',
            state: 'failed',
            fail_reason: random.pick(FAIL_REASONS[channel.type]),
            attempts: random.int(1, 2),
            sent_at: null,
            updated_at: sentAt.toISOString(),
          });
        } else {
          const attempts = random.next() < 0.05 ? 2 : 1;
          sendRecipients.push({
            id: sendRecipients.length + 1,
            ...base,
            address,
            message,
            state: 'sent',
            fail_reason: '',
            attempts,
            sent_at: new Date(sentAt.getTime() + (attempts - 1) * random.int(5, 60) * 60_000).toISOString(),
            updated_at: sentAt.toISOString(),
          });
        }
      }
    }
  }

  return [
    { table: 'notification_channel', rows: channelRows },
    { table: 'notification', rows: notifications },
    { table: 'notification_recipient', rows: recipients },
    { table: 'maintained_notification', rows: maintained },
    { table: 'notification_send', rows: sends },
    { table: 'notification_send_recipient', rows: sendRecipients },
  ];
}

