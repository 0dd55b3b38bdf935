import type { JsonObject, Row, SeedData } from '../db/bulk';
import { dateStamp, upgradeTables, type DeviceRow } from './firmwareHistory';
import type { DeviceTables } from './devices';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import { HOUR_MS, DAY_MS, iso, pad } from './clock';

const APP_RELEASES: ReadonlyArray<{ version: string; notes: string; ageDays: number }> = [
  { version: '3.0.0', notes: '全新界面；设备地图支持聚合展示；新增工单模块。', ageDays: 300 },
  { version: '3.1.0', notes: '新增巡检打卡与轨迹回放；告警支持一键派单。', ageDays: 230 },
  { version: '3.2.0', notes: '新增物联网卡续费提醒；设备详情展示信号与电量趋势。', ageDays: 160 },
  { version: '3.3.0', notes: '支持扫码批量添加设备；修复 iOS 17 推送偶发丢失。', ageDays: 90 },
  { version: '3.4.0', notes: '新增在线组态查看；优化离线缓存，弱网下加载更快。', ageDays: 30 },
  { version: '3.5.0', notes: '新增固件升级进度查看；安全加固（强制更新）。', ageDays: 1 },
];

const HOT_FIXES: readonly string[] = [
  '修复告警列表下拉刷新后重复显示。',
  '修复工单照片在部分安卓机型上传失败。',
  '优化设备列表首屏加载速度。',
  '修复切换组织后首页数据未刷新。',
  '修复地图模式下设备图标重叠无法点击。',
  '调整巡检打卡定位精度提示文案。',
  '修复夜间免打扰设置不生效。',
  '修复历史曲线在横屏时显示不全。',
];

function appVersionRows(random: Random, now: number): Row[] {
  const rows: Row[] = [];
  for (const platform of ['android', 'ios'] as const) {
    APP_RELEASES.forEach((release, index) => {
      const createdAt = now - release.ageDays * DAY_MS - random.int(1, 6) * HOUR_MS;
      const published = index < APP_RELEASES.length - 1;
      rows.push({
        id: rows.length + 1,
        platform,
        update_type: 'forced',
        version: release.version,
        build_number: 300 + index * 10,
        download_url: platform === 'android' ? `https://download.yunlian-iot.com/app/android/yunlian-iot-${release.version}.apk` : 'https://apps.apple.com/cn/app/id1588866001',
        package_size: platform === 'android' ? random.int(38, 52) * 1_048_576 : null,
        release_notes: release.notes,
        min_supported_version: index === 0 ? '2.6.0' : APP_RELEASES[Math.max(0, index - 2)].version,
        published,
        published_at: published ? iso(createdAt + random.int(2, 48) * HOUR_MS) : null,
        published_by: published ? 'admin' : null,
        created_by: 'admin',
        created_at: iso(createdAt),
        updated_at: iso(createdAt),
      });
    });
    HOT_FIXES.forEach((fix, index) => {
      const base = APP_RELEASES[3 + Math.floor(index / 5)];
      const patch = (index % 5) + 1;
      const version = `${base.version.slice(0, base.version.lastIndexOf('.'))}.${patch}`;
      const createdAt = now - base.ageDays * DAY_MS + (patch * 4 + random.int(0, 3)) * DAY_MS;
      const published = index < HOT_FIXES.length - 1;
      rows.push({
        id: rows.length + 1,
        platform,
        update_type: 'hot',
        version,
        build_number: 300 + (3 + Math.floor(index / 5)) * 10 + patch,
        download_url: `https://download.yunlian-iot.com/app/hot/${platform}/yunlian-iot-${version}.wgt`,
        package_size: random.int(600, 2_400) * 1_024,
        release_notes: fix,
        min_supported_version: base.version,
        published,
        published_at: published ? iso(Math.min(now, createdAt + random.int(1, 24) * HOUR_MS)) : null,
        published_by: published ? random.pick(['admin', 'operator']) : null,
        created_by: 'admin',
        created_at: iso(Math.min(now, createdAt)),
        updated_at: iso(Math.min(now, createdAt)),
      });
    });
  }
  return rows;
}

