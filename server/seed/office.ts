import type { Row, SeedData } from '../db/bulk';
import { DEFAULT_TENANT_SETTINGS, sameSetting } from '../domain/tenantSettings';
import { workCode } from '../domain/workOrders';
import { flattenOrganizations } from './organizations';
import type { Random } from './prng';
import type { UserTables } from './users';
import { HOUR_MS, DAY_MS, iso } from './clock';

/**
 * The office and catalogue areas' demo data (issue 6): the details of every seeded project area,
 * corporate office requests of both tenants' staff in every state with their history (the
 * tenant admins audit), platform and tenant text templates, a few changed tenant settings and
 * each tenant's store of spare parts and materials, some below their warning level.
 */

const SURNAMES = ['王', '李', '张', '刘', '陈', '杨', '黄', '赵', '吴', '周', '徐', '孙', '沈', '朱', '钱', '郭'];
const GIVEN = ['建国', '海峰', '立新', '国强', '志刚', '晓明', '文杰', '春华', '永红', '卫东', '学军', '丽萍'];

/** What the seeded areas are: kind, street address and a position near it. */
const AREAS: Record<string, { type: string; address: string; longitude: number; latitude: number; acreage: number }> = {
  T0001P01A01: { type: 'district', address: '浙江省杭州市西湖区文三路与古翠路交叉口', longitude: 120.1302, latitude: 30.2801, acreage: 12_600_000 },
  T0001P01A0101: { type: 'station', address: '浙江省杭州市西湖区灵隐路18号', longitude: 120.1015, latitude: 30.2417, acreage: 3200 },
  T0001P01A0102: { type: 'plant', address: '浙江省杭州市西湖区龙井路1号', longitude: 120.1208, latitude: 30.2311, acreage: 48_000 },
  T0001P01A02: { type: 'district', address: '浙江省杭州市上城区解放路与延安路交叉口', longitude: 120.1721, latitude: 30.2553, acreage: 8_900_000 },
  T0001P01A0201: { type: 'station', address: '浙江省杭州市上城区湖滨路38号', longitude: 120.1636, latitude: 30.2579, acreage: 860 },
  T0001P02A01: { type: 'plant', address: '浙江省杭州市钱塘区下沙路88号', longitude: 120.3485, latitude: 30.3122, acreage: 1_350_000 },
  T0001P02A0101: { type: 'building', address: '浙江省杭州市钱塘区下沙路88号一号厂房', longitude: 120.3491, latitude: 30.3128, acreage: 18_500 },
  T0001P02A02: { type: 'plant', address: '浙江省杭州市钱塘区江东大道3888号', longitude: 120.5102, latitude: 30.2461, acreage: 960_000 },
  T0002P01A01: { type: 'district', address: '江苏省苏州市吴中区东山镇环山路', longitude: 120.4052, latitude: 31.0773, acreage: 21_000_000 },
  T0002P01A0101: { type: 'station', address: '江苏省苏州市吴中区东山镇陆巷村', longitude: 120.3687, latitude: 31.0912, acreage: 420 },
  T0002P01A0102: { type: 'station', address: '江苏省苏州市吴中区光福镇太湖大堤', longitude: 120.4311, latitude: 31.2876, acreage: 380 },
  T0002P01A02: { type: 'district', address: '江苏省苏州市相城区阳澄湖大道', longitude: 120.6423, latitude: 31.4201, acreage: 15_800_000 },
  T0002P02A01: { type: 'district', address: '江苏省苏州市工业园区星湖街', longitude: 120.7161, latitude: 31.3022, acreage: 6_400_000 },
  T0002P02A0101: { type: 'station', address: '江苏省苏州市工业园区星海街199号', longitude: 120.6912, latitude: 31.3081, acreage: 2600 },
};

interface Person {
  id: number;
  loginName: string;
  organizationCode: string;
  tenantCode: string;
}

/** Request texts by type: title, content and what the type needs. */
interface RequestDraft {
  title: string;
  content: string;
  sealType?: string;
  amount?: number;
  destination?: string;
  hours?: number;
}

