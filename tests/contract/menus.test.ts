import { describe, expect, it } from 'vitest';
import { operations, menus, ROLES, GROUPS, resolved, leaves, buttons, byUrl, root, type Role } from './catalogueData';
import { composedPage } from '../../scripts/pageSources';
import { MENU_ICONS } from '../../src/frame/menuIconSet';
import { registeredViews } from '../../src/screens/registry';

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
    // One page file each, parameterised from the menu (issue 20).
    'app versioning': ['appVersion/list?updateType=forced', 'appVersion/list?updateType=hot'],
    camera: ['camera/list'],
    category: ['category/list'],
    construction: ['construction/list', 'construction/detail'],
    dashboards: ['dashboards/device', 'dashboards/alarm', 'dashboards/usage'],
    device: ['device/list', 'device/all', 'device/care', 'device/detail', 'device/battery', 'device/card', 'device/batchInsert', 'device/distribution'],
    'device health': ['deviceHealth/list', 'deviceHealth/detail'],
    'device recycle': ['deviceRecycle/list', 'deviceRecycle/detail'],
    'device sleep': ['deviceSleep/list', 'deviceSleep/detail'],
    'dynamic forms': ['dynamic/form/config'],
    'engineering survey': ['exploration/list', 'exploration/detail'],
    'error device': ['errorDevice/list'],
    feedback: ['feedback/list?feedbackType=app', 'feedback/list?feedbackType=other'],
    'sub-brand pages': ['brand/backlog', 'brand/patrol', 'brand/statistics', 'brand/users', 'brand/devices'],
    gateway: ['gateway/list'],
    home: ['dashboard'],
    'IoT card': [
      'card/custom', 'card/feeStandard', 'card/internet', 'card/order', 'card/outbound', 'card/rechargeManage', 'card/rechargeOrder',
      'card/renewCard', 'card/renewOrder', 'card/revenue', 'card/warehousing',
      'card/orderDetail', 'card/simDetail', 'card/alterDetail', 'card/rechargeOrderDetail', 'card/renewOrderDetail', 'card/deliveryDetail',
    ],
    maintenance: ['maintenance/list', 'maintenance/detail'],
    material: ['material/list'],
    'message maintenance': ['messageMaintenance/list', 'messageMaintenance/detail'],
    'monitoring alarm': ['monitoringAlarm/list'],
    'my office': ['myOffice/corporate', 'myOffice/audit', 'myOffice/detail'],
    'online configuration': ['onlineConfiguration/list'],
    order: ['order/list'],
    patrol: ['patrol/list', 'patrol/board', 'patrol/detail'],
    product: ['product/list', 'product/deviceSetting'],
    'project area': ['projectArea/list'],
    repair: ['repair/batch', 'repair/batchSee', 'repair/collect', 'repair/report', 'repair/order', 'repair/orderDetail', 'repair/reportDetail'],
    'send and sendConfig': ['send/list', 'sendConfig/list'],
    shopping: [
      'shopping/list', 'shopping/itemDetail', 'shopping/confirmOrder', 'shopping/orderDetail', 'shopping/addressManage', 'shopping/productManage',
      'shopping/discount',
    ],
    system: [
      'system/dictionary', 'system/childDictionary', 'system/labelConfig', 'system/loginLog', 'system/menu', 'system/myInvoice', 'system/myOrder?buttons=menu',
      'system/organization', 'system/role', 'system/user', 'system/userDetail', 'system/invoiceDetail',
      // Issue 24: the system status page of platform staff.
      'system/status',
    ],
    // Issue 7: the login-logger statistics and the usage records, as their own menu group.
    statistics: ['statistics/login', 'statistics/loginUser', 'statistics/usageRecord'],
    template: ['template/list'],
    'tenant config': ['tenantConfig/list'],
    upgrade: ['upgrade/package', 'upgrade/task', 'upgrade/taskDetail'],
  };
  const views = new Set(leaves.map((r) => r.entry.view));
  it.each(Object.entries(VIEW_AREAS))('covers the view area %s', (_area, files) => {
    expect(files.filter((file) => !views.has(file))).toEqual([]);
  });

  // A new screen needs no edit here (issue 25): what a route must be follows from its files.
  /** The one view drawn by the frame's own layout route rather than a page schema or a screen. */
  const LAYOUT_VIEWS = new Set(['dashboard']);
  /** The page a view reference opens, composed as the console does (fragments, parameters), as text. */
  const schemaOf = (view: string) => {
    const composed = composedPage(view, root);
    return composed ? JSON.stringify(composed.page) : null;
  };

  it('opens every view file it names: a page schema, a hand-written screen or the dashboard', () => {
    const screens = new Set(registeredViews());
    expect([...views].filter((view) => !LAYOUT_VIEWS.has(view as string) && !screens.has(view as string) && schemaOf(view as string) === null)).toEqual([]);
  });

  it('hides exactly the routes whose page needs a record chosen elsewhere (its schema reads {{params.…}})', () => {
    const misplaced = leaves
      .filter((r) => r.entry.view && schemaOf(r.entry.view) !== null)
      .filter((r) => /\{\{\s*params\./.test(schemaOf(r.entry.view!)!) === (r.entry.shown !== false))
      .map((r) => `${r.entry.url} (${r.entry.view}) ${r.entry.shown === false ? 'hidden, but its page reads no route parameter' : 'shown, but its page needs a route parameter'}`);
    expect(misplaced).toEqual([]);
    // Hand-written screens say themselves: the goods detail and the order confirmation take the goods from the route.
    expect(leaves.filter((r) => r.entry.shown === false && !schemaOf(r.entry.view ?? '')).map((r) => r.entry.url).sort()).toEqual(['/shopping/confirm', '/shopping/item']);
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
    // The system status page (issue 24): platform staff only.
    expect(ROLES.filter((role) => sees(role).has('/system/status'))).toEqual(['PLATFORM_ADMIN', 'PLATFORM_OPERATOR']);
  });
});