const SURNAMES = '王李张刘陈杨黄赵吴周徐孙马朱胡郭何林罗高';
const GIVEN = ['伟', '芳', '娜', '敏', '静', '磊', '洋', '勇', '军', '杰', '娟', '涛', '明', '超', '秀英', '海燕', '建华', '志强', '晓东', '文静'];

const APP_FEEDBACK: readonly string[] = [
  'APP 打开设备详情页很慢，要等五六秒才能加载出来。',
  '告警推送有时收不到，手机已开启通知权限。',
  '希望设备列表能按信号强度排序，方便排查弱信号设备。',
  '扫码添加设备时提示二维码无效，但设备标签是新贴的。',
  '切换组织后首页的统计数据没有刷新，需要重新登录才正常。',
  '地图模式下设备图标重叠，点不中想看的设备。',
  '巡检打卡定位偏差比较大，显示在隔壁小区。',
  '希望增加夜间模式，晚上值班看屏幕太亮。',
  '工单照片上传失败，提示网络错误，但手机网络正常。',
  '升级新版本后每次都要重新输入密码，能否记住账号。',
  '设备离线告警太频繁，能否设置免打扰时段。',
  '历史数据曲线只能看 7 天，希望能查看更长时间。',
  '固件升级进度在 APP 里看不到，只能到电脑上查。',
  '消息中心已读状态不同步，电脑上读过手机还显示未读。',
];

const OTHER_FEEDBACK: readonly string[] = [
  '客服热线反映：龙井水厂附近多块水表读数长时间不变化。',
  '用户来电：烟感半夜误报，声音很大，希望尽快派人处理。',
  '邮件反馈：月度用量报表导出后部分中文显示乱码。',
  '现场反馈：一号厂房网关柜内温度偏高，建议加装散热风扇。',
  '公众号留言：缴费成功后设备状态一直没有更新。',
  '希望开放数据接口，便于对接我们自己的调度系统。',
  '大屏展示的在线率与设备列表统计的不一致。',
  '物联网卡快到期了，没有收到任何续费提醒。',
  '建议告警短信里带上设备安装地址，值班人员可直接出发。',
  '合作方反馈：批量导入设备模板缺少安装位置字段。',
];

const REPLIES: readonly string[] = [
  '您好，感谢您的反馈，问题已确认，将在下个版本中修复。',
  '您好，已安排运维人员现场排查，预计两个工作日内处理完毕。',
  '感谢您的建议，我们已记录到需求池，后续版本会评估上线。',
  '您好，该问题已在最新版本修复，请更新 APP 后重试。',
  '您好，经排查为运营商网络波动导致，目前已恢复正常。',
  '您好，已为您调整相关配置，如仍有问题请随时联系我们。',
];

const PHONE_MODELS: Record<'android' | 'ios', readonly string[]> = {
  android: ['HUAWEI Mate 60', 'HUAWEI nova 12', 'Xiaomi 14', 'Redmi K70', 'OPPO Reno11', 'vivo X100', 'HONOR 90'],
  ios: ['iPhone 15', 'iPhone 14 Pro', 'iPhone 13', 'iPhone 15 Pro Max'],
};

const CHANNELS: readonly string[] = ['400 客服热线', '微信公众号', '邮件', '现场反馈', '商务对接'];

