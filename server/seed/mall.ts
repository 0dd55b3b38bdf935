import type { Row, SeedData } from '../db/bulk';
import { addDays, businessDay, startOfDay } from '../domain/businessTime';
import { documentCode } from '../domain/cards';
import { sanitizeHtml } from '../domain/html';
import { discountState, MALL_ORDER_STATE, PAY_TIMEOUT_HOURS, ruleText, settle, transactionNo, type DiscountRule, type MallOrderState } from '../domain/mall';
import { seedGoodsPicture } from './goodsPictures';
import type { DeviceTables } from './devices';
import type { Random } from './prng';

/**
 * The online mall of the demo world (issue 7): the platform's goods — devices with their
 * built-in IoT card, card packages and services, two of them off the shelf — with running, coming
 * and ended discounts; each tenant's addresses and invoice titles; eighteen months of orders in
 * every state, priced by the discounts of their day; the IoT cards of the devices those orders
 * brought (the tenant's installed devices of the goods' product); and invoices issued, waiting
 * and rejected. Pending orders are a few hours old, so they are still payable.
 */

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const iso = (time: number) => new Date(time).toISOString();
const PLATFORM_STAFF = 'operator';

interface SeedGoods {
  name: string;
  category: 'device' | 'card' | 'service';
  model: string;
  spec: string;
  unit: string;
  price: number;
  marketPrice: number | null;
  stock: number;
  freight: number;
  color: string;
  custom: string | null;
  cardsPerUnit: number;
  /** The fleet's product these devices are (their installed cards are the order's cards). */
  product: string | null;
  onShelf: boolean;
  /** How much the tenants buy of it: relative weight and a typical quantity. */
  weight: number;
  quantity: [number, number];
  features: string[];
}

