// Issue 25: `npm run new:screen` (scripts/screenGenerator.ts, scripts/new-screen.ts), the checks it
// adds to `npm run check` (scripts/checkEntities.ts) and the names editors complete
// (scripts/metaSchema.ts). The whole screen written, checked, served and walked in a browser is
// tests/browser/new-screen.spec.ts.
import Ajv2020 from 'ajv/dist/2020.js';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { formMembers } from '../../scripts/check/registered';
import { FORM_COMPONENT_KINDS } from '../../renderers/form/formily';
import { composedPages } from '../../scripts/pageSources';
import { checkDetailRoutes, checkEntityFiles, checkNamesSchema } from '../../scripts/checkEntities';
import { namesSchemaText } from '../../scripts/metaSchema';
import { describe as describeArgs, withDictionaries, withMenus, withOperations } from '../../scripts/new-screen';
import { DescriptionError, generateScreen, parseField } from '../../scripts/screenGenerator';

const root = new URL('../..', import.meta.url).pathname;
const SUPPLIER = ['supply/supplier', '--title', '供应商管理', '--fields', 'code:code!,name:text!,contact,phone:phone,status:dict(supplier_status)', '--dict', 'supplier_status=active:合作中,paused:暂停合作', '--write-roles', 'PLATFORM_ADMIN'];
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