function feedbackRows(random: Random, now: number, timeZone: string): Row[] {
  const rows: Row[] = [];
  const organizations = flattenOrganizations();
  for (const [tenantCode, count] of [['T0001', 180], ['T0002', 120]] as const) {
    const sites = organizations.filter((org) => org.code.startsWith(tenantCode)).map((org) => org.code);
    for (let n = 0; n < count; n += 1) {
      const app = random.next() < 0.62;
      const platform = random.next() < 0.7 ? 'android' : 'ios';
      const createdAt = now - Math.floor(random.next() ** 1.6 * 180 * DAY_MS);
      const ageDays = (now - createdAt) / DAY_MS;
      const replied = random.next() < (ageDays > 3 ? 0.85 : 0.3);
      const repliedAt = replied ? Math.min(now, createdAt + random.int(1, 72) * HOUR_MS) : null;
      const name = `${SURNAMES[random.int(0, SURNAMES.length - 1)]}${random.pick(GIVEN)}`;
      rows.push({
        id: rows.length + 1,
        code: `FB${dateStamp(createdAt, timeZone)}${pad(rows.length + 1, 4)}`,
        feedback_type: app ? 'app' : 'other',
        tenant_code: tenantCode,
        organization_code: random.pick(sites),
        user_name: name,
        contact: `1${random.pick(['38', '39', '58', '59', '86', '88', '77'])}${pad(random.int(0, 99_999_999), 8)}`,
        app_version: app ? random.pick(['3.2.0', '3.3.0', '3.3.2', '3.4.0', '3.4.1', '3.4.2']) : '',
        phone_model: app ? random.pick(PHONE_MODELS[platform]) : '',
        channel: app ? (platform === 'android' ? 'Android' : 'iOS') : random.pick(CHANNELS),
        content: random.pick(app ? APP_FEEDBACK : OTHER_FEEDBACK),
        images: [],
        state: replied ? 'replied' : 'pending',
        reply: replied ? random.pick(REPLIES) : null,
        replied_by: replied ? (random.next() < 0.8 ? (tenantCode === 'T0001' ? 'tadmin' : 'badmin') : 'operator') : null,
        replied_at: repliedAt === null ? null : iso(repliedAt),
        created_at: iso(createdAt),
      });
    }
  }
  return rows;
}

