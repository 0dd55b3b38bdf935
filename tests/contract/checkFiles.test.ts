// npm run check misses nothing and never crashes (issue 33): a template reading a field its
// operation does not answer, another screen's permission on this screen's button, a seeded value
// outside its dictionary, a data file that is not JSON (named with its line and column), every
// problem of a run told together, and the JSON Schema's sentences in Chinese with the allowed values.
import { cpSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkAll, checkDataFiles, formatProblem, loadContext } from '../../scripts/check';
import { checkPageContracts } from '../../scripts/checkContracts';
import { checkEntityFiles } from '../../scripts/checkEntities';
import { jsonSyntaxMessage } from '../../scripts/checkJsonSyntax';
import { checkButtonPermissions } from '../../scripts/checkPermissions';
import { dictionaryValues, seededTableProblems } from '../../scripts/checkSeeds';
import { loadContracts } from '../../server/contracts';

const root = new URL('../..', import.meta.url).pathname;

/** A copy of the project's schemas/ to break (the checks read it from `root`). */
function projectCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'check-files-'));
  cpSync(join(root, 'schemas'), join(dir, 'schemas'), { recursive: true });
  return dir;
}
const edit = (dir: string, file: string, change: (text: string) => string) => writeFileSync(join(dir, file), change(readFileSync(join(dir, file), 'utf8')));
const json = (dir: string, file: string, change: (value: Record<string, unknown>) => void) =>
  edit(dir, file, (text) => {
    const value = JSON.parse(text) as Record<string, unknown>;
    change(value);
    return `${JSON.stringify(value, null, 2)}\n`;
  });

describe('templates against the operation contract', () => {
  const contracts = loadContracts(join(root, 'schemas/contracts.json'));
  it('a row action reading a field the list operation does not answer is named, with the fields it has', () => {
    const problems = checkPageContracts(
      'schemas/pages/material/list.json',
      {
        kind: 'list',
        operation: 'material.page',
        columns: [{ field: 'name', title: '名称', to: '/material?code={{record.code}}&part={{record.partCode}}' }],
        rowActions: [
          { type: 'call', label: '删除', operation: 'material.delete', param: { id: '{{record.id}}' }, visibleWhen: '{{record.partId > 0 && record.stock < record.warningLevel}}' },
          { type: 'chain', label: '链', steps: [{ type: 'navigate', to: '/material', query: { code: '{{record.owner.name}}' } }] },
        ],
      },
      contracts,
    ).map((p) => `${p.pointer} ${p.message}`);
    expect(problems).toHaveLength(3);
    expect(problems[0]).toMatch(/^\/rowActions\/0\/visibleWhen 模板 \{\{record\.partId > 0 && record\.stock < record\.warningLevel\}\} 读取的 record\.partId 不在接口操作 material\.page 返回的记录中（有：id、code、name、/);
    expect(problems[1]).toMatch(/^\/rowActions\/1\/steps\/0\/query\/code 模板 \{\{record\.owner\.name\}\} 读取的 record\.owner 不在/);
    expect(problems[2]).toMatch(/^\/columns\/0\/to 模板 .* 读取的 record\.partCode 不在接口操作 material\.page 返回的记录中/);
  });

  it('a detail page’s actions and section params read the loaded answer as record', () => {
    const problems = checkPageContracts(
      'schemas/pages/thing/detail.json',
      {
        kind: 'detail',
        load: { operation: 'material.page', param: {} },
        sections: [{ title: '基本', type: 'descriptions', operation: 'material.page', param: { keyword: '{{record.nothing}}' } }],
        actions: [{ type: 'navigate', label: '去', to: '/material', query: { code: '{{record.records}}', bad: '{{record.recrods}}' } }],
      },
      contracts,
    ).map((p) => `${p.pointer} ${p.message}`);
    expect(problems.filter((p) => p.includes('模板'))).toEqual([
      '/actions/0/query/bad 模板 {{record.recrods}} 读取的 record.recrods 不在接口操作 material.page 的应答中（有：records、total、pageNumber、pageSize、totalAtLeast）',
      '/sections/0/param/keyword 模板 {{record.nothing}} 读取的 record.nothing 不在接口操作 material.page 的应答中（有：records、total、pageNumber、pageSize、totalAtLeast）',
    ]);
  });
});

describe('a button’s permission is one its own menu grants', () => {
  it('another screen’s real permission on this screen’s button is named with the menu and what it grants', () => {
    const dir = projectCopy();
    json(dir, 'schemas/pages/material/list.json', (page) => {
      (page.toolbar as unknown[]).push({ type: 'refresh', label: '刷新', permission: 'device.delete' });
    });
    const problems = checkButtonPermissions(loadContext(dir)).map(formatProblem);
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(/^schemas\/pages\/material\/list\.json \/toolbar\/\d+\/permission 权限 device\.delete 不是打开本页的菜单授予的按钮，这个按钮在这里对所有人都不显示；可用的按钮权限为 物料管理（material）：material\.delete、material\.export、material\.insert、material\.modify$/);
  });

  it('a form opened from the list is judged by the list’s menu; the project’s pages pass', () => {
    const dir = projectCopy();
    json(dir, 'schemas/pages/material/form.json', (page) => {
      page.description = '物料';
    });
    expect(checkButtonPermissions(loadContext(dir))).toEqual([]);
  });
});