export const GOODS: readonly SeedGoods[] = [
  { name: 'NB-IoT 智能水表 DN20', category: 'device', model: 'YL-WM200', spec: 'DN20 · 光电直读 · 10 年锂亚电池', unit: '台', price: 368, marketPrice: 428, stock: 1860, freight: 30, color: '#1677ff', custom: 'DZ-CMCC-NB-MP1', cardsPerUnit: 1, product: 'PRD-WM-NB', onShelf: true, weight: 10, quantity: [20, 200], features: ['内置中国移动 NB-IoT 物联网卡，开箱即用', '光电直读计量，无磁干扰', '阀控可选，支持远程开关阀', 'IP68 防护，适合井下安装'] },
  { name: 'NB-IoT 智能水表 DN25', category: 'device', model: 'YL-WM200', spec: 'DN25 · 光电直读 · 10 年锂亚电池', unit: '台', price: 398, marketPrice: 458, stock: 940, freight: 30, color: '#1668dc', custom: 'DZ-CMCC-NB-MP1', cardsPerUnit: 1, product: 'PRD-WM-NB', onShelf: true, weight: 6, quantity: [10, 120], features: ['内置中国移动 NB-IoT 物联网卡', '最小读数 0.001 m³', '每日定时上报，异常即时告警'] },
  { name: '4G 电磁流量计 DN100', category: 'device', model: 'YL-FM310', spec: 'DN100 · 精度 0.5 级 · 220V 供电', unit: '台', price: 6800, marketPrice: 7600, stock: 86, freight: 120, color: '#13a8a8', custom: 'DZ-CMCC-4G-PLUG', cardsPerUnit: 1, product: 'PRD-FM-4G', onShelf: true, weight: 3, quantity: [1, 6], features: ['内置中国移动 4G 物联网卡', '正反向流量累计', '支持 Modbus 与 MQTT 双协议'] },
  { name: '4G 电磁流量计 DN200', category: 'device', model: 'YL-FM310', spec: 'DN200 · 精度 0.5 级 · 220V 供电', unit: '台', price: 9200, marketPrice: 10200, stock: 42, freight: 180, color: '#08979c', custom: 'DZ-CMCC-4G-PLUG', cardsPerUnit: 1, product: 'PRD-FM-4G', onShelf: true, weight: 2, quantity: [1, 4], features: ['内置中国移动 4G 物联网卡', '适用于主管网计量', '断电数据保存 10 年'] },
  { name: 'NB-IoT 压力计', category: 'device', model: 'YL-PG100', spec: '量程 0~1.6 MPa · 精度 0.25%FS', unit: '台', price: 980, marketPrice: null, stock: 420, freight: 30, color: '#2f54eb', custom: 'DZ-CTCC-NB-MP1', cardsPerUnit: 1, product: 'PRD-PG-NB', onShelf: true, weight: 5, quantity: [4, 40], features: ['内置中国电信 NB-IoT 物联网卡', '压力越限即时上报', '电池寿命 6 年'] },
  { name: '超声波液位计', category: 'device', model: 'HC-LV50', spec: '量程 0~10 m · 盲区 0.3 m', unit: '台', price: 2350, marketPrice: 2680, stock: 130, freight: 60, color: '#722ed1', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 3, quantity: [2, 12], features: ['非接触测量，适合污水与清水', '温度自动补偿', 'RS485 输出，可接边缘网关'] },
  { name: '多参数水质传感器', category: 'device', model: 'ZS-WQ6', spec: '六参数 · pH/溶解氧/浊度/电导率/温度/余氯', unit: '套', price: 12800, marketPrice: 14500, stock: 24, freight: 150, color: '#389e0d', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 2, quantity: [1, 4], features: ['免试剂在线监测', '自动清洗刷，维护周期 3 个月', 'Modbus RTU 输出'] },
  { name: '温湿度传感器', category: 'device', model: 'YL-TH20', spec: '-40~85℃ · ±0.3℃ · LoRa', unit: '台', price: 168, marketPrice: 198, stock: 2600, freight: 15, color: '#fa8c16', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 5, quantity: [20, 160], features: ['LoRa 组网，单网关可接 500 个节点', '五年电池寿命', '机房、仓库、冷链通用'] },
  { name: 'NB-IoT 独立烟感', category: 'device', model: 'AF-SD01', spec: '光电式 · 85 dB 报警 · 3C 认证', unit: '台', price: 129, marketPrice: 159, stock: 5200, freight: 15, color: '#f5222d', custom: 'DZ-CUCC-NB-PLUG', cardsPerUnit: 1, product: 'PRD-SD-NB', onShelf: true, weight: 8, quantity: [50, 400], features: ['内置中国联通 NB-IoT 物联网卡', '烟雾报警同步推送手机与平台', '低电量、防拆告警'] },
  { name: '边缘计算网关', category: 'device', model: 'YL-GW800', spec: '4G 全网通 · 8 路 RS485 · 2 路网口', unit: '台', price: 3680, marketPrice: 3980, stock: 210, freight: 60, color: '#531dab', custom: 'DZ-CUCC-4G-PLUG', cardsPerUnit: 1, product: 'PRD-GW-4G', onShelf: true, weight: 4, quantity: [1, 10], features: ['内置中国联通 4G 物联网卡', '本地规则引擎，断网续传', '支持 Modbus、DL/T645、BACnet'] },
  { name: 'Cat.1 单相智能电表', category: 'device', model: 'DTSY-C1', spec: '5(60)A · 费控 · 导轨安装', unit: '台', price: 458, marketPrice: 520, stock: 760, freight: 20, color: '#d4b106', custom: 'DZ-CMCC-CAT1-MP2', cardsPerUnit: 1, product: null, onShelf: true, weight: 4, quantity: [10, 80], features: ['内置中国移动 Cat.1 物联网卡', '远程费控拉合闸', '分时计量'] },
  { name: 'Cat.1 远传阀控水表 DN50', category: 'device', model: 'YL-WM500', spec: 'DN50 · 电动球阀 · 外接电源', unit: '台', price: 1280, marketPrice: 1450, stock: 190, freight: 60, color: '#0958d9', custom: 'DZ-CTCC-CAT1-PLUG', cardsPerUnit: 1, product: null, onShelf: true, weight: 3, quantity: [2, 20], features: ['内置中国电信 Cat.1 物联网卡', '大口径商业计量', '阀门状态实时回传'] },
  { name: '4G 视频监控摄像机', category: 'device', model: 'YL-IPC400', spec: '400 万像素 · 红外 50 m · 太阳能可选', unit: '台', price: 899, marketPrice: 1099, stock: 340, freight: 30, color: '#595959', custom: 'DZ-CMCC-4G-PLUG', cardsPerUnit: 1, product: null, onShelf: true, weight: 3, quantity: [2, 16], features: ['内置中国移动 4G 物联网卡', '泵站、闸站无人值守监控', 'H.265 编码，流量更省'] },
  { name: '智能井盖传感器', category: 'device', model: 'YL-MC10', spec: '倾角 + 水位 · 8 年电池', unit: '台', price: 599, marketPrice: null, stock: 480, freight: 30, color: '#876800', custom: 'DZ-CMCC-NB-MP1', cardsPerUnit: 1, product: null, onShelf: true, weight: 3, quantity: [10, 60], features: ['内置中国移动 NB-IoT 物联网卡', '井盖位移、满溢双告警', '免布线安装'] },
  { name: '噪声扬尘监测仪', category: 'device', model: 'YL-ENV8', spec: 'PM2.5/PM10/噪声/温湿度 · 4G', unit: '套', price: 8600, marketPrice: 9800, stock: 3, freight: 200, color: '#7cb305', custom: 'DZ-CMCC-4G-PLUG', cardsPerUnit: 1, product: null, onShelf: true, weight: 1, quantity: [1, 2], features: ['内置中国移动 4G 物联网卡', '工地、园区环境监测', '数据可对接住建监管平台'] },
  { name: 'LoRa 室外网关', category: 'device', model: 'YL-LG200', spec: '8 通道 · IP67 · 以太网回传', unit: '台', price: 2980, marketPrice: null, stock: 0, freight: 60, color: '#8c8c8c', custom: null, cardsPerUnit: 0, product: null, onShelf: false, weight: 1, quantity: [1, 4], features: ['已停产，由边缘计算网关替代'] },
  { name: 'NB-IoT 智能水表（旧款）', category: 'device', model: 'YL-WM100', spec: 'DN20 · 机械计数 + 霍尔采样', unit: '台', price: 298, marketPrice: null, stock: 60, freight: 30, color: '#bfbfbf', custom: 'DZ-CMCC-NB-MP1', cardsPerUnit: 1, product: 'PRD-WM-NB', onShelf: false, weight: 2, quantity: [20, 100], features: ['库存清仓，暂停销售'] },
  { name: '中国移动 NB-IoT 物联网卡 100 张装', category: 'card', model: 'DZ-CMCC-NB-MP1', spec: '贴片卡 · 30MB/月 · 含首年服务', unit: '包', price: 1200, marketPrice: 1500, stock: 9, freight: 0, color: '#0050b3', custom: 'DZ-CMCC-NB-MP1', cardsPerUnit: 100, product: null, onShelf: true, weight: 3, quantity: [1, 3], features: ['工业级贴片卡，耐高低温', '定向流量，平台统一管理', '到货后 90 天测试期'] },
  { name: '中国移动 Cat.1 物联网卡 50 张装', category: 'card', model: 'DZ-CMCC-CAT1-MP2', spec: '贴片卡 · 100MB/月 · 含首年服务', unit: '包', price: 1500, marketPrice: 1750, stock: 5, freight: 0, color: '#003eb3', custom: 'DZ-CMCC-CAT1-MP2', cardsPerUnit: 50, product: null, onShelf: true, weight: 2, quantity: [1, 2], features: ['适用于电表、阀控水表', '流量池共享', '到货后 90 天测试期'] },
  { name: '中国电信 NB-IoT 物联网卡 100 张装', category: 'card', model: 'DZ-CTCC-NB-MP1', spec: '贴片卡 · 30MB/月 · 含首年服务', unit: '包', price: 1080, marketPrice: 1300, stock: 2, freight: 0, color: '#1d39c4', custom: 'DZ-CTCC-NB-MP1', cardsPerUnit: 100, product: null, onShelf: true, weight: 1, quantity: [1, 2], features: ['电信 NB 网络覆盖好', '深度覆盖地下管网', '到货后 90 天测试期'] },
  { name: '中国联通 4G 物联网卡 20 张装', category: 'card', model: 'DZ-CUCC-4G-PLUG', spec: '插拔卡 · 1GB/月 · 含首年服务', unit: '包', price: 1920, marketPrice: 2200, stock: 10, freight: 0, color: '#10239e', custom: 'DZ-CUCC-4G-PLUG', cardsPerUnit: 20, product: null, onShelf: true, weight: 1, quantity: [1, 3], features: ['适用于网关、摄像机', '大流量套餐', '到货后 90 天测试期'] },
  { name: '中国移动 4G 物联网卡 20 张装', category: 'card', model: 'DZ-CMCC-4G-PLUG', spec: '插拔卡 · 500MB/月 · 含首年服务', unit: '包', price: 1440, marketPrice: null, stock: 15, freight: 0, color: '#061178', custom: 'DZ-CMCC-4G-PLUG', cardsPerUnit: 20, product: null, onShelf: true, weight: 1, quantity: [1, 3], features: ['适用于流量计、监测仪', '到货后 90 天测试期'] },
  { name: '设备上门安装调试', category: 'service', model: '', spec: '按台计费 · 含接线、配网、平台接入', unit: '台', price: 80, marketPrice: 120, stock: 99999, freight: 0, color: '#08979c', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 5, quantity: [10, 120], features: ['持证工程师上门', '安装后现场验收', '江浙沪 72 小时内上门'] },
  { name: '平台年度运维服务（100 台设备）', category: 'service', model: '', spec: '7×24 监控 · 月度巡检报告', unit: '年', price: 6000, marketPrice: null, stock: 9999, freight: 0, color: '#006d75', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 2, quantity: [1, 3], features: ['告警 15 分钟内响应', '每月设备健康报告', '专属客户经理'] },
  { name: '数据大屏定制开发', category: 'service', model: '', spec: '1 套大屏 · 3 轮修改 · 30 个工作日', unit: '项', price: 28000, marketPrice: null, stock: 99, freight: 0, color: '#c41d7f', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 1, quantity: [1, 1], features: ['按需求定制指标与布局', '支持对接第三方系统', '交付源码与部署文档'] },
  { name: '设备延保服务 1 年', category: 'service', model: '', spec: '按台计费 · 质保期满后延长 1 年', unit: '台', price: 45, marketPrice: null, stock: 99999, freight: 0, color: '#237804', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 3, quantity: [20, 200], features: ['非人为损坏免费维修', '备机先行更换', '全国联保'] },
  { name: '短信告警包 10000 条', category: 'service', model: '', spec: '有效期 1 年 · 三网通用', unit: '包', price: 500, marketPrice: 600, stock: 9999, freight: 0, color: '#d46b08', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 3, quantity: [1, 5], features: ['告警短信秒级到达', '支持自定义签名', '用量实时可查'] },
  { name: '现场勘察服务', category: 'service', model: '', spec: '按次计费 · 出具勘察报告', unit: '次', price: 1500, marketPrice: null, stock: 999, freight: 0, color: '#ad4e00', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 2, quantity: [1, 3], features: ['信号测试与点位规划', '3 个工作日内出具报告'] },
  { name: '平台操作远程培训', category: 'service', model: '', spec: '2 课时 · 线上直播 · 含回放', unit: '次', price: 800, marketPrice: null, stock: 999, freight: 0, color: '#5b8c00', custom: null, cardsPerUnit: 0, product: null, onShelf: true, weight: 1, quantity: [1, 2], features: ['覆盖设备管理、告警、工单全流程', '课后提供操作手册'] },
];