/** A widget of a configuration canvas, as stored in `canvas.widgets`. */
interface SeedWidget {
  id: string;
  type: string;
  title: string;
  deviceCode: string | null;
  metric: string | null;
  unit: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Which product measures a metric, and its unit. */
const METRIC_SOURCES: Record<string, { product: string; unit: string; widget: string; label: string }> = {
  pressure: { product: 'PRD-PG-NB', unit: 'MPa', widget: 'gauge', label: '管网压力' },
  flow: { product: 'PRD-FM-4G', unit: 'm³/h', widget: 'trend', label: '瞬时流量' },
  level: { product: 'PRD-LV-LR', unit: 'm', widget: 'tank', label: '水池液位' },
  ph: { product: 'PRD-WQ-MB', unit: '', widget: 'value', label: 'pH 值' },
  turbidity: { product: 'PRD-WQ-MB', unit: 'NTU', widget: 'trend', label: '浊度' },
  temperature: { product: 'PRD-TH-LR', unit: '℃', widget: 'gauge', label: '温度' },
  humidity: { product: 'PRD-TH-LR', unit: '%RH', widget: 'value', label: '湿度' },
  smoke: { product: 'PRD-SD-NB', unit: '', widget: 'indicator', label: '烟感状态' },
  battery: { product: 'PRD-WM-NB', unit: '%', widget: 'value', label: '水表电量' },
  signal: { product: 'PRD-GW-4G', unit: '', widget: 'indicator', label: '网关信号' },
};

const CONFIGURATIONS: ReadonlyArray<{ organizationCode: string; name: string; metrics: string[]; published: boolean; description: string }> = [
  { organizationCode: 'T0001P01A0102', name: '龙井水厂泵房监控', metrics: ['pressure', 'flow', 'level', 'signal'], published: true, description: '泵房进出水压力、流量与清水池液位。' },
  { organizationCode: 'T0001P01A0101', name: '灵隐加压泵站运行总览', metrics: ['pressure', 'pressure', 'flow', 'battery'], published: true, description: '加压泵站前后压力与出站流量。' },
  { organizationCode: 'T0001P01A02', name: '上城区管网压力分布', metrics: ['pressure', 'pressure', 'pressure', 'flow'], published: true, description: '管网关键节点压力。' },
  { organizationCode: 'T0001P02A0101', name: '一号厂房温湿度监控', metrics: ['temperature', 'humidity', 'temperature', 'humidity', 'smoke'], published: true, description: '厂房仓储区温湿度与烟感状态。' },
  { organizationCode: 'T0001P02A02', name: '江东园区消防态势', metrics: ['smoke', 'smoke', 'smoke', 'temperature'], published: false, description: '草稿：待补充消防水池液位。' },
  { organizationCode: 'T0001P01', name: '西湖智慧水务综合看板', metrics: ['flow', 'pressure', 'level', 'battery', 'signal'], published: true, description: '项目级综合运行态势。' },
  { organizationCode: 'T0002P01A01', name: '太湖水质自动监测站', metrics: ['ph', 'turbidity', 'ph', 'turbidity'], published: true, description: '吴中片区水质自动站实时数据。' },
  { organizationCode: 'T0002P01A02', name: '相城区监测片区总览', metrics: ['ph', 'level', 'turbidity'], published: true, description: '' },
  { organizationCode: 'T0002P02A0101', name: '星海泵站运行监控', metrics: ['pressure', 'flow', 'level', 'signal'], published: true, description: '污水提升泵站运行状态。' },
  { organizationCode: 'T0002P02A01', name: '金鸡湖片区环境监测', metrics: ['level', 'ph', 'turbidity'], published: false, description: '草稿。' },
];

function configurationRows(random: Random, now: number, fleet: DeviceTables): Row[] {
  const devices = fleet.devices as unknown as DeviceRow[];
  return CONFIGURATIONS.map((spec, index) => {
    const tenantCode = spec.organizationCode.slice(0, 5);
    const used = new Set<string>();
    const widgets: SeedWidget[] = [{ id: 'w1', type: 'text', title: spec.name, deviceCode: null, metric: null, unit: '', x: 40, y: 24, width: 800, height: 64 }];
    spec.metrics.forEach((metric, n) => {
      const source = METRIC_SOURCES[metric];
      const near = devices.filter((d) => d.product_code === source.product && d.tenant_code === tenantCode && d.deleted_at === null && !used.has(d.code));
      const inSite = near.filter((d) => d.organization_code.startsWith(spec.organizationCode));
      const device = (inSite.length ? inSite : near)[random.int(0, Math.min(20, (inSite.length ? inSite : near).length) - 1)];
      if (!device) return;
      used.add(device.code);
      widgets.push({
        id: `w${widgets.length + 1}`,
        type: source.widget,
        title: `${source.label} ${n + 1}`,
        deviceCode: device.code,
        metric,
        unit: source.unit,
        x: 40 + (n % 3) * 600,
        y: 120 + Math.floor(n / 3) * 440,
        width: 560,
        height: 400,
      });
    });
    const createdAt = now - random.int(10, 200) * DAY_MS;
    const updatedAt = Math.min(now, createdAt + random.int(0, 9) * DAY_MS);
    const author = tenantCode === 'T0001' ? 'tadmin' : 'badmin';
    // jsonb: the canvas is an object whose widgets are a list of plain objects.
    const canvas = { width: 1920, height: 1080, background: random.pick(['#0b1d33', '#101820', '#0f2a44']), widgets } as unknown as JsonObject;
    return {
      id: index + 1,
      code: `ZT${pad(index + 1, 5)}`,
      name: spec.name,
      tenant_code: tenantCode,
      organization_code: spec.organizationCode,
      description: spec.description,
      canvas,
      published: spec.published,
      created_by: author,
      created_at: iso(createdAt),
      updated_by: author,
      updated_at: iso(updatedAt),
    };
  });
}

/** The demo world's upgrade packages, tasks, app versions, feedback and online configurations (issue 5). */
export function firmwareTables(random: Random, today: Date, fleet: DeviceTables, timeZone: string): SeedData {
  const now = today.getTime();
  const { packages, tasks, taskDevices } = upgradeTables(random, now, fleet, timeZone);
  return [
    { table: 'upgrade_package', rows: packages },
    { table: 'upgrade_task', rows: tasks },
    { table: 'upgrade_task_device', rows: taskDevices },
    { table: 'app_version', rows: appVersionRows(random, now) },
    { table: 'feedback', rows: feedbackRows(random, now, timeZone) },
    { table: 'online_configuration', rows: configurationRows(random, now, fleet) },
  ];
}