function requestDraft(random: Random, type: string, tenantCode: string): RequestDraft {
  const hz = tenantCode === 'T0001';
  const places = hz ? ['灵隐加压泵站', '龙井水厂', '湖滨监测站', '下沙园区一号厂房', '江东园区'] : ['东山监测点', '光福监测点', '星海泵站', '相城区监测片区', '金鸡湖片区'];
  const place = random.pick(places);
  switch (type) {
    case 'seal':
      return random.pick<RequestDraft>([
        { title: `合同盖章：${place}智能水表采购合同`, content: `${place}智能水表采购合同一式四份，已经法务审核，申请加盖合同专用章。`, sealType: 'contract' },
        { title: '项目验收报告盖章', content: `${hz ? '西湖智慧水务项目' : '太湖水质监测项目'}二期阶段验收报告，需加盖公章后报送业主。`, sealType: 'official' },
        { title: '银行回单盖章', content: '本月供应商付款银行回单共 12 张，申请加盖财务专用章后归档。', sealType: 'finance' },
        { title: '投标文件授权书盖章', content: '参与园区污水处理二期项目投标，法定代表人授权书需加盖法人章。', sealType: 'legal' },
        { title: '设备入网证明盖章', content: `${place}新装设备入网证明，运营商要求加盖公章。`, sealType: 'official' },
      ]);
    case 'expense':
      return random.pick<RequestDraft>([
        { title: `差旅费报销（${hz ? '杭州—苏州' : '苏州—杭州'}）`, content: '往返高铁票两张、住宿一晚，票据已粘贴。', amount: 486 + random.int(0, 300) },
        { title: `${place}维修材料费报销`, content: '现场维修临时采购密封圈、生料带、防水胶泥等，发票三张。', amount: 120 + random.int(0, 600) },
        { title: '客户接待餐费报销', content: '接待业主单位来访，工作餐一次，附发票与接待审批单。', amount: 380 + random.int(0, 900) },
        { title: '车辆加油费报销', content: `本月巡检用车加油三次，行驶里程 ${random.int(400, 1200)} 公里。`, amount: 600 + random.int(0, 800) },
        { title: '快递费报销', content: '寄送故障设备返厂检测及备件，快递单据五张。', amount: 60 + random.int(0, 200) },
      ]);
    case 'purchase':
      return random.pick<RequestDraft>([
        { title: '采购锂亚电池（3.6V 19Ah）200 只', content: '库存电池低于预警线，今年到期更换的水表约 180 台，申请补充采购。', amount: 9000 + random.int(0, 2000) },
        { title: '采购 NB-IoT 通信模组 50 片', content: '用于通信故障设备的模组更换，供应商已比价三家。', amount: 1900 + random.int(0, 600) },
        { title: '采购便携式信号测试仪 2 台', content: '现场排查信号弱问题需要，现有仪器已损坏一台。', amount: 3200 + random.int(0, 800) },
        { title: `${place}备用压力变送器采购`, content: '压力监测点备件，规格 0-1.6MPa，4-20mA 输出。', amount: 2700 + random.int(0, 1500) },
        { title: '采购劳保用品', content: '绝缘手套、反光背心、安全帽等，按班组人数配置。', amount: 800 + random.int(0, 700) },
      ]);
    case 'travel':
      return random.pick<RequestDraft>([
        { title: `赴${hz ? '苏州工业园区' : '杭州钱塘区'}项目现场调试`, content: '配合业主完成新装网关与平台联调，预计两天。', destination: hz ? '江苏省苏州市' : '浙江省杭州市', hours: 48 },
        { title: '参加智慧水务行业展会', content: '了解行业新产品，拜访两家传感器供应商。', destination: '上海市浦东新区', hours: 72 },
        { title: '供应商工厂验货', content: '对本批次 2000 台智能水表出厂抽检。', destination: '浙江省宁波市', hours: 24 },
        { title: '业主单位年度回访', content: '年度服务回访并收集用户意见。', destination: hz ? '浙江省杭州市西湖区' : '江苏省苏州市吴中区', hours: 8 },
      ]);
    default:
      return random.pick<RequestDraft>([
        { title: `用车：${place}设备巡检`, content: '携带备件与测试仪器，需要工程车一辆。', destination: place, hours: 6 },
        { title: `用车：${place}故障抢修`, content: '设备通信中断，需紧急到场处理。', destination: place, hours: 4 },
        { title: '用车：接送业主参观项目', content: '业主单位三人参观监控中心及现场站点。', destination: place, hours: 5 },
      ]);
  }
}