describe('seeded values meet their dictionaries', () => {
  it('an entity’s seed row whose value is not in its dictionary is named with the allowed values', () => {
    const dir = projectCopy();
    json(dir, 'schemas/entities/office/material.json', (entity) => {
      entity.managed = true;
      entity.seed = [{ code: 'WL-1', name: '水表', type: 'gadget', unit: '只', stock: 1, warningLevel: 1 }];
    });
    const problems = checkEntityFiles(dir).filter((p) => p.pointer.startsWith('/seed')).map(formatProblem);
    expect(problems).toContain('schemas/entities/office/material.json /seed/0/type 演示数据的 type "gadget" 不在字典 material_type（物料类型）中（可用：device、accessory、consumable、tool）');
  });

  it('rows the reference server seeds into an entity’s table are checked against the field’s dictionary', () => {
    const entity = JSON.parse(readFileSync(join(root, 'schemas/entities/office/material.json'), 'utf8')) as Record<string, unknown>;
    const tables = [{ table: 'material', rows: [{ type: 'device' }, { type: 'gizmo' }, { type: '' }, { type: 'gizmo' }] }];
    expect(seededTableProblems([{ file: 'schemas/entities/office/material.json', entity }], tables, dictionaryValues(root)).map(formatProblem)).toEqual([
      'schemas/entities/office/material.json /fields/type/dictType 参考服务端的演示数据（server/seed）在表 material 的 type 列写了 2 行字典外的值 "gizmo"（第 2、4 行…）："gizmo" 不在字典 material_type（物料类型）中（可用：device、accessory、consumable、tool）',
    ]);
  });
});

describe('every data file is read with a sentence naming its line and column', () => {
  it('names the line, the column and what stands there', () => {
    const text = '{\n  "a": 1,\n  "b" 2\n}';
    let error: Error = new Error();
    try {
      JSON.parse(text);
    } catch (e) {
      error = e as Error;
    }
    expect(jsonSyntaxMessage(text, error)).toBe('第 3 行第 7 列：不是合法的 JSON，此处的 "2" 不应出现（前面缺少逗号或冒号）');
    expect(jsonSyntaxMessage('{"a": 1,', new Error('Expected double-quoted property name in JSON at position 8'))).toBe('第 1 行第 9 列：JSON 不完整（文件在此结束，缺少闭合的括号、引号或值）');
  });

  it('a broken menus, dictionaries, operations, entity, page or fragment file is one line each, and the run tells the other problems too', async () => {
    const dir = projectCopy();
    edit(dir, 'schemas/menus.json', (text) => text.replace('"menus": [', '"menus": [,'));
    edit(dir, 'schemas/dictionaries.json', (text) => text.replace(/"dictName": "菜单分类",/, '"dictName": "菜单分类"'));
    edit(dir, 'schemas/operations.json', (text) => `${text.trimEnd().slice(0, -1)},}\n`);
    edit(dir, 'schemas/entities/office/material.json', (text) => text.replace('"table": "material",', "'table': 'material',"));
    edit(dir, 'schemas/pages/material/form.json', (text) => text.replace(/\}\s*$/, ''));
    edit(dir, 'schemas/fragments/card.json', (text) => text.replace('{', '{{'));
    // And a problem that has nothing to do with them: a page naming a validator nobody registered.
    json(dir, 'schemas/pages/material/list.json', (page) => {
      page.title = '';
    });
    const problems = (await checkAll(dir)).map(formatProblem);
    const at = (file: string) => problems.filter((p) => p.startsWith(`${file} `));
    expect(at('schemas/menus.json')[0]).toMatch(/^schemas\/menus\.json \/ 第 2 行第 \d+ 列：不是合法的 JSON，此处的 "," 不应出现$/);
    expect(at('schemas/dictionaries.json')[0]).toMatch(/^schemas\/dictionaries\.json \/ 第 6 行第 7 列：不是合法的 JSON，此处的 "\\"" 不应出现（前面缺少逗号或冒号）$/);
    expect(at('schemas/operations.json')[0]).toMatch(/^schemas\/operations\.json \/ 第 \d+ 行第 \d+ 列：不是合法的 JSON，此处的 "}" 不应出现（多余的逗号或括号，或缺少值）$/);
    expect(at('schemas/entities/office/material.json')).toEqual([expect.stringMatching(/^schemas\/entities\/office\/material\.json \/ 第 5 行第 3 列：不是合法的 JSON，此处的 "'" 不应出现（JSON 的字符串与属性名要用双引号）$/)]);
    expect(at('schemas/pages/material/form.json')[0]).toMatch(/^schemas\/pages\/material\/form\.json \/ 第 \d+ 行第 \d+ 列：JSON 不完整/);
    expect(at('schemas/fragments/card.json')[0]).toMatch(/^schemas\/fragments\/card\.json \/ 第 1 行第 2 列：不是合法的 JSON，此处的 "\{" 不应出现/);
    expect(problems).toContain('schemas/pages/material/list.json /title 不能为空');
    expect(problems.filter((p) => /Error|at position|Unexpected|Expected/.test(p))).toEqual([]);
  }, 120_000);
});

describe('the data files’ JSON Schema sentences are Chinese, with the allowed values', () => {
  it('operations.json with an unknown kind and a missing path', () => {
    const dir = projectCopy();
    json(dir, 'schemas/operations.json', (operations) => {
      operations['thing.page'] = { kind: 'pages', title: '东西' };
    });
    const problems = checkDataFiles(dir).map(formatProblem);
    expect(problems).toContain('schemas/operations.json /thing.page 缺少必填属性 path');
    expect(problems.some((p) => /^schemas\/operations\.json \/thing\.page\/kind 取值必须是 call、page、blob、upload、get(、[a-z]+)* 之一$/.test(p))).toBe(true);
    expect(problems.filter((p) => /must|should/.test(p))).toEqual([]);
  });
});
