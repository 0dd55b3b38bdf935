// The data contracts under schemas/: the operation catalogue, the seed menu tree and the seed
// dictionaries. Each file against its JSON Schema, then what a JSON Schema cannot say: the
// catalogue covers every call of SPEC §7 in SPEC's spellings, menu buttons name button-gated
// operations (and every button-gated operation has a button), the menu covers every view area and
// embedded route of SPEC §2, roles narrow down the tree, and dictionaries are unambiguous.
import Ajv2020 from 'ajv/dist/2020';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MENU_ICONS } from '../../src/frame/menuIcons';

const root = new URL('../..', import.meta.url).pathname;

function readJson(file: string): unknown {
  return JSON.parse(readFileSync(`${root}${file}`, 'utf8')) as unknown;
}

type Role =
  | 'TENANT_ADMIN'
  | 'ROLE_TENANT_ORDINARY'
  | 'ROLE_TENANT_REPAIR'
  | 'ROLE_TENANT_PATROL'
  | 'ROLE_REPAIR_IMPLEMENT'
  | 'PLATFORM_ADMIN'
  | 'PLATFORM_OPERATOR';

interface Operation {
  path: string;
  kind: 'call' | 'page' | 'blob' | 'upload' | 'get';
  title: string;
  access?: 'public' | 'token' | 'dev';
  param?: 'string';
  button?: boolean;
}

interface MenuButton {
  code: string;
  name: string;
  url: string;
  roles?: Role[];
}

interface MenuEntry {
  code: string;
  name: string;
  icon?: string;
  group?: string;
  roles?: Role[];
  url?: string;
  view?: string;
  shown?: boolean;
  cached?: boolean;
  buttons?: MenuButton[];
  children?: MenuEntry[];
}

interface Dictionary {
  dictType: string;
  dictName: string;
  items: Array<{ value: string; label: string }>;
}

const operations = readJson('schemas/operations.json') as Record<string, Operation>;
const menus = (readJson('schemas/menus.json') as { menus: MenuEntry[] }).menus;
const dictionaries = (readJson('schemas/dictionaries.json') as { dictionaries: Dictionary[] }).dictionaries;

const ROLES: Role[] = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT', 'PLATFORM_ADMIN', 'PLATFORM_OPERATOR'];
const GROUPS = ['internet', 'project', 'platform', 'system', 'basics', 'mall'];

/** A menu entry with what it inherits resolved: its group, its roles and its parent. */
interface ResolvedEntry {
  entry: MenuEntry;
  group: string;
  roles: Role[];
  parent: ResolvedEntry | null;
  pointer: string;
}

function resolveMenus(entries: MenuEntry[]): ResolvedEntry[] {
  const out: ResolvedEntry[] = [];
  const walk = (list: MenuEntry[], parent: ResolvedEntry | null, pointer: string) =>
    list.forEach((entry, index) => {
      const resolved: ResolvedEntry = {
        entry,
        group: parent?.group ?? entry.group ?? '',
        roles: entry.roles ?? parent?.roles ?? [],
        parent,
        pointer: `${pointer}/${index}`,
      };
      out.push(resolved);
      walk(entry.children ?? [], resolved, `${resolved.pointer}/children`);
    });
  walk(entries, null, '/menus');
  return out;
}

const resolved = resolveMenus(menus);
const leaves = resolved.filter((r) => r.entry.url !== undefined);
const buttons = resolved.flatMap((r) => (r.entry.buttons ?? []).map((button) => ({ button, menu: r, roles: button.roles ?? r.roles })));
const byUrl = new Map(leaves.map((r) => [r.entry.url, r]));

function validator(schemaFile: string) {
  // strict: the schemas themselves must be free of unknown keywords and loose types.
  return new Ajv2020({ allErrors: true, strict: true, strictRequired: false }).compile(readJson(schemaFile) as object);
}