const APPROVALS = ['同意。', '同意，按公司制度执行。', '情况属实，同意。', '同意，请注意控制费用。'];
const REJECTIONS = ['票据不全，请补充发票后重新提交。', '金额超出预算，请说明原因或拆分申请。', '请补充合同审批单。', '时间与其他安排冲突，请调整后再提交。'];

/** The states of one applicant's requests: every state for the demo accounts, a mix for the rest. */
function statesFor(random: Random, loginName: string, isAdmin: boolean): string[] {
  if (isAdmin) return ['draft', 'submitted', 'draft', 'submitted'];
  const demo = ['tuser', 'repair', 'patrol', 'implement', 'sz01', 'sz05'].includes(loginName);
  const states = demo ? ['draft', 'submitted', 'submitted', 'approved', 'approved', 'rejected', 'approved', 'rejected'] : [];
  const extra = demo ? 4 : random.int(4, 8);
  for (let n = 0; n < extra; n += 1) {
    const roll = random.next();
    states.push(roll < 0.12 ? 'draft' : roll < 0.32 ? 'submitted' : roll < 0.82 ? 'approved' : 'rejected');
  }
  return states;
}

function officeRequests(random: Random, now: number, people: readonly Person[], admins: Readonly<Record<string, number>>, timeZone: string) {
  const requests: Row[] = [];
  const history: Row[] = [];
  const types = ['seal', 'expense', 'purchase', 'travel', 'vehicle'];
  const drafts: Array<{ person: Person; state: string; type: string; createdAt: number }> = [];
  for (const person of people) {
    const isAdmin = admins[person.tenantCode] === person.id;
    statesFor(random, person.loginName, isAdmin).forEach((state, index) => {
      const open = state === 'draft' || state === 'submitted';
      const ageDays = open ? 0.5 + random.next() * 12 : 3 + random.next() * 150;
      drafts.push({ person, state, type: types[(index + person.id) % types.length], createdAt: now - ageDays * DAY_MS });
    });
  }
  // Ids follow creation time.
  drafts.sort((a, b) => a.createdAt - b.createdAt);
  drafts.forEach((draft, index) => {
    const id = index + 1;
    const { person, state, type } = draft;
    const text = requestDraft(random, type, person.tenantCode);
    const auditor = admins[person.tenantCode];
    const steps: Array<{ action: string; from: string | null; to: string; by: number; remark: string; at: number }> = [];
    let at = draft.createdAt;
    const step = (action: string, from: string | null, to: string, by: number, remark = '', gapHours: [number, number] = [0.2, 20]) => {
      at = Math.min(at + (gapHours[0] + random.next() * (gapHours[1] - gapHours[0])) * HOUR_MS, now - 0.1 * HOUR_MS);
      steps.push({ action, from, to, by, remark, at });
    };
    steps.push({ action: 'create', from: null, to: 'draft', by: person.id, remark: '', at });
    if (state === 'draft' && random.next() < 0.4) step('modify', 'draft', 'draft', person.id);
    let submittedAt: number | null = null;
    let auditedAt: number | null = null;
    let opinion = '';
    if (state !== 'draft') {
      // Some approved requests were sent back once before.
      if (state === 'approved' && random.next() < 0.25) {
        step('submit', 'draft', 'submitted', person.id);
        step('reject', 'submitted', 'rejected', auditor, random.pick(REJECTIONS), [1, 30]);
        step('modify', 'rejected', 'rejected', person.id, '', [1, 24]);
        step('submit', 'rejected', 'submitted', person.id, '', [0.1, 2]);
      } else step('submit', 'draft', 'submitted', person.id);
      submittedAt = at;
      if (state === 'approved' || state === 'rejected') {
        opinion = state === 'approved' ? random.pick(APPROVALS) : random.pick(REJECTIONS);
        step(state === 'approved' ? 'approve' : 'reject', 'submitted', state, auditor, opinion, [1, 40]);
        auditedAt = at;
      }
    }
    const start = text.hours ? draft.createdAt + (2 + random.int(0, 10)) * DAY_MS + random.int(8, 10) * HOUR_MS : null;
    requests.push({
      id,
      code: workCode('BG', id, new Date(draft.createdAt), timeZone),
      tenant_code: person.tenantCode,
      organization_code: person.organizationCode,
      applicant_id: person.id,
      type,
      title: text.title,
      content: text.content,
      seal_type: type === 'seal' ? (text.sealType ?? 'official') : null,
      amount: text.amount ?? null,
      destination: text.destination ?? '',
      start_at: start === null ? null : iso(start),
      end_at: start === null || !text.hours ? null : iso(start + text.hours * HOUR_MS),
      state,
      submitted_at: submittedAt === null ? null : iso(submittedAt),
      auditor_id: auditedAt === null ? null : auditor,
      audited_at: auditedAt === null ? null : iso(auditedAt),
      audit_opinion: opinion,
      created_at: iso(draft.createdAt),
      updated_at: iso(at),
    });
    for (const entry of steps) {
      history.push({ request_id: id, action: entry.action, from_state: entry.from, to_state: entry.to, operator_id: entry.by, remark: entry.remark, created_at: iso(entry.at) });
    }
  });
  return { requests, history: history.map((row, index) => ({ id: index + 1, ...row })) };
}