const goodsCode = (index: number) => `GD${String(index + 1).padStart(5, '0')}`;

function descriptionOf(goods: SeedGoods): string {
  const items = goods.features.map((feature) => `<li>${feature}</li>`).join('');
  const spec = goods.model ? `<p><strong>型号：</strong>${goods.model} <strong>规格：</strong>${goods.spec}</p>` : `<p><strong>服务内容：</strong>${goods.spec}</p>`;
  return sanitizeHtml(`<h3>${goods.name}</h3>${spec}<ul>${items}</ul><p>开具增值税普通发票或专用发票，下单后在“我的发票”中申请。</p>`);
}

interface SeedDiscount {
  name: string;
  type: 'amount' | 'rate';
  scope: 'goods' | 'order';
  goods: number[];
  threshold: number;
  reduce: number | null;
  rate: number | null;
  /** Days from today. */
  start: number;
  end: number;
  remark: string;
}

const DISCOUNTS: readonly SeedDiscount[] = [
  { name: '年中采购节', type: 'amount', scope: 'order', goods: [], threshold: 8000, reduce: 800, rate: null, start: -170, end: -150, remark: '6 月采购季全场活动' },
  { name: '流量计专享', type: 'amount', scope: 'goods', goods: [2, 3], threshold: 20000, reduce: 2500, rate: null, start: -300, end: -200, remark: '' },
  { name: '国庆限时折扣', type: 'rate', scope: 'order', goods: [], threshold: 1000, reduce: null, rate: 0.95, start: -420, end: -412, remark: '' },
  { name: '双十一物联网设备节', type: 'amount', scope: 'order', goods: [], threshold: 5000, reduce: 500, rate: null, start: -390, end: -375, remark: '去年双十一活动' },
  { name: '年终采购季', type: 'amount', scope: 'order', goods: [], threshold: 10000, reduce: 1200, rate: null, start: -20, end: 40, remark: '全场满 10000 元减 1200 元，不与其他优惠同享' },
  { name: '智能水表限时 9 折', type: 'rate', scope: 'goods', goods: [0, 1], threshold: 0, reduce: null, rate: 0.9, start: -45, end: 30, remark: '' },
  { name: '烟感安装季', type: 'rate', scope: 'goods', goods: [8], threshold: 2000, reduce: null, rate: 0.88, start: -30, end: 60, remark: '满 2000 元 8.8 折' },
  { name: '物联网卡套餐 95 折', type: 'rate', scope: 'goods', goods: [17, 18, 19, 20, 21], threshold: 0, reduce: null, rate: 0.95, start: -90, end: 90, remark: '' },
  { name: '网关新品立减', type: 'amount', scope: 'goods', goods: [9], threshold: 0, reduce: 300, rate: null, start: -60, end: 20, remark: '每单立减 300 元' },
  { name: '老客户回馈', type: 'amount', scope: 'order', goods: [], threshold: 50000, reduce: 6000, rate: null, start: -120, end: 120, remark: '' },
  { name: '春季开工采购', type: 'amount', scope: 'order', goods: [], threshold: 3000, reduce: 200, rate: null, start: 15, end: 75, remark: '即将开始' },
  { name: '运维服务续费 85 折', type: 'rate', scope: 'goods', goods: [23], threshold: 0, reduce: null, rate: 0.85, start: 30, end: 120, remark: '' },
];