describe('npm run new:screen: the description', () => {
  it('供应商管理 from one line: entity, list, form, detail, catalogue, menu with buttons and hidden detail, dictionary', () => {
    const files = generateScreen(describeArgs(SUPPLIER));
    expect(files.entity).toMatchObject({ name: 'supply.supplier', title: '供应商', table: 'supply_supplier', managed: true, scope: 'platform', param: 'supplier', defaultSort: { field: 'code', order: 'asc' } });
    expect(files.entity.fields.code).toEqual({ title: '供应商编码', type: 'string', required: true, maxLength: 32, pattern: '^[A-Za-z0-9-]{2,32}$', message: '请输入 2 至 32 位字母、数字或 -', unique: true, keyword: true, sortable: true });
    expect(files.entity.fields.phone).toMatchObject({ title: '联系电话', validator: 'phoneOrEmpty' });
    expect(files.entity.fields.status).toEqual({ title: '状态', type: 'string', dictType: 'supplier_status', filter: true, default: 'active' });
    expect(files.entity.seed).toHaveLength(3);
    expect(Object.keys(files.pages)).toEqual(['supply/supplier', 'supply/supplierForm', 'supply/supplierDetail']);
    expect(files.operations['supply.supplier.insert']).toEqual({ path: '/supply/supplier/_insert', kind: 'call', title: '新增供应商', button: true });
    expect(files.operations['supply.supplier.export']).toEqual({ path: '/supply/supplier/_export', kind: 'blob', title: '导出供应商', button: true });
    expect(files.operations['supply.supplier.page']).toEqual({ path: '/supply/supplier/_page', kind: 'page', title: '供应商分页列表' });
    const [list, detail] = files.menus;
    expect(list).toMatchObject({ code: 'supplySupplier', name: '供应商管理', group: 'platform', roles: ['PLATFORM_ADMIN', 'PLATFORM_OPERATOR'], url: '/supply/supplier', view: 'supply/supplier' });
    // No 查看 button: reading is the menu's right, and a button's operation must be button-gated
    // (tests/contract/menus.test.ts, which a generated screen must pass as every other does).
    expect(list.buttons?.map((b) => [b.name, b.url, b.roles])).toEqual([
      ['新增', 'supply.supplier.insert', ['PLATFORM_ADMIN']],
      ['编辑', 'supply.supplier.modify', ['PLATFORM_ADMIN']],
      ['删除', 'supply.supplier.delete', ['PLATFORM_ADMIN']],
      ['导出', 'supply.supplier.export', undefined],
    ]);
    expect(detail).toMatchObject({ url: '/supply/supplier/detail', view: 'supply/supplierDetail', shown: false });
    expect(files.dictionaries).toEqual([{ dictType: 'supplier_status', dictName: '供应商状态', items: [{ value: 'active', label: '合作中' }, { value: 'paused', label: '暂停合作' }] }]);
    // Every row action that changes something says its permission; delete asks first.
    const rowActions = (files.pages['supply/supplier'] as { rowActions: Array<Record<string, unknown>> }).rowActions;
    expect(rowActions.map((a) => [a.label, a.permission])).toEqual([
      ['查看', undefined],
      ['编辑', 'supply.supplier.modify'],
      ['删除', 'supply.supplier.delete'],
    ]);
    expect(rowActions[2].confirm).toBe('确认删除该供应商？删除后不可恢复。');
  });

  it('the same from a description file of a few lines', () => {
    const dir = mkdtempSync(join(tmpdir(), 'screen-'));
    scratch.push(dir);
    const description = {
      entity: 'supply/supplier',
      title: '供应商管理',
      fields: ['code:code!', 'name:text!', 'contact', 'phone:phone', 'status:dict(supplier_status)'],
      dicts: { supplier_status: 'active:合作中,paused:暂停合作' },
      writeRoles: ['PLATFORM_ADMIN'],
    };
    writeFileSync(join(dir, 'supplier.json'), JSON.stringify(description, null, 2));
    expect(JSON.stringify(description, null, 2).split('\n').length).toBeLessThanOrEqual(40);
    expect(generateScreen(describeArgs(['--from', 'supplier.json'], dir))).toEqual(generateScreen(describeArgs(SUPPLIER)));
  });

  it('refuses what it cannot make, with a sentence', () => {
    const refusal = (args: string[]) => {
      try {
        generateScreen(describeArgs(args));
      } catch (error) {
        expect(error).toBeInstanceOf(DescriptionError);
        return (error as Error).message;
      }
      return 'accepted';
    };
    expect(refusal(['supply/supplier', '--title', '供应商管理', '--fields', 'code:serial'])).toBe('未知的字段类型 serial（可用：text、code、phone、mail、number、integer、date、datetime、boolean、textarea、dict(<字典类型>)）');
    expect(refusal(['supply/supplier', '--title', '供应商管理', '--fields', 'rating:integer'])).toBe('字段 rating 需要中文标题：写成 rating:integer=标题');
    expect(refusal(['supply/supplier', '--title', '供应商管理', '--fields', 'name', '--roles', 'ADMIN'])).toBe('未知的角色 ADMIN（可用：TENANT_ADMIN、ROLE_TENANT_ORDINARY、ROLE_TENANT_REPAIR、ROLE_TENANT_PATROL、ROLE_REPAIR_IMPLEMENT、PLATFORM_ADMIN、PLATFORM_OPERATOR）');
    expect(refusal(['supply/supplier', '--title', '供应商管理', '--fields', 'name', '--write-roles', 'TENANT_ADMIN'])).toBe('写权限的角色 TENANT_ADMIN 看不到菜单：先加到 roles 中');
    expect(refusal(['Supply', '--title', '供应商管理', '--fields', 'name'])).toBe('实体写成 <area>/<entity>（小驼峰），如 supply/supplier，而不是 Supply');
    expect(refusal(['supply/supplier', '--fields', 'name'])).toBe('需要 --title（菜单与列表的中文标题，如 供应商管理）');
    expect(refusal(['supply/supplier', '--title', '供应商管理', '--fields', 'name', '--group', 'shop'])).toBe('未知的菜单分组 shop（可用：internet、project、platform、system、basics、mall）');
    expect(refusal(['supply/supplier', '--title', '供应商管理', '--fields', 'status:dict(s)', '--dict', 's=active'])).toBe('字典 s 的项 active 的写法是 值:标签，如 active:合作中');
    expect(() => parseField('x y', '供应商')).toThrow('字段 x y 的写法是 名称[:类型][!][=标题]，如 phone:phone!=联系电话');
  });

  it('each shorthand type is the entity field FORMAT.md describes', () => {
    expect(parseField('remark:textarea', '供应商')[1]).toEqual({ title: '备注', type: 'string', maxLength: 200, multiline: true, validator: 'plainText' });
    expect(parseField('mobile:phone!', '供应商')[1]).toMatchObject({ required: true, validator: 'phone' });
    expect(parseField('mail:mail', '供应商')[1]).toMatchObject({ validator: 'mail' });
    expect(parseField('since:date=合作开始', '供应商')[1]).toMatchObject({ title: '合作开始', type: 'date' });
    expect(parseField('checked:datetime=检查时间', '供应商')[1]).toMatchObject({ type: 'datetime' });
    expect(parseField('level:integer=等级', '供应商')[1]).toMatchObject({ type: 'integer', minimum: 0 });
    expect(parseField('amount:number', '供应商')[1]).toMatchObject({ title: '金额', type: 'number' });
    expect(parseField('vip:boolean=重点供应商', '供应商')[1]).toEqual({ title: '重点供应商', type: 'boolean', filter: true });
  });

  it('adds to the shared files in their own layout', () => {
    const files = generateScreen(describeArgs(SUPPLIER));
    const operations = withOperations('{\n  "a.b": { "path": "/a/_b", "kind": "call", "title": "甲" }\n}\n', files.operations);
    expect(operations.split('\n')[2]).toBe('  "supply.supplier.page": { "path": "/supply/supplier/_page", "kind": "page", "title": "供应商分页列表" },');
    expect(Object.keys(JSON.parse(operations) as object)).toHaveLength(7);
    const dictionaries = withDictionaries('{\n  "dictionaries": [\n    { "dictType": "a", "dictName": "甲", "items": [] }\n  ]\n}\n', files.dictionaries);
    expect(dictionaries).toContain('    { "dictType": "supplier_status", "dictName": "供应商状态", "items": [{ "value": "active", "label": "合作中" }, { "value": "paused", "label": "暂停合作" }] }\n  ]\n}\n');
    const tree = { menus: [{ code: 'cardSupply', name: '卡片供应', children: [{ code: 'cardSupply.x', name: '乙', url: '/x', view: 'x/y' }] }] };
    expect(withMenus(tree, files.menus, 'cardSupply').menus[0].children?.map((entry) => entry.code)).toEqual(['cardSupply.x', 'supplySupplier', 'supplySupplierDetail']);
    expect(() => withMenus(tree, files.menus, 'nope')).toThrow('没有编码为 nope 的菜单目录');
  });
});