/** Templates: the platform's (every tenant sees them) and each tenant's own. */
function templates(now: number, creators: Readonly<Record<string, string>>): Row[] {
  const rows: Array<{ tenant: string | null; type: string; name: string; content: string; enabled?: boolean; remark?: string }> = [
    { tenant: null, type: 'message', name: '告警短信通知', content: '【${平台名称}】设备${设备名称}（${设备编码}）于${告警时间}触发${告警类型}，当前值${当前值}，请及时处理。', remark: '短信渠道，70 字以内' },
    { tenant: null, type: 'message', name: '工单派发通知', content: '您有新的${工单类型}工单${工单编号}：${工单标题}，请于${截止时间}前完成处理。' },
    { tenant: null, type: 'message', name: '工单超时提醒', content: '工单${工单编号}已超过处理时限${超时小时数}小时，请尽快处理或说明原因。' },
    { tenant: null, type: 'message', name: '巡检任务提醒', content: '巡检任务${任务名称}将于${计划开始}开始，共${设备数}台设备，请按时执行。' },
    { tenant: null, type: 'message', name: '设备离线通知', content: '设备${设备名称}（${设备编码}）已离线${离线时长}，最后上报时间${最后上报时间}。' },
    { tenant: null, type: 'work_order', name: '通信故障处理说明', content: '故障现象：${故障现象}\n排查过程：检查物联网卡、天线与信号强度（${信号强度}）。\n处理结果：${处理结果}' },
    { tenant: null, type: 'work_order', name: '例行保养记录', content: '保养设备：${设备名称}（${设备编码}）\n保养内容：清洁、紧固、电池电量检查（${电池电量}%）。\n结论：${保养结论}' },
    { tenant: 'T0001', type: 'message', name: '水压异常告警（钉钉）', content: '【杭州云联】${项目名称}${区域名称}压力计${设备编码}读数${当前值}MPa，超过阈值${阈值}MPa，请值班人员立即核查。', remark: '推送至运维值班群' },
    { tenant: 'T0001', type: 'message', name: '低电量批量提醒', content: '本周共有${设备数}台设备电量低于${阈值}%，已生成批量维修批次${批次编号}，请安排更换电池。' },
    { tenant: 'T0001', type: 'message', name: '维修完成回访短信', content: '您好，您反映的${故障现象}已于${完成时间}处理完毕，如仍有问题请回复本短信或致电${服务电话}。' },
    { tenant: 'T0001', type: 'message', name: '停水通知（旧版）', content: '因管网维修，${区域名称}将于${开始时间}至${结束时间}停水，请提前储水。', enabled: false, remark: '已改用新版公告模板' },
    { tenant: 'T0001', type: 'work_order', name: '水表更换作业单', content: '旧表编码：${旧表编码}，旧表读数：${旧表读数}\n新表编码：${新表编码}，新表读数：${新表读数}\n更换原因：${更换原因}' },
    { tenant: 'T0001', type: 'work_order', name: '阀门故障处理说明', content: '阀门状态：${阀门状态}\n处理措施：清理阀体结垢 / 更换阀门电机（${处理措施}）\n远程开关阀测试：${测试结果}' },
    { tenant: 'T0001', type: 'work_order', name: '施工完工说明', content: '施工内容：${施工内容}\n完成工程量：${工程量}\n遗留问题：${遗留问题}' },
    { tenant: 'T0001', type: 'work_order', name: '勘察结论', content: '勘察地点：${勘察地点}\n现场条件：供电${供电情况}，信号${信号情况}\n建议安装位置：${安装位置}' },
    { tenant: 'T0002', type: 'message', name: '水质超标告警', content: '【苏州智水】${监测点}水质${指标名称}为${当前值}，超过标准限值${限值}，请立即复核采样。', remark: '推送至飞书应急群' },
    { tenant: 'T0002', type: 'message', name: '监测点离线通知', content: '${监测点}数据已中断${离线时长}，请运维人员到场检查供电与通信。' },
    { tenant: 'T0002', type: 'message', name: '周报推送', content: '本周共处理工单${完成数}张，在办${在办数}张，超期${超期数}张，详见平台报表。', enabled: false },
    { tenant: 'T0002', type: 'work_order', name: '传感器校准记录', content: '校准设备：${设备编码}\n标准液：pH ${标准值}\n校准前读数：${校准前}，校准后读数：${校准后}' },
    { tenant: 'T0002', type: 'work_order', name: '泵站巡检记录', content: '泵站：${泵站名称}\n运行水泵：${运行台数}台，出水压力：${出水压力}MPa\n异常情况：${异常情况}' },
  ];
  return rows.map((row, index) => {
    const created = now - (200 - index * 7) * DAY_MS;
    return {
      id: index + 1,
      tenant_code: row.tenant,
      type: row.type,
      name: row.name,
      content: row.content,
      enabled: row.enabled ?? true,
      remark: row.remark ?? '',
      created_by: row.tenant ? creators[row.tenant] : 'admin',
      created_at: iso(created),
      updated_at: iso(created + (index % 3) * 9 * DAY_MS),
    };
  });
}