interface TenantBook {
  tenant: string;
  buyer: string;
  projects: string[];
  addresses: Array<{ receiver: string; phone: string; region: string; detail: string; postcode: string }>;
  titles: Array<{ name: string; taxNo: string; bankName: string; bankAccount: string; address: string; phone: string }>;
  orders: number;
  /** Orders in the states that need recent times. */
  pending: number;
  paid: number;
  shipped: number;
}

const TENANTS: readonly TenantBook[] = [
  {
    tenant: 'T0001',
    buyer: 'tadmin',
    projects: ['T0001P01', 'T0001P02'],
    addresses: [
      { receiver: '张伟', phone: '13857112345', region: '浙江省 杭州市 西湖区', detail: '文三路 398 号东信大厦 12 楼', postcode: '310013' },
      { receiver: '李强', phone: '13967198765', region: '浙江省 杭州市 西湖区', detail: '灵隐路 18 号灵隐加压泵站', postcode: '310013' },
      { receiver: '王芳', phone: '15088776655', region: '浙江省 杭州市 钱塘区', detail: '下沙街道 6 号大街 452 号一号厂房', postcode: '310018' },
      { receiver: '陈磊', phone: '18072345678', region: '浙江省 杭州市 上城区', detail: '湖滨路 23 号湖滨监测站', postcode: '310006' },
      { receiver: '赵敏', phone: '13588009911', region: '浙江省 杭州市 余杭区', detail: '仓前街道文一西路 1818 号 2 号仓', postcode: '311121' },
    ],
    titles: [
      { name: '杭州云联科技有限公司', taxNo: '91330106MA2H3K5X7Q', bankName: '招商银行杭州文三路支行', bankAccount: '5719 0812 3456 789', address: '杭州市西湖区文三路 398 号', phone: '0571-88234567' },
      { name: '杭州云联科技有限公司钱塘分公司', taxNo: '91330114MA2KD8P31N', bankName: '', bankAccount: '', address: '', phone: '' },
    ],
    orders: 150,
    pending: 4,
    paid: 5,
    shipped: 6,
  },
  {
    tenant: 'T0002',
    buyer: 'badmin',
    projects: ['T0002P01', 'T0002P02'],
    addresses: [
      { receiver: '周杰', phone: '13962118888', region: '江苏省 苏州市 工业园区', detail: '星湖街 328 号创意产业园 8 幢', postcode: '215123' },
      { receiver: '吴磊', phone: '18915506677', region: '江苏省 苏州市 吴中区', detail: '东山镇启园路 6 号东山监测点', postcode: '215107' },
      { receiver: '孙丽', phone: '15250123456', region: '江苏省 苏州市 工业园区', detail: '金鸡湖大道 88 号星海泵站', postcode: '215021' },
      { receiver: '钱伟', phone: '13771889900', region: '江苏省 苏州市 相城区', detail: '阳澄湖西路 120 号', postcode: '215131' },
    ],
    titles: [
      { name: '苏州智水环境科技有限公司', taxNo: '91320594MA1WXYZ12K', bankName: '中国银行苏州工业园区支行', bankAccount: '5378 6612 0918', address: '苏州工业园区星湖街 328 号', phone: '0512-62881234' },
    ],
    orders: 90,
    pending: 3,
    paid: 3,
    shipped: 4,
  },
];