/** A copy of schemas/ to break, for the checks that read a project root. */
function schemasCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'check-'));
  scratch.push(dir);
  cpSync(join(root, 'schemas'), join(dir, 'schemas'), { recursive: true });
  return dir;
}

describe('npm run check: entity definitions, detail routes, the names editors complete', () => {
  const entity = {
    $schema: '../../entity.schema.json',
    name: 'probe.thing',
    title: '物件',
    table: 'probe_thing',
    managed: true,
    scope: 'platform',
    fields: {
      code: { title: '编码', type: 'string', pattern: '^[A-Z]+$' },
      name: { title: '名称', type: 'string', validator: 'phone' },
      kind: { title: '类型', type: 'string', dictType: 'no_such_dict' },
    },
    defaultSort: { field: 'name' },
    seed: [{ code: 'A', name: '123' }],
  };

  it('names what the form, the server and the catalogue would trip on, each with its sentence', () => {
    const dir = schemasCopy();
    mkdirSync(join(dir, 'schemas/entities/probe'), { recursive: true });
    writeFileSync(join(dir, 'schemas/entities/probe/thing.json'), JSON.stringify(entity));
    const messages = checkEntityFiles(dir).map((p) => `${p.file} ${p.pointer} ${p.message}`);
    expect(messages).toEqual(
      expect.arrayContaining([
        'schemas/entities/probe/thing.json /fields/kind/dictType 字典 no_such_dict 不在 schemas/dictionaries.json 中',
        'schemas/entities/probe/thing.json /fields/code/pattern 写了 pattern 的字段要写 message：表单与服务端都以它提示（如 请输入 2 至 32 位字母、数字或 -）',
        'schemas/entities/probe/thing.json /defaultSort/field 默认排序字段 name 不可排序：在字段上写 "sortable": true',
        'schemas/entities/probe/thing.json /seed/0/name 演示数据不符合 phone：请输入正确的手机号码',
        'schemas/entities/probe/thing.json /name 实体提供的接口操作 probe.thing.page 未在 schemas/operations.json 中登记（控制台与菜单按钮按名称引用它）',
      ]),
    );
  });

  it('an unknown validator is told by the schema, and the meaning is still checked', () => {
    const dir = schemasCopy();
    mkdirSync(join(dir, 'schemas/entities/probe'), { recursive: true });
    writeFileSync(join(dir, 'schemas/entities/probe/thing.json'), JSON.stringify({ ...entity, fields: { ...entity.fields, name: { title: '名称', type: 'string', validator: 'nope' } } }));
    const problems = checkEntityFiles(dir);
    expect(problems.some((p) => p.pointer === '/fields/name/validator')).toBe(true);
    expect(problems.map((p) => p.message)).toContain('未注册的校验器 nope：控制台的表单没有它（src/validation/named.ts）');
    expect(problems.map((p) => p.message)).toContain('字典 no_such_dict 不在 schemas/dictionaries.json 中');
  });

  it('a write operation without "button": true, and a search column the entity does not filter by', () => {
    const dir = schemasCopy();
    mkdirSync(join(dir, 'schemas/entities/probe'), { recursive: true });
    mkdirSync(join(dir, 'schemas/pages/probe'), { recursive: true });
    const ok = { ...entity, fields: { code: { title: '编码', type: 'string', sortable: true } }, defaultSort: { field: 'code' }, seed: [] };
    writeFileSync(join(dir, 'schemas/entities/probe/thing.json'), JSON.stringify(ok));
    const catalogue = JSON.parse(readFileSync(join(dir, 'schemas/operations.json'), 'utf8')) as Record<string, unknown>;
    for (const [verb, kind] of Object.entries({ page: 'page', detail: 'call', insert: 'call', modify: 'call', delete: 'call', export: 'blob' })) catalogue[`probe.thing.${verb}`] = { path: `/probe/thing/_${verb}`, kind, title: '物件', ...(verb === 'insert' || verb === 'page' || verb === 'detail' ? {} : { button: true }) };
    writeFileSync(join(dir, 'schemas/operations.json'), JSON.stringify(catalogue));
    writeFileSync(join(dir, 'schemas/pages/probe/thing.json'), JSON.stringify({ schemaVersion: 1, kind: 'list', title: '物件', entity: 'probe/thing', operation: 'probe.thing.page', columns: [{ field: 'code', search: true }] }));
    expect(checkEntityFiles(dir).map((p) => `${p.file} ${p.pointer} ${p.message}`)).toEqual([
      'schemas/entities/probe/thing.json /name 接口操作 probe.thing.insert 改动数据（或导出），在 schemas/operations.json 中要写 "button": true，服务端才核对按钮权限',
      'schemas/pages/probe/thing.json /columns/0/search 列 code 推出的筛选参数不是实体 probe/thing 的筛选字段：在实体字段上写 "filter": true，否则服务端拒绝这个参数',
    ]);
  });

  it('a record’s detail page shown in the menu', () => {
    const dir = schemasCopy();
    const menus = JSON.parse(readFileSync(join(dir, 'schemas/menus.json'), 'utf8')) as { menus: Array<{ code: string; children?: Array<Record<string, unknown>> }> };
    const notice = menus.menus.find((m) => m.code === 'notice');
    const detail = notice?.children?.find((c) => c.code === 'notice.maintenanceDetail');
    if (!detail) throw new Error('the seed menu has no 消息详情');
    delete detail.shown;
    writeFileSync(join(dir, 'schemas/menus.json'), JSON.stringify(menus));
    expect(checkDetailRoutes(root)).toEqual([]);
    const problems = checkDetailRoutes(dir);
    expect(problems).toHaveLength(1);
    expect(problems[0].message).toBe('messageMaintenance/detail 是记录的详情页（加载参数读 params）：它的菜单项要写 "shown": false，由列表带着记录编号打开，菜单中不显示');
  });

  it('schemas/names.schema.json is up to date (run npm run schemas), and says when it is not', () => {
    expect(checkNamesSchema(root)).toEqual([]);
    const dir = schemasCopy();
    const catalogue = JSON.parse(readFileSync(join(dir, 'schemas/operations.json'), 'utf8')) as Record<string, unknown>;
    catalogue['probe.thing.page'] = { path: '/probe/thing/_page', kind: 'page', title: '物件' };
    writeFileSync(join(dir, 'schemas/operations.json'), JSON.stringify(catalogue));
    expect(checkNamesSchema(dir)).toEqual([
      { file: 'schemas/names.schema.json', pointer: '/', message: '已过期：编辑器补全的接口操作、权限、字典、页面、路由或实体与 schemas/ 不一致，运行 npm run schemas 重新生成' },
    ]);
    expect(namesSchemaText(dir)).toContain('"probe.thing.page"');
  });

  it('with the names as enums (what an editor sees), every composed page still validates: the enums are complete', () => {
    const ajv = new Ajv2020({ allErrors: true, strict: false, discriminator: true });
    ajv.addSchema(JSON.parse(readFileSync(join(root, 'schemas/names.schema.json'), 'utf8')) as object);
    const validate = ajv.compile(JSON.parse(readFileSync(join(root, 'schemas/page.schema.json'), 'utf8')) as object);
    const refused = composedPages(root).filter(({ page }) => !validate(page)).map(({ view }) => `${view} ${JSON.stringify(validate.errors?.slice(0, 2))}`);
    expect(refused).toEqual([]);
    // The members an editor offers are the ones npm run check takes.
    const names = JSON.parse(readFileSync(join(root, 'schemas/names.schema.json'), 'utf8')) as { $defs: { component: { enum: string[] } } };
    const members = FORM_COMPONENT_KINDS.names().flatMap((base) => formMembers(base).map((member) => `${base}.${member}`));
    expect(names.$defs.component.enum.filter((name) => name.includes('.')).sort()).toEqual(members.sort());
    // And a wrong name is refused there, which is what makes the editor mark it.
    const [first] = composedPages(root).filter(({ page }) => (page as { kind?: string }).kind === 'list');
    expect(validate({ ...(first.page as object), operation: 'no.such.page' })).toBe(false);
  });
});