function errorsOf(schemaFile: string, value: unknown): string[] {
  const validate = validator(schemaFile);
  return validate(value) ? [] : (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message ?? ''}`);
}

const clone = <T>(value: T): T => structuredClone(value);

describe('the data files match their JSON Schemas', () => {
  it.each([
    ['schemas/operations.json', 'schemas/operations.schema.json'],
    ['schemas/menus.json', 'schemas/menus.schema.json'],
    ['schemas/dictionaries.json', 'schemas/dictionaries.schema.json'],
  ])('%s', (file, schema) => {
    expect(errorsOf(schema, readJson(file))).toEqual([]);
  });

  it('the operation schema rejects a bad name, path, kind, title, access, param or an unknown field', () => {
    const schema = 'schemas/operations.schema.json';
    const good = { path: '/device/_page', kind: 'page', title: '设备分页列表' };
    expect(errorsOf(schema, { 'device.page': good })).toEqual([]);
    expect(errorsOf(schema, { device: good })).not.toEqual([]);
    expect(errorsOf(schema, { 'Device.page': good })).not.toEqual([]);
    expect(errorsOf(schema, { 'device.page': { ...good, path: 'device/_page' } })).not.toEqual([]);
    expect(errorsOf(schema, { 'device.page': { ...good, path: '/device/_page?x=1' } })).not.toEqual([]);
    expect(errorsOf(schema, { 'device.page': { ...good, kind: 'put' } })).not.toEqual([]);
    expect(errorsOf(schema, { 'device.page': { ...good, title: '' } })).not.toEqual([]);
    expect(errorsOf(schema, { 'device.page': { ...good, access: 'private' } })).not.toEqual([]);
    expect(errorsOf(schema, { 'device.page': { ...good, param: 'string' } })).not.toEqual([]);
    expect(errorsOf(schema, { 'device.page': { ...good, button: 'yes' } })).not.toEqual([]);
    expect(errorsOf(schema, { 'device.page': { ...good, method: 'POST' } })).not.toEqual([]);
    expect(errorsOf(schema, { 'device.insert': { path: '/device/_insert', kind: 'call', title: '新增', button: true, access: 'public' } })).not.toEqual([]);
  });

  it('the menu schema rejects a child with a group, a folder with a url, a leaf without a view and unknown fields', () => {
    const schema = 'schemas/menus.schema.json';
    const childWithGroup = clone({ menus });
    childWithGroup.menus[1].children![0].group = 'internet';
    expect(errorsOf(schema, childWithGroup)).not.toEqual([]);
    const folderWithUrl = clone({ menus });
    folderWithUrl.menus[1].url = '/device';
    expect(errorsOf(schema, folderWithUrl)).not.toEqual([]);
    const leafWithoutView = clone({ menus });
    delete leafWithoutView.menus[0].view;
    expect(errorsOf(schema, leafWithoutView)).not.toEqual([]);
    const topWithoutGroup = clone({ menus });
    delete topWithoutGroup.menus[0].group;
    expect(errorsOf(schema, topWithoutGroup)).not.toEqual([]);
    const unknownRole = clone({ menus });
    unknownRole.menus[0].roles = ['ROLE_REPAIR' as Role];
    expect(errorsOf(schema, unknownRole)).not.toEqual([]);
    const extra = clone({ menus }) as { menus: Array<MenuEntry & { hidden?: boolean }> };
    extra.menus[0].hidden = true;
    expect(errorsOf(schema, extra)).not.toEqual([]);
  });

  it('the dictionary schema rejects non-string values, empty labels and unknown fields', () => {
    const schema = 'schemas/dictionaries.schema.json';
    const one = (items: unknown[]) => ({ dictionaries: [{ dictType: 'user_status', dictName: '用户状态', items }] });
    expect(errorsOf(schema, one([{ value: '1', label: '正常' }]))).toEqual([]);
    expect(errorsOf(schema, one([{ value: 1, label: '正常' }]))).not.toEqual([]);
    expect(errorsOf(schema, one([{ value: '1', label: '' }]))).not.toEqual([]);
    expect(errorsOf(schema, one([{ value: '1', label: '正常', colour: 'red' }]))).not.toEqual([]);
    expect(errorsOf(schema, one([]))).not.toEqual([]);
    expect(errorsOf(schema, { dictionaries: [{ dictType: 'UserStatus', dictName: '用户状态', items: [{ value: '1', label: '正常' }] }] })).not.toEqual([]);
  });
});

describe('the operation catalogue', () => {
  it('keeps the login and session entries exactly as the console and server already use them', () => {
    expect(Object.fromEntries(Object.entries(operations).slice(0, 19))).toEqual({
      'auth.login': { path: '/auth/web/_login', kind: 'call', title: '账号密码登录', access: 'public' },
      'auth.logout': { path: '/auth/web/_logout', kind: 'call', title: '退出登录' },
      'auth.refresh': { path: '/auth/token/_refresh', kind: 'call', title: '刷新令牌', access: 'public' },
      'auth.init': { path: '/auth/web/_init', kind: 'call', title: '初始化用户信息' },
      'auth.ticket': { path: '/auth/ticket/_get', kind: 'call', title: '获取微信扫码票据', access: 'public' },
      'auth.wechat.login': { path: '/auth/wechat/_login', kind: 'call', title: '微信扫码登录', access: 'public' },
      'auth.wechat.bind': { path: '/auth/wechat/_bind', kind: 'call', title: '微信绑定已有账号', access: 'public' },
      'auth.wechat.register': { path: '/auth/wechat/_register', kind: 'call', title: '微信注册新账号', access: 'public' },
      'dict.tree': { path: '/dict/tree/_list', kind: 'call', title: '字典树列表' },
      'resource.menu.list': { path: '/resource/menu/_list', kind: 'call', title: '当前用户菜单资源' },
      'organization.tree': { path: '/organization/new/tree/_list', kind: 'call', title: '组织树（组织切换）' },
      'user.detail': { path: '/this/user/_detail', kind: 'call', title: '当前用户详情' },
      'user.password.update': { path: '/user/password/_update', kind: 'call', title: '修改密码' },
      'user.password.forget': { path: '/user/password/_forget', kind: 'call', title: '免登录重置密码', access: 'public' },
      'verification.sms.send': { path: '/verification/sms/_send', kind: 'call', title: '发送短信验证码', access: 'public', param: 'string' },
      'verification.voice.send': { path: '/verification/voice/_send', kind: 'call', title: '发送语音验证码', access: 'public', param: 'string' },
      'verification.mail.send': { path: '/verification/mail/_send', kind: 'call', title: '发送邮箱验证码', access: 'public', param: 'string' },
      'dev.outbox': { path: '/dev/outbox/_list', kind: 'call', title: '开发用：验证码发件箱', access: 'dev' },
      'dev.wechat.scan': { path: '/dev/wechat/_scan', kind: 'call', title: '开发用：模拟微信扫码', access: 'dev' },
    });
  });

  it('gives every operation its own path', () => {
    const seen = new Map<string, string>();
    const clashes: string[] = [];
    for (const [name, op] of Object.entries(operations)) {
      const other = seen.get(op.path.toLowerCase());
      if (other) clashes.push(`${op.path}: ${other} / ${name}`);
      seen.set(op.path.toLowerCase(), name);
    }
    expect(clashes).toEqual([]);
  });

  it('uses SPEC’s own spellings of the paths it gives', () => {
    const spelled: Record<string, [string, Operation['kind']]> = {
      'auth.ticket': ['/auth/ticket/_get', 'call'],
      'auth.init': ['/auth/web/_init', 'call'],
      'dict.tree': ['/dict/tree/_list', 'call'],
      'resource.menu.detail': ['/resource/menu/_details', 'call'],
      'resource.menu.list': ['/resource/menu/_list', 'call'],
      'resource.tree': ['/resource/tree/_list', 'call'],
      'tenant.region.list': ['/tenant/region/_list', 'call'],
      'tenant.list': ['/tenant/_list', 'call'],
      'organization.allList': ['/organization/all/_list', 'call'],
      'organization.list': ['/organization/new/_list', 'call'],
      'organization.save': ['/organization/new/_save', 'call'],
      'organization.modify': ['/organization/new/_modify', 'call'],
      'organization.tree': ['/organization/new/tree/_list', 'call'],
      'role.list': ['/role/_list', 'call'],
      'role.detail': ['/role/_details', 'call'],
      'role.setting': ['/role/_setting', 'call'],
      'role.page': ['/role/page/_list', 'page'],
      'role.user.setting': ['/role/user/_setting', 'call'],
      'system.file.upload': ['/system/file/upload', 'upload'],
      'notification.list': ['/user/message/_list', 'call'],
      'notification.count': ['/user/message/_count', 'call'],
      'notification.tab.readAll': ['/user/message/tab/all/_read', 'call'],
      'user.detail': ['/this/user/_detail', 'call'],
      'device.page': ['/device/_page', 'page'],
    };
    const actual = Object.fromEntries(Object.keys(spelled).map((name) => [name, operations[name] ? [operations[name].path, operations[name].kind] : 'missing']));
    expect(actual).toEqual(spelled);
  });

  // SPEC §7, line by line: each comma-separated item is at least one operation.
  const SPEC_CALLS: Record<string, string[]> = {
    'auth/ticket, auth/web/_init, dict/tree': ['auth.ticket', 'auth.init', 'dict.tree'],
    'resource menu details, menu list, tree': ['resource.menu.detail', 'resource.menu.list', 'resource.tree'],
    'tenant region list, tenant list': ['tenant.region.list', 'tenant.list'],
    'organization all, new list, save, modify, tree': ['organization.allList', 'organization.list', 'organization.save', 'organization.modify', 'organization.tree'],
    'role list, details, setting, page list, user setting': ['role.list', 'role.detail', 'role.setting', 'role.page', 'role.user.setting'],
    'login user list, all list, role list, board find': ['loginUser.list', 'loginUser.allList', 'loginUser.roleList', 'loginUser.board'],
    'user detail, avatar, name, password, password without token, reset password, reset phone': [
      'user.detail', 'user.avatar.update', 'user.name.update', 'user.password.update', 'user.password.forget', 'user.password.reset', 'user.phone.reset',
    ],
    'phone/mail code modify, pc mail code, mail code by value, captcha check': ['user.mail.modify', 'verification.mail.get', 'verification.mail.send', 'verification.captcha.check'],
    'phone: SMS code, verify old, set phone, voice code': ['verification.sms.send', 'verification.phone.verify', 'user.phone.modify', 'verification.voice.send'],
    'open api key, user org get/set, tag tenant constant find/save': ['openApi.key.get', 'user.org.get', 'user.org.set', 'tag.tenantConstant.find', 'tag.tenantConstant.save'],
    'active form templates': [
      'activeForm.template.insert', 'activeForm.template.modify', 'activeForm.template.get', 'activeForm.template.publish', 'activeForm.template.duplicate',
      'activeForm.template.demoDownload',
    ],
    'file upload': ['system.file.upload'],
    'wechat login, register, bind; app upgrade package list': ['auth.wechat.login', 'auth.wechat.register', 'auth.wechat.bind', 'app.upgradePackage.list'],
    'login logger statistics family': [
      'loginLog.statistics.dynamic', 'loginLog.statistics.dashboard', 'loginLog.statistics.tenant', 'loginLog.statistics.active',
      'loginLog.statistics.activity', 'loginLog.statistics.queryUsage', 'loginLog.statistics.year',
    ],
    'usage message save and paged find': ['usage.message.save', 'usage.message.page'],
    notification: [
      'notification.list', 'notification.count', 'notification.tab.readAll', 'notification.daily.page', 'notification.mobile.page',
      'notification.phoneCode.sms', 'notification.phoneCode.call',
    ],
    'device: feedback, dashboard, temperature, tag display, alarm board': [
      'device.feedback.reply', 'device.feedback.batchReply', 'device.dashboard.historicalSituation', 'device.temperature.list',
      'device.tagDisplay.get', 'device.tagDisplay.update', 'device.alarmBoard.typeStatistics',
    ],
    'device: order card, invoice, pay, express, mall cancel, command': [
      'device.orderCard.get', 'invoice.apply', 'invoice.manageInfo', 'invoice.title.page', 'pay.query', 'mall.order.expressInfo', 'mall.order.cancel',
      'deviceAccess.command.generate',
    ],
    'card order': ['card.order.detail', 'card.order.confirm', 'card.order.cancel', 'card.order.sync', 'card.syncTime.get', 'card.saleOrder.sync', 'card.supplier.list'],
    'card delivery': [
      'card.delivery.customInfo', 'card.delivery.update', 'card.delivery.detail', 'card.delivery.fusionDetail', 'card.delivery.generate', 'card.delivery.confirm',
      'card.delivery.revoke', 'card.delivery.cancel', 'card.delivery.salesList', 'card.delivery.remark', 'card.delivery.batchExport',
    ],
    card: ['card.sim.detail', 'card.sim.operDetail', 'card.sim.deactivate', 'card.sim.resumption', 'card.sim.sync', 'card.sim.runInfo'],
    'alter delivery': [
      'card.alterDelivery.jdCreate', 'card.alterDelivery.detail', 'card.alterDelivery.cancel', 'card.alterDelivery.recovery', 'card.alterDelivery.recoveryAll',
      'card.alterDelivery.confirm', 'card.alterDelivery.changeCard', 'card.alterDelivery.noCardChangeCard', 'card.alterDelivery.nextChangeCard',
    ],
    renew: [
      'card.renew.confirm', 'card.renew.batchConfirm', 'card.renew.register', 'card.renew.batchRegister', 'card.renew.onLock', 'card.renew.batchOnLock',
      'card.renew.export', 'card.renewOrder.confirm',
    ],
    recharge: [
      'card.rechargeOrder.detail', 'card.recharge.yearList', 'card.recharge.projectList', 'card.recharge.projectCard', 'card.recharge.allCard',
      'card.rechargeOrder.cancel', 'card.recharge.calculateAmount', 'card.recharge.contractUpload', 'card.recharge.refresh',
      'card.recharge.generateConfirmation', 'card.recharge.standardYears',
    ],
    'customer recharge': [
      'card.customerRecharge.detail', 'card.customerRecharge.checkAmount', 'card.customerRecharge.detailNum', 'card.customerRecharge.isHaveOrder',
      'card.customerRecharge.statisticsNum', 'card.customerRecharge.paymentAmount', 'card.customerRecharge.corporatePaymentAmount',
      'card.customerRecharge.cancel', 'card.customerRecharge.isBulletBox', 'card.customerRecharge.page', 'card.customerRecharge.export',
    ],
    'flow packages, cease reasons, charge standard, tenant card': [
      'card.flowPackage.usedList', 'card.flowPackage.check', 'card.ceaseReason.list', 'card.chargeStandard.get', 'card.tenantCard.save',
    ],
    'card dashboards': [
      'card.dashboard.statistics', 'card.dashboard.flowMonitor', 'card.dashboard.flowTop', 'card.dashboard.deliveryStatistics', 'card.dashboard.deliveryBar',
      'card.dashboard.purchasePie', 'card.dashboard.purchaseList', 'card.dashboard.purchaseBar', 'card.dashboard.revenueStatistics',
      'card.dashboard.completeRate', 'card.dashboard.tenantLevel', 'card.dashboard.unreceivedSalesRank',
    ],
    'isBulletBox check at startup': ['card.order.isBulletBox'],
    maps: ['maps.place.search', 'maps.geocode.reverse'],
  };

  it.each(Object.entries(SPEC_CALLS))('catalogues SPEC §7 %s', (_line, names) => {
    expect(names.filter((name) => !operations[name])).toEqual([]);
  });

  it('has a paged list for every list view area', () => {
    const pages = [
      'device.page', 'device.care.page', 'device.battery.page', 'device.card.page', 'device.health.page', 'device.recycle.page', 'device.sleep.page',
      'device.error.page', 'device.feedback.page', 'gateway.page', 'camera.page', 'product.page', 'category.page', 'alarm.config.page',
      'alarm.record.page', 'monitoring.alarm.page', 'upgrade.package.page', 'upgrade.task.page', 'onlineConfiguration.page', 'card.sim.page',
      'card.order.page', 'card.order.user.page', 'card.delivery.page', 'card.alterDelivery.page', 'card.renew.page', 'card.renewOrder.page',
      'card.rechargeOrder.page', 'card.customerRecharge.page', 'card.chargeStandard.page', 'card.customCard.page', 'card.warehousing.page',
      'repair.order.page', 'repair.report.page', 'repair.batch.page', 'repair.collect.page', 'patrol.task.page', 'construction.page',
      'exploration.page', 'maintenance.page', 'project.area.page', 'office.corporate.page', 'office.audit.page', 'brand.backlog.page',
      'brand.patrol.page', 'brand.user.page', 'brand.device.page', 'tenant.config.page', 'app.version.page', 'system.user.page', 'role.page',
      'organization.page', 'dict.page', 'dict.item.page', 'system.loginLog.page', 'invoice.page', 'mall.myOrder.page', 'template.page',
      'activeForm.template.page', 'material.page', 'notification.maintenance.page', 'notification.send.page', 'notification.channel.page',
      'notification.daily.page', 'notification.system.page', 'mall.goods.page', 'mall.order.page', 'mall.discount.page', 'usage.message.page',
    ];
    expect(pages.filter((name) => operations[name]?.kind !== 'page')).toEqual([]);
  });

  it('gives each kind the operations that belong to it', () => {
    const entries = Object.entries(operations);
    // A paged list is named `….page` and nothing else is.
    expect(entries.filter(([name, op]) => (op.kind === 'page') !== name.endsWith('.page')).map(([name]) => name)).toEqual([]);
    // Exports are file downloads.
    expect(entries.filter(([name, op]) => /\.(export|batchExport)$/.test(name) && op.kind !== 'blob').map(([name]) => name)).toEqual([]);
    expect(operations['activeForm.template.demoDownload'].kind).toBe('blob');
    expect(entries.filter(([, op]) => op.kind === 'upload').map(([name]) => name)).toEqual(['system.file.upload']);
    expect(entries.filter(([, op]) => op.kind === 'get').map(([name]) => name).sort()).toEqual(['maps.geocode.reverse', 'maps.place.search']);
  });

  it('marks the bare-value params of SPEC §7', () => {
    const bare = [
      'user.avatar.update', 'user.name.update', 'verification.mail.send', 'verification.sms.send', 'verification.voice.send',
      'notification.phoneCode.sms', 'notification.phoneCode.call',
    ];
    expect(Object.entries(operations).filter(([, op]) => op.param === 'string').map(([name]) => name).sort()).toEqual([...bare].sort());
  });

  it('gates the data-changing list actions by button permission and nothing the session itself needs', () => {
    for (const name of [
      'device.insert', 'device.modify', 'device.delete', 'device.export', 'card.order.confirm', 'card.order.cancel', 'card.renew.batchConfirm',
      'device.feedback.reply', 'system.user.insert', 'role.setting', 'resource.menu.delete', 'mall.order.cancel',
    ]) expect(operations[name]?.button, name).toBe(true);
    for (const name of [
      'auth.init', 'resource.menu.list', 'dict.tree', 'organization.tree', 'user.detail', 'user.password.update', 'user.avatar.update',
      'user.name.update', 'user.phone.modify', 'user.mail.modify', 'notification.count', 'notification.tab.readAll', 'usage.message.save',
      'system.file.upload', 'card.order.isBulletBox', 'device.page',
    ]) expect(operations[name]?.button, name).toBeUndefined();
  });

  it('has a Chinese title on every operation', () => {
    expect(Object.entries(operations).filter(([, op]) => !/[\u4e00-\u9fff]/.test(op.title)).map(([name]) => name)).toEqual([]);
  });
});

describe('the seed menu tree', () => {
  it('starts with the 工作台 entry every role sees', () => {
    expect(menus[0]).toEqual({ code: 'home', name: '工作台', icon: 'DashboardOutlined', group: 'internet', roles: ROLES, url: '/dashboard', view: 'dashboard' });
  });

  it('has unique codes, each extending its parent’s, and buttons extending their route’s', () => {
    const codes = [...resolved.map((r) => r.entry.code), ...buttons.map((b) => b.button.code)];
    expect(codes.filter((code, i) => codes.indexOf(code) !== i)).toEqual([]);
    expect(resolved.filter((r) => r.parent && !r.entry.code.startsWith(`${r.parent.entry.code}.`)).map((r) => r.entry.code)).toEqual([]);
    expect(buttons.filter((b) => !b.button.code.startsWith(`${b.menu.entry.code}.`)).map((b) => b.button.code)).toEqual([]);
  });

  it('has one entry per route url', () => {
    const urls = leaves.map((r) => r.entry.url);
    expect(urls.filter((url, i) => urls.indexOf(url) !== i)).toEqual([]);
  });

  it('names only icons the main frame can draw', () => {
    expect(resolved.filter((r) => r.entry.icon && !MENU_ICONS[r.entry.icon]).map((r) => `${r.entry.code}: ${r.entry.icon}`)).toEqual([]);
  });

  it('lets every button call a catalogued, button-gated operation', () => {
    expect(buttons.filter((b) => !operations[b.button.url]).map((b) => `${b.button.code} → ${b.button.url}`)).toEqual([]);
    expect(buttons.filter((b) => operations[b.button.url] && !operations[b.button.url].button).map((b) => `${b.button.code} → ${b.button.url}`)).toEqual([]);
    const onOneRoute = buttons.map((b) => `${b.menu.entry.code} ${b.button.url}`);
    expect(onOneRoute.filter((key, i) => onOneRoute.indexOf(key) !== i)).toEqual([]);
  });

  it('gives every button-gated operation a button, or nobody could call it', () => {
    const granted = new Set(buttons.map((b) => b.button.url));
    expect(Object.entries(operations).filter(([name, op]) => op.button && !granted.has(name)).map(([name]) => name)).toEqual([]);
  });

  it('puts every top-level entry in a known group and uses every group', () => {
    expect(menus.filter((m) => !GROUPS.includes(m.group ?? '')).map((m) => m.code)).toEqual([]);
    expect(GROUPS.filter((g) => !menus.some((m) => m.group === g))).toEqual([]);
  });

  // The embedded routes of SPEC §2 reuse the button list of the normal route with the same path.
  const EMBEDDED = [
    'repair', 'report', 'online/configuration', 'alarm/record', 'monitoring/alarm', 'upgrade/package', 'upgrade/task', 'feedback/app', 'feedback/other',
    'product/list', 'category/list', 'device', 'device/detail', 'device/health', 'device/health/detail', 'product/device/setting', 'patrol',
    'patrol/board', 'device/card', 'device/battery', 'system/user', 'device/recycle', 'device/all', 'device/recycle/detail', 'device/sleep/detail',
    'construction', 'exploration', 'batch/repair', 'batch/see',
  ];
  it.each(EMBEDDED)('has the normal route /%s behind /foreign/%s', (path) => {
    expect(byUrl.has(`/${path}`)).toBe(true);
  });

  it('leaves the hand-written layout routes out of the menu, except the three dynamic-form settings in 基础', () => {
    const layout = ['/dashboard', '/gateway/details', '/my/order', '/card/order/user', '/system/daily/read', '/system/message'];
    expect(layout.filter((url) => url !== '/dashboard' && byUrl.has(url))).toEqual([]);
    for (const n of [1, 2, 3]) {
      const entry = byUrl.get(`/dynamic/form/${n}/config`);
      expect(entry?.entry.view, `/dynamic/form/${n}/config`).toBe('dynamic/form/config');
      expect(entry?.group).toBe('basics');
    }
  });

  // SPEC §2 "Menu routes": every view area, as the view files the menu names.
  const VIEW_AREAS: Record<string, string[]> = {
    'alarm configuration and records': ['alarm/config', 'alarm/record'],
    'app versioning': ['appVersion/forced', 'appVersion/hot'],
    camera: ['camera/list'],
    category: ['category/list'],
    construction: ['construction/list'],
    dashboards: ['dashboards/device', 'dashboards/alarm', 'dashboards/usage'],
    device: ['device/list', 'device/all', 'device/care', 'device/detail', 'device/battery', 'device/card', 'device/batchInsert', 'device/distribution'],
    'device health': ['deviceHealth/list', 'deviceHealth/detail'],
    'device recycle': ['deviceRecycle/list', 'deviceRecycle/detail'],
    'device sleep': ['deviceSleep/list', 'deviceSleep/detail'],
    'dynamic forms': ['dynamic/form/config'],
    'engineering survey': ['exploration/list'],
    'error device': ['errorDevice/list'],
    feedback: ['feedback/app', 'feedback/other'],
    'sub-brand pages': ['brand/backlog', 'brand/patrol', 'brand/statistics', 'brand/users', 'brand/devices'],
    gateway: ['gateway/list'],
    home: ['dashboard'],
    'IoT card': [
      'card/custom', 'card/feeStandard', 'card/internet', 'card/order', 'card/outbound', 'card/rechargeManage', 'card/rechargeOrder',
      'card/renewCard', 'card/renewOrder', 'card/revenue', 'card/warehousing',
    ],
    maintenance: ['maintenance/list'],
    material: ['material/list'],
    'message maintenance': ['messageMaintenance/list'],
    'monitoring alarm': ['monitoringAlarm/list'],
    'my office': ['myOffice/corporate', 'myOffice/audit'],
    'online configuration': ['onlineConfiguration/list'],
    order: ['order/list'],
    patrol: ['patrol/list', 'patrol/board'],
    product: ['product/list', 'product/deviceSetting'],
    'project area': ['projectArea/list'],
    repair: ['repair/batch', 'repair/batchSee', 'repair/collect', 'repair/report', 'repair/order'],
    'send and sendConfig': ['send/list', 'sendConfig/list'],
    shopping: [
      'shopping/list', 'shopping/itemDetail', 'shopping/confirmOrder', 'shopping/orderDetail', 'shopping/addressManage', 'shopping/productManage',
      'shopping/discount',
    ],
    system: [
      'system/dictionary', 'system/childDictionary', 'system/labelConfig', 'system/loginLog', 'system/menu', 'system/myInvoice', 'system/myOrder',
      'system/organization', 'system/role', 'system/user', 'system/userDetail',
    ],
    template: ['template/list'],
    'tenant config': ['tenantConfig/list'],
    upgrade: ['upgrade/package', 'upgrade/task'],
  };
  const views = new Set(leaves.map((r) => r.entry.view));
  it.each(Object.entries(VIEW_AREAS))('covers the view area %s', (_area, files) => {
    expect(files.filter((file) => !views.has(file))).toEqual([]);
  });

  it('names no view file outside the SPEC §2 view areas', () => {
    const known = new Set(Object.values(VIEW_AREAS).flat());
    expect([...views].filter((view) => !known.has(view as string))).toEqual([]);
  });

  it('hides detail routes and shows list routes', () => {
    const hidden = leaves.filter((r) => r.entry.shown === false).map((r) => r.entry.url);
    expect(hidden.sort()).toEqual([
      '/batch/see', '/device/detail', '/device/health/detail', '/device/recycle/detail', '/device/sleep/detail', '/shopping/confirm', '/shopping/item',
      '/shopping/order/detail', '/system/dictionary/child', '/system/user/detail',
    ]);
  });

  it('narrows roles down the tree: a child or button never reaches a role its parent lacks', () => {
    const widened = [
      ...resolved.filter((r) => r.parent && r.roles.some((role) => !r.parent!.roles.includes(role))).map((r) => r.entry.code),
      ...buttons.filter((b) => b.roles.some((role) => !b.menu.roles.includes(role))).map((b) => b.button.code),
    ];
    expect(widened).toEqual([]);
  });

  it('shows no role an empty folder', () => {
    const empty: string[] = [];
    for (const r of resolved.filter((x) => x.entry.children)) {
      for (const role of r.roles) {
        const visible = r.entry.children!.some((child) => child.shown !== false && (child.roles ?? r.roles).includes(role));
        if (!visible) empty.push(`${r.entry.code} for ${role}`);
      }
    }
    expect(empty).toEqual([]);
  });

  it('gives each role the areas of its work', () => {
    const sees = (role: Role) => new Set(leaves.filter((r) => r.roles.includes(role)).map((r) => r.entry.url));
    const can = (role: Role) => new Set(buttons.filter((b) => b.roles.includes(role)).map((b) => b.button.url));
    const groupsOf = (role: Role) => new Set(leaves.filter((r) => r.roles.includes(role)).map((r) => r.group));
    for (const role of ROLES) expect(sees(role).has('/dashboard'), role).toBe(true);
    // Tenant admin: every tenant-side route, with every data-changing button on its core areas.
    for (const url of ['/device/all', '/alarm/record', '/repair', '/patrol', '/system/user', '/system/role', '/card/order', '/shopping/list', '/system/order'])
      expect(sees('TENANT_ADMIN').has(url), url).toBe(true);
    for (const op of ['device.insert', 'device.delete', 'system.user.insert', 'role.setting', 'card.order.confirm', 'repair.order.assign'])
      expect(can('TENANT_ADMIN').has(op), op).toBe(true);
    // Ordinary user: reads the device and alarm areas but cannot delete or configure.
    expect(sees('ROLE_TENANT_ORDINARY').has('/device/all')).toBe(true);
    for (const op of ['device.delete', 'system.user.insert', 'role.setting', 'alarm.config.delete']) expect(can('ROLE_TENANT_ORDINARY').has(op), op).toBe(false);
    // Field staff: work orders and patrol, nothing of platform, system or mall.
    expect(sees('ROLE_TENANT_REPAIR').has('/repair')).toBe(true);
    expect(can('ROLE_TENANT_REPAIR').has('repair.order.accept')).toBe(true);
    expect(sees('ROLE_REPAIR_IMPLEMENT').has('/construction')).toBe(true);
    expect(sees('ROLE_TENANT_PATROL').has('/patrol')).toBe(true);
    expect(can('ROLE_TENANT_PATROL').has('patrol.task.execute')).toBe(true);
    for (const role of ['ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT'] as Role[])
      expect([...groupsOf(role)].filter((g) => ['platform', 'system', 'mall'].includes(g)), role).toEqual([]);
    // Platform staff: the whole platform group, system administration, card supply and mall administration.
    for (const role of ['PLATFORM_ADMIN', 'PLATFORM_OPERATOR'] as Role[]) {
      expect(leaves.filter((r) => r.group === 'platform' && !r.roles.includes(role)).map((r) => r.entry.code), role).toEqual([]);
      for (const url of ['/system/user', '/card/warehousing', '/shopping/product', '/order']) expect(sees(role).has(url), `${role} ${url}`).toBe(true);
    }
    expect(leaves.filter((r) => r.group === 'platform' && r.roles.some((role) => !role.startsWith('PLATFORM_'))).map((r) => r.entry.code)).toEqual([]);
    expect(sees('PLATFORM_ADMIN').has('/system/menu')).toBe(true);
  });
});

describe('the seed dictionaries', () => {
  const byType = new Map(dictionaries.map((d) => [d.dictType, d]));
  const pairs = (type: string) => byType.get(type)?.items.map((i) => [i.value, i.label]);

  it('has each dictType once, and unique values and labels within each', () => {
    const types = dictionaries.map((d) => d.dictType);
    expect(types.filter((t, i) => types.indexOf(t) !== i)).toEqual([]);
    for (const d of dictionaries) {
      const values = d.items.map((i) => i.value);
      const labels = d.items.map((i) => i.label);
      expect(values.filter((v, i) => values.indexOf(v) !== i), d.dictType).toEqual([]);
      expect(labels.filter((v, i) => labels.indexOf(v) !== i), d.dictType).toEqual([]);
    }
  });

  it('labels the menu groups and matches the groups the menu schema allows', () => {
    expect(pairs('menu_classification')).toEqual([
      ['internet', '物联网'], ['project', '项目'], ['platform', '平台'], ['system', '系统'], ['basics', '基础'], ['mall', '商城'],
    ]);
    const schema = readJson('schemas/menus.schema.json') as { $defs: { topLevel: { properties: { group: { enum: string[] } } } } };
    expect(schema.$defs.topLevel.properties.group.enum).toEqual(byType.get('menu_classification')!.items.map((i) => i.value));
  });

  it('names the seven roles and matches the roles the menu schema allows', () => {
    expect(pairs('role_code')).toEqual([
      ['TENANT_ADMIN', '租户管理员'], ['ROLE_TENANT_ORDINARY', '普通用户'], ['ROLE_TENANT_REPAIR', '维修人员'], ['ROLE_TENANT_PATROL', '巡检人员'],
      ['ROLE_REPAIR_IMPLEMENT', '维修实施人员'], ['PLATFORM_ADMIN', '平台管理员'], ['PLATFORM_OPERATOR', '平台运营'],
    ]);
    const schema = readJson('schemas/menus.schema.json') as { $defs: { roles: { items: { enum: string[] } } } };
    expect(schema.$defs.roles.items.enum).toEqual(ROLES);
  });

  it('holds the fixed dictionaries word for word', () => {
    expect(pairs('organization_type')).toEqual([['1', '平台'], ['2', '租户'], ['3', '项目'], ['4', '区域'], ['5', '虚拟组织'], ['6', '部门']]);
    expect(pairs('user_status')).toEqual([['1', '正常'], ['0', '停用']]);
    expect(pairs('notification_tab_type')).toEqual([['1', '日常阅读'], ['2', '系统消息']]);
    expect(pairs('notification_status')).toEqual([['1', '日常阅读'], ['2', '系统消息']]);
    expect(pairs('verification_channel')).toEqual([['sms', '短信'], ['voice', '语音'], ['mail', '邮件']]);
    expect(pairs('app_update_type')).toEqual([['forced', '强制更新'], ['hot', '热更新']]);
  });

  it('has the status and type dictionaries the screens need', () => {
    const values = (type: string) => byType.get(type)?.items.map((i) => i.value);
    expect(values('read_status')).toHaveLength(2);
    expect(values('device_online_state')).toEqual(['online', 'offline', 'inactive']);
    expect(values('work_order_state')).toEqual(['created', 'assigned', 'accepted', 'in_progress', 'completed', 'audited', 'closed', 'rejected']);
    expect(values('card_state')).toEqual(['in_stock', 'testing', 'active', 'suspended', 'deactivated', 'replaced']);
    expect(values('notification_channel_type')).toEqual(['dingtalk', 'feishu', 'mail', 'sms', 'voice', 'wechat']);
    for (const type of ['alarm_level', 'alarm_state', 'ota_task_state', 'work_order_type', 'card_operator', 'card_order_state', 'mall_order_state'])
      expect(values(type)?.length ?? 0, type).toBeGreaterThan(1);
  });
});