const REMARKS = ['', '', '', '', '请工作日送货', '到货前请电话联系', '项目急用，请尽快发货', '请随货附装箱清单', '分两批送到项目现场也可'];
const EXPRESS: ReadonlyArray<{ company: string; number: (random: Random) => string }> = [
  { company: 'sf', number: (random) => `SF${random.int(1_000_000, 9_999_999)}${random.int(100_000, 999_999)}` },
  { company: 'jd', number: (random) => `JDVA${random.int(10_000_000, 99_999_999)}${random.int(100, 999)}` },
  { company: 'zto', number: (random) => `7531${random.int(10_000_000, 99_999_999)}` },
  { company: 'ems', number: (random) => `1178${random.int(100_000_000, 999_999_999)}` },
];

const SOLD_STATES: ReadonlySet<MallOrderState> = new Set([MALL_ORDER_STATE.paid, MALL_ORDER_STATE.shipped, MALL_ORDER_STATE.completed]);

interface DraftOrder {
  tenant: TenantBook;
  createdAt: number;
  state: MallOrderState;
  lines: Array<{ goods: number; quantity: number }>;
}

/** The mall's tables; `fleet` and the sim_card rows give the installed devices' cards. */
export function mallTables(random: Random, today: Date, fleet: DeviceTables, sims: readonly Row[], timeZone: string): SeedData {
  const now = today.getTime();
  const day = (offset: number) => now + offset * DAY_MS;
  /** Midnight (of `timeZone`) of the business day `offset` days from today. */
  const midnight = (offset: number) => startOfDay(addDays(businessDay(today, timeZone), offset), timeZone).getTime();

  // ── discounts, as rules with their validity ─────────────────────────────────────────────────
  const discounts = DISCOUNTS.map((discount, index) => ({
    ...discount,
    code: `YH${String(index + 1).padStart(5, '0')}`,
    startAt: Math.floor(day(discount.start) / HOUR_MS) * HOUR_MS,
    endAt: Math.floor(day(discount.end) / HOUR_MS) * HOUR_MS,
  }));
  const ruleOf = (discount: (typeof discounts)[number]): DiscountRule => ({
    code: discount.code,
    name: discount.name,
    type: discount.type,
    scope: discount.scope,
    goodsCodes: discount.goods.map(goodsCode),
    thresholdFen: discount.threshold * 100,
    reduceFen: discount.reduce === null ? null : discount.reduce * 100,
    rate: discount.rate,
  });
  const runningAt = (time: number) => discounts.filter((d) => discountState(new Date(d.startAt), new Date(d.endAt), new Date(time)) === 'active').map(ruleOf);

  // ── orders: when, what, and where each stands ──────────────────────────────────────────────
  const onShelf = GOODS.map((goods, index) => ({ goods, index })).filter(({ goods }) => goods.onShelf || goods.name.includes('旧款'));
  const totalWeight = onShelf.reduce((sum, { goods }) => sum + goods.weight, 0);
  const pickGoods = (): number => {
    let roll = random.next() * totalWeight;
    for (const { goods, index } of onShelf) {
      roll -= goods.weight;
      if (roll < 0) return index;
    }
    return onShelf[onShelf.length - 1].index;
  };
  const drafts: DraftOrder[] = [];
  for (const tenant of TENANTS) {
    const recentStates: Array<[MallOrderState, number, [number, number]]> = [
      [MALL_ORDER_STATE.pendingPayment, tenant.pending, [1, 10]],
      [MALL_ORDER_STATE.paid, tenant.paid, [14, 60]],
      [MALL_ORDER_STATE.shipped, tenant.shipped, [60, 130]],
    ];
    for (const [state, count, hours] of recentStates) {
      for (let i = 0; i < count; i += 1) drafts.push({ tenant, state, createdAt: now - random.int(hours[0], hours[1]) * HOUR_MS - random.int(0, 59) * 60_000, lines: [] });
    }
    const older = tenant.orders - tenant.pending - tenant.paid - tenant.shipped;
    for (let i = 0; i < older; i += 1) {
      const roll = random.next();
      const state = roll < 0.1 ? MALL_ORDER_STATE.cancelled : roll < 0.14 ? MALL_ORDER_STATE.refunded : MALL_ORDER_STATE.completed;
      // Older orders thin out: the mall grew over the eighteen months.
      const age = Math.floor(6 + 540 * random.next() ** 1.4);
      drafts.push({ tenant, state, createdAt: midnight(-age) + random.int(8 * 60, 19 * 60) * 60_000, lines: [] });
    }
  }
  drafts.sort((a, b) => a.createdAt - b.createdAt);
  for (const draft of drafts) {
    const count = random.next() < 0.55 ? 1 : random.next() < 0.7 ? 2 : 3;
    const chosen = new Set<number>();
    while (chosen.size < count) chosen.add(pickGoods());
    draft.lines = [...chosen].map((goods) => {
      const [low, high] = GOODS[goods].quantity;
      return { goods, quantity: random.int(low, high) };
    });
    // The old water meter left the shelf a year ago: only older orders bought it.
    if (draft.createdAt > day(-360)) draft.lines = draft.lines.filter((line) => !GOODS[line.goods].name.includes('旧款'));
    if (draft.lines.length === 0) draft.lines = [{ goods: 0, quantity: random.int(20, 60) }];
  }

  // ── the rows ────────────────────────────────────────────────────────────────────────────────
  const addressRows: Row[] = [];
  const titleRows: Row[] = [];
  let addressId = 0;
  let titleId = 0;
  const titlesOf = new Map<string, Row[]>();
  for (const tenant of TENANTS) {
    tenant.addresses.forEach((address, index) => {
      addressId += 1;
      const created = iso(day(-400 + index * 37));
      addressRows.push({
        id: addressId,
        tenant_code: tenant.tenant,
        receiver: address.receiver,
        phone: address.phone,
        region: address.region,
        detail: address.detail,
        postcode: address.postcode,
        is_default: index === 0,
        created_by: tenant.buyer,
        created_at: created,
        updated_at: created,
      });
    });
    const titles: Row[] = tenant.titles.map((title, index) => {
      titleId += 1;
      const created = iso(day(-420 + index * 60));
      return {
        id: titleId,
        tenant_code: tenant.tenant,
        name: title.name,
        tax_no: title.taxNo,
        bank_name: title.bankName,
        bank_account: title.bankAccount,
        address: title.address,
        phone: title.phone,
        created_by: tenant.buyer,
        created_at: created,
        updated_at: created,
      };
    });
    titleRows.push(...titles);
    titlesOf.set(tenant.tenant, titles);
  }

  const sold = new Map<number, number>();
  const reserved = new Map<number, number>();
  const orderRows: Row[] = [];
  const itemRows: Row[] = [];
  const invoiceRows: Row[] = [];
  const cardRows: Row[] = [];
  let invoiceId = 0;

  // The tenants' installed devices of each product, oldest first, with their cards.
  const cardOfDevice = new Map<string, string>();
  for (const sim of sims) if (typeof sim.device_code === 'string' && typeof sim.iccid === 'string') cardOfDevice.set(sim.device_code, sim.iccid);
  const installed = new Map<string, Array<{ code: string; createdAt: number; iccid: string }>>();
  for (const device of fleet.devices) {
    const iccid = cardOfDevice.get(String(device.code));
    if (!iccid || device.deleted_at !== null) continue;
    const key = `${String(device.tenant_code)} ${String(device.product_code)}`;
    const list = installed.get(key) ?? [];
    list.push({ code: String(device.code), createdAt: new Date(String(device.created_at)).getTime(), iccid });
    installed.set(key, list);
  }
  for (const list of installed.values()) list.sort((a, b) => a.createdAt - b.createdAt || a.code.localeCompare(b.code));
  const usedCards = new Set<string>();

  drafts.forEach((draft, index) => {
    const id = index + 1;
    const tenant = draft.tenant;
    const created = draft.createdAt;
    const code = documentCode('MO', new Date(created), id, timeZone);
    const lines = draft.lines.map((line) => ({
      goodsCode: goodsCode(line.goods),
      unitPriceFen: GOODS[line.goods].price * 100,
      quantity: line.quantity,
      freightFen: GOODS[line.goods].freight * 100,
    }));
    const settlement = settle(lines, runningAt(created), undefined);
    const address = random.pick(tenant.addresses);
    const organization = random.next() < 0.7 ? tenant.tenant : random.pick(tenant.projects);
    const paid = draft.state !== MALL_ORDER_STATE.pendingPayment && !(draft.state === MALL_ORDER_STATE.cancelled);
    const paidAt = paid ? created + random.int(3, 90) * 60_000 : null;
    const method = random.next() < 0.62 ? 'wechat' : 'alipay';
    const shipping = draft.state === MALL_ORDER_STATE.shipped || draft.state === MALL_ORDER_STATE.completed;
    const shippedAt = shipping && paidAt !== null ? Math.min(paidAt + random.int(4, 40) * HOUR_MS, now - 2 * HOUR_MS) : null;
    const receivedAt = draft.state === MALL_ORDER_STATE.completed && shippedAt !== null ? shippedAt + random.int(30, 90) * HOUR_MS : null;
    const express = random.pick(EXPRESS);
    const timeout = random.next() < 0.5;
    const cancelledAt =
      draft.state === MALL_ORDER_STATE.cancelled
        ? timeout
          ? created + PAY_TIMEOUT_HOURS * HOUR_MS
          : created + random.int(5, 300) * 60_000
        : draft.state === MALL_ORDER_STATE.refunded && paidAt !== null
          ? paidAt + random.int(1, 20) * HOUR_MS
          : null;
    const cancel =
      draft.state === MALL_ORDER_STATE.cancelled
        ? timeout
          ? { by: '系统', reason: '超时未支付，系统自动取消' }
          : { by: tenant.buyer, reason: random.pick(['项目预算调整', '下错规格，重新下单', '改为线下合同采购']) }
        : draft.state === MALL_ORDER_STATE.refunded
          ? random.next() < 0.5
            ? { by: tenant.buyer, reason: random.pick(['项目延期，暂不需要', '数量有误，重新下单']) }
            : { by: PLATFORM_STAFF, reason: '缺货，与客户协商后退款' }
          : null;
    orderRows.push({
      id,
      code,
      tenant_code: tenant.tenant,
      organization_code: organization,
      state: draft.state,
      goods_amount: settlement.goodsFen / 100,
      discount_amount: settlement.discountFen / 100,
      freight_amount: settlement.freightFen / 100,
      pay_amount: settlement.payFen / 100,
      discount_code: settlement.applied?.rule.code ?? null,
      discount_name: settlement.applied ? `${settlement.applied.rule.name}（${ruleText(settlement.applied.rule)}）` : '',
      receiver: address.receiver,
      receiver_phone: address.phone,
      address: `${address.region} ${address.detail}`,
      remark: random.pick(REMARKS),
      buyer: tenant.buyer,
      created_at: iso(created),
      pay_deadline: iso(created + PAY_TIMEOUT_HOURS * HOUR_MS),
      pay_method: paidAt === null ? null : method,
      pay_no: paidAt === null ? null : transactionNo(method, new Date(paidAt), id, timeZone),
      paid_at: paidAt === null ? null : iso(paidAt),
      express_company: shippedAt === null ? null : express.company,
      express_no: shippedAt === null ? null : express.number(random),
      shipped_at: shippedAt === null ? null : iso(shippedAt),
      shipped_by: shippedAt === null ? null : PLATFORM_STAFF,
      received_at: receivedAt === null ? null : iso(receivedAt),
      cancelled_at: cancelledAt === null ? null : iso(cancelledAt),
      cancelled_by: cancel?.by ?? null,
      cancel_reason: cancel?.reason ?? null,
      refunded_at: draft.state === MALL_ORDER_STATE.refunded && cancelledAt !== null ? iso(cancelledAt) : null,
      updated_at: iso(Math.max(created, paidAt ?? 0, shippedAt ?? 0, receivedAt ?? 0, cancelledAt ?? 0)),
    });
    for (const line of draft.lines) {
      const goods = GOODS[line.goods];
      itemRows.push({
        order_code: code,
        goods_code: goodsCode(line.goods),
        goods_name: goods.name,
        category: goods.category,
        spec: goods.spec,
        image: seedGoodsPicture(goods.name, goods.model || goods.name.slice(0, 8), goods.color),
        unit: goods.unit,
        unit_price: goods.price,
        quantity: line.quantity,
        amount: goods.price * line.quantity,
      });
      if (SOLD_STATES.has(draft.state)) sold.set(line.goods, (sold.get(line.goods) ?? 0) + line.quantity);
      if (draft.state === MALL_ORDER_STATE.pendingPayment) reserved.set(line.goods, (reserved.get(line.goods) ?? 0) + line.quantity);
      // The devices this order brought, installed since: their cards are the order's cards.
      if (shippedAt !== null && goods.product) {
        const candidates = installed.get(`${tenant.tenant} ${goods.product}`) ?? [];
        let taken = 0;
        for (const device of candidates) {
          if (taken >= line.quantity) break;
          if (device.createdAt < shippedAt || usedCards.has(device.iccid)) continue;
          usedCards.add(device.iccid);
          cardRows.push({ order_code: code, iccid: device.iccid, goods_code: goodsCode(line.goods), assigned_at: iso(shippedAt) });
          taken += 1;
        }
      }
    }

    // Invoices: most completed orders older than ten days have theirs; recent ones are waiting.
    const titles = titlesOf.get(tenant.tenant) ?? [];
    const invoiceable = paidAt !== null && draft.state !== MALL_ORDER_STATE.refunded && settlement.payFen > 0;
    const roll = random.next();
    if (invoiceable && titles.length && (draft.state === MALL_ORDER_STATE.completed ? roll < 0.78 : roll < 0.3)) {
      const title = titles[random.next() < 0.8 ? 0 : titles.length - 1];
      const special = title === titles[0] && random.next() < 0.55;
      const appliedAt = (receivedAt ?? paidAt ?? created) + random.int(2, 72) * HOUR_MS;
      if (appliedAt < now - HOUR_MS) {
        const old = now - appliedAt > 6 * DAY_MS;
        const rejected = old && random.next() < 0.08;
        const addInvoice = (state: 'applied' | 'issued' | 'rejected', at: number) => {
          invoiceId += 1;
          const issuedAt = state === 'issued' ? Math.min(at + random.int(24, 120) * HOUR_MS, now - HOUR_MS) : null;
          invoiceRows.push({
            id: invoiceId,
            code: documentCode('FP', new Date(at), invoiceId, timeZone),
            tenant_code: tenant.tenant,
            organization_code: organization,
            order_code: code,
            title_id: Number(title.id),
            invoice_type: special ? 'special' : 'normal',
            title_name: String(title.name),
            tax_no: String(title.tax_no),
            bank_name: String(title.bank_name),
            bank_account: String(title.bank_account),
            title_address: String(title.address),
            title_phone: String(title.phone),
            amount: settlement.payFen / 100,
            content: '物联网设备及服务费',
            email: random.next() < 0.6 ? `finance@${tenant.tenant === 'T0001' ? 'yunlian-iot' : 'zhishui-env'}.com` : '',
            remark: '',
            state,
            invoice_no: issuedAt === null ? null : `${random.int(10_000_000, 99_999_999)}`,
            issued_at: issuedAt === null ? null : iso(issuedAt),
            reject_reason: state === 'rejected' ? '专票开户行信息与税务登记不一致，请核对后重新申请' : null,
            applied_by: tenant.buyer,
            created_at: iso(at),
            updated_at: iso(issuedAt ?? at),
          });
        };
        if (rejected) {
          addInvoice('rejected', appliedAt);
          const again = appliedAt + random.int(24, 96) * HOUR_MS;
          if (again < now - HOUR_MS) addInvoice(now - again > 6 * DAY_MS ? 'issued' : 'applied', again);
        } else {
          addInvoice(old ? 'issued' : 'applied', appliedAt);
        }
      }
    }
  });

  const goodsRows: Row[] = GOODS.map((goods, index) => {
    const created = day(-560 + index * 7);
    const caption = goods.model || goods.name.slice(0, 8);
    return {
      id: index + 1,
      code: goodsCode(index),
      name: goods.name,
      category: goods.category,
      model: goods.model,
      spec: goods.spec,
      unit: goods.unit,
      price: goods.price,
      market_price: goods.marketPrice,
      stock: goods.stock,
      // the mall's sales before these orders, and theirs
      sales: (sold.get(index) ?? 0) + Math.round(goods.weight * random.int(8, 40)),
      freight: goods.freight,
      images: [
        seedGoodsPicture(goods.name, caption, goods.color),
        seedGoodsPicture(goods.name, goods.category === 'service' ? '服务说明' : '产品细节', goods.color),
        seedGoodsPicture(goods.name, goods.category === 'service' ? '服务流程' : '包装清单', goods.color),
      ],
      description: descriptionOf(goods),
      card_custom_code: goods.custom,
      cards_per_unit: goods.cardsPerUnit,
      state: goods.onShelf ? 'on_shelf' : 'off_shelf',
      sort: index + 1,
      created_by: PLATFORM_STAFF,
      created_at: iso(created),
      updated_at: iso(goods.onShelf ? created : day(-random.int(200, 360))),
      shelved_at: goods.onShelf ? iso(created + DAY_MS) : null,
      deleted_at: null,
    };
  });
  // What the pending orders hold is out of the stock already.
  for (const [index, quantity] of reserved) goodsRows[index].stock = Math.max(0, Number(goodsRows[index].stock) - quantity);

  const discountRows: Row[] = discounts.map((discount, index) => ({
    id: index + 1,
    code: discount.code,
    name: discount.name,
    type: discount.type,
    scope: discount.scope,
    goods_codes: discount.goods.map(goodsCode),
    threshold: discount.threshold,
    reduce_amount: discount.reduce,
    rate: discount.rate,
    start_at: iso(discount.startAt),
    end_at: iso(discount.endAt),
    remark: discount.remark,
    created_by: PLATFORM_STAFF,
    created_at: iso(discount.startAt - 7 * DAY_MS),
    updated_at: iso(discount.startAt - 7 * DAY_MS),
  }));

  return [
    { table: 'mall_goods', rows: goodsRows },
    { table: 'mall_discount', rows: discountRows },
    { table: 'mall_address', rows: addressRows },
    { table: 'mall_order', rows: orderRows },
    { table: 'mall_order_item', rows: itemRows.map((row, index) => ({ id: index + 1, ...row })) },
    { table: 'mall_order_card', rows: cardRows },
    { table: 'invoice_title', rows: titleRows },
    { table: 'invoice', rows: invoiceRows },
  ];
}
