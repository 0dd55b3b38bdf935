import { describe, expect, it } from 'vitest';
import { readJson, operations, menus, errorsOf, clone, type Role, type Operation, type MenuEntry } from './catalogueData';

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
    // Files, and firmware images (issue 31).
    expect(entries.filter(([, op]) => op.kind === 'upload').map(([name]) => name)).toEqual(['system.file.upload', 'upgrade.package.upload']);
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