/** The materials catalogue: name, specification, unit, unit price and the usual stock. */
const MATERIALS: Record<string, Array<[string, string, string, number, number]>> = {
  device: [
    ['NB-IoT 智能水表 DN20', 'LXSY-20E NB 远传', '只', 320, 120],
    ['NB-IoT 智能水表 DN25', 'LXSY-25E NB 远传', '只', 360, 60],
    ['超声波水表 DN50', 'UWM-50 电池供电', '台', 1850, 12],
    ['电磁流量计 DN100', 'LDG-100 4G 远传', '台', 6800, 4],
    ['压力变送器', '0-1.6MPa 4-20mA', '台', 680, 20],
    ['投入式液位计', '0-10m LoRa', '台', 1450, 8],
    ['水质多参数传感器', 'pH/浊度/余氯 Modbus', '台', 12800, 3],
    ['4G 边缘网关', 'GW-4G-01 双网口', '台', 1500, 10],
    ['温湿度传感器', 'TH-LR LoRa', '只', 180, 40],
    ['独立式光电烟感', 'SD-NB NB-IoT', '只', 150, 50],
  ],
  accessory: [
    ['锂亚电池', 'ER34615 3.6V 19Ah', '只', 45, 300],
    ['NB-IoT 通信模组', 'BC28 B5/B8', '片', 38, 150],
    ['4G Cat.1 通信模组', 'EC800M', '片', 62, 60],
    ['外置吸盘天线', '2m 线长 SMA 接口', '根', 25, 100],
    ['水表控制主板', 'LXSY-E 主控板 V3.2', '块', 120, 40],
    ['阀门电机', 'DN20 阀控电机 3.6V', '个', 85, 30],
    ['不锈钢表箱', '单表位 304', '个', 260, 20],
    ['RS485 转换模块', 'RS485-TTL 隔离型', '个', 35, 25],
    ['表壳防护罩', 'DN20 ABS 防冻', '个', 18, 80],
  ],
  consumable: [
    ['密封圈', 'DN20 EPDM', '个', 1.5, 800],
    ['生料带', '12mm×10m', '卷', 2, 400],
    ['防水胶泥', '500g', '块', 6, 120],
    ['尼龙扎带', '4×200mm 100根/包', '包', 8, 60],
    ['热缩管', 'Φ10 双壁带胶', '米', 1.2, 300],
    ['pH 校准液', 'pH 7.00 500ml', '瓶', 60, 20],
    ['电极清洗液', '500ml', '瓶', 35, 24],
    ['六类网线', 'CAT6 305m/箱', '米', 2.5, 600],
    ['PVC 线管', 'Φ20', '米', 4, 200],
  ],
  tool: [
    ['管钳', '18 寸', '把', 65, 10],
    ['数字万用表', 'UT89X', '台', 220, 6],
    ['信号测试仪', 'NB/4G 场强测试', '台', 1600, 3],
    ['便携式流量校验仪', 'TDS-100H', '台', 9800, 1],
    ['绝缘手套', '10kV', '副', 45, 12],
    ['井盖钩', '加长型', '把', 30, 8],
  ],
};
const TYPE_CODE: Record<string, string> = { device: 'DEV', accessory: 'ACC', consumable: 'CON', tool: 'TOL' };
const SUPPLIERS: Record<string, string[]> = {
  T0001: ['杭州水表厂有限公司', '宁波智联传感科技有限公司', '杭州万通电子有限公司', '浙江五金工具城'],
  T0002: ['苏州环测仪器有限公司', '无锡金通物联有限公司', '苏州市工业园区五金商行'],
};
const LOCATIONS: Record<string, string[]> = {
  T0001: ['运维中心一号仓 A 区', '运维中心一号仓 B 区', '龙井水厂备件间', '下沙园区仓库'],
  T0002: ['工程部仓库', '星海泵站备件间', '东山监测点工具柜'],
};

function materials(random: Random, now: number, tenantCode: string, share: number, creator: string): Row[] {
  const rows: Row[] = [];
  for (const [type, items] of Object.entries(MATERIALS)) {
    items.forEach(([name, specification, unit, price, usual], index) => {
      // The second tenant keeps a smaller store.
      if (random.next() > share) return;
      const warning = Math.max(1, Math.round(usual * 0.25));
      const low = random.next() < 0.18;
      const stock = low ? random.int(0, warning) : random.int(warning + 1, usual * 2);
      const created = now - random.int(60, 400) * DAY_MS;
      rows.push({
        tenant_code: tenantCode,
        code: `WL-${TYPE_CODE[type]}-${String(index + 1).padStart(3, '0')}`,
        name,
        type,
        specification,
        unit,
        stock,
        warning_level: warning,
        unit_price: price,
        supplier: random.pick(SUPPLIERS[tenantCode]),
        location: random.pick(LOCATIONS[tenantCode]),
        remark: low ? '低于预警，已提采购申请' : '',
        created_by: creator,
        created_at: iso(created),
        updated_at: iso(Math.min(now - HOUR_MS, created + random.int(1, 50) * DAY_MS)),
      });
    });
  }
  return rows;
}

export function officeTables(random: Random, today: Date, users: UserTables, timeZone: string): SeedData {
  const now = today.getTime();
  const areaCodes = new Set(flattenOrganizations().map((org) => org.code));
  const areas: Row[] = Object.entries(AREAS)
    .filter(([code]) => areaCodes.has(code))
    .map(([code, area], index) => ({
      organization_code: code,
      area_type: area.type,
      manager_name: random.pick(SURNAMES) + random.pick(GIVEN),
      manager_phone: `13${random.int(5, 9)}${String(random.int(0, 99_999_999)).padStart(8, '0')}`,
      address: area.address,
      longitude: area.longitude,
      latitude: area.latitude,
      acreage: area.acreage,
      remark: index % 4 === 0 ? '24 小时有人值守' : '',
      created_by: code.startsWith('T0001') ? 'tadmin' : 'badmin',
      created_at: iso(now - 420 * DAY_MS),
      updated_at: iso(now - (30 + index * 5) * DAY_MS),
    }));

  const homeOf = new Map(users.userOrganizations.map((row) => [Number(row.user_id), String(row.organization_code)]));
  const people: Person[] = users.users
    .map((user) => ({ id: Number(user.id), loginName: String(user.login_name), organizationCode: homeOf.get(Number(user.id)) ?? '' }))
    .filter((user) => /^T000[12]/.test(user.organizationCode) && user.loginName !== 'newbie')
    .map((user) => ({ id: user.id, loginName: user.loginName, organizationCode: user.organizationCode, tenantCode: user.organizationCode.slice(0, 5) }));
  const idOf = (loginName: string) => Number(users.users.find((user) => user.login_name === loginName)?.id);
  const admins = { T0001: idOf('tadmin'), T0002: idOf('badmin') };
  const office = officeRequests(random, now, people, admins, timeZone);

  // jsonb values as they are (the loader passes each row as JSON).
  const settings: Row[] = [
    { tenant_code: 'T0001', key: 'screenTitle', value: '杭州云联智慧水务监控中心', updated_by: 'tadmin', updated_at: iso(now - 40 * DAY_MS) },
    { tenant_code: 'T0001', key: 'workOrderTimeoutHours', value: 24, updated_by: 'tadmin', updated_at: iso(now - 40 * DAY_MS) },
    { tenant_code: 'T0001', key: 'alarmNotifyChannels', value: ['sms', 'wechat', 'dingtalk'], updated_by: 'tadmin', updated_at: iso(now - 12 * DAY_MS) },
    { tenant_code: 'T0002', key: 'patrolCycleDays', value: 15, updated_by: 'badmin', updated_at: iso(now - 25 * DAY_MS) },
    { tenant_code: 'T0002', key: 'alarmNotifyChannels', value: ['feishu', 'sms'], updated_by: 'badmin', updated_at: iso(now - 25 * DAY_MS) },
  ].filter((row) => !sameSetting(row.value, DEFAULT_TENANT_SETTINGS[row.key as keyof typeof DEFAULT_TENANT_SETTINGS]));

  const store = [...materials(random, now, 'T0001', 1, 'tadmin'), ...materials(random, now, 'T0002', 0.75, 'badmin')].map((row, index) => ({ id: index + 1, ...row }));

  return [
    { table: 'project_area', rows: areas },
    { table: 'office_request', rows: office.requests },
    { table: 'office_request_history', rows: office.history },
    { table: 'text_template', rows: templates(now, { T0001: 'tadmin', T0002: 'badmin' }) },
    { table: 'tenant_setting', rows: settings },
    { table: 'material', rows: store },
  ];
}
