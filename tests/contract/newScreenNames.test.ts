// npm run new:screen's menu icon and dictionary name (issue 33): without --icon a new entry gets an
// icon the frame draws that none of its siblings uses — never the generic one, and not always the
// same one — and a new dictionary is named after its field with the noun once (备件类别, as README's
// spare-parts example says, not 备件备件类别).
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describe as describeArgs, menuTreeText, nextSteps, siblingIcons, writeScreen } from '../../scripts/new-screen';
import { generateScreen, withMenuIcons, type MenuEntry } from '../../scripts/screenGenerator';
import { GENERIC_MENU_ICON, MENU_ICONS } from '../../src/frame/menuIconSet';

const root = new URL('../..', import.meta.url).pathname;
const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const SPARE_PARTS = ['repair/sparePartB', '--title', '备件台账', '--noun', '备件', '--parent', 'repair', '--fields', 'name:text!,category:dict(spare_part_kind)=备件类别,stock:integer=库存数量', '--dict', 'spare_part_kind=mechanical:机械,electrical:电气', '--seed', '2'];
const drawable = Object.keys(MENU_ICONS);
const entries = (code: string): MenuEntry[] => [
  { code, name: '列表', url: `/${code}` },
  { code: `${code}Detail`, name: '详情', url: `/${code}/detail`, shown: false },
];

describe('npm run new:screen names', () => {
  it('a dictionary is named after its field, the noun said once', () => {
    const files = generateScreen(describeArgs(SPARE_PARTS));
    expect(files.dictionaries.map((d) => d.dictName)).toEqual(['备件类别']);
    const supplier = generateScreen(describeArgs(['supply/supplier', '--title', '供应商管理', '--fields', 'name:text!,status:dict(supplier_status)', '--dict', 'supplier_status=active:合作中']));
    expect(supplier.dictionaries.map((d) => d.dictName)).toEqual(['供应商状态']);
  });

  it('each new entry an icon no sibling uses, drawable and not the generic one; an icon the description names is kept', () => {
    const taken = ['InboxOutlined', 'DatabaseOutlined', 'ProfileOutlined'];
    const [list, detail] = withMenuIcons(entries('stock.part'), taken, drawable, GENERIC_MENU_ICON);
    for (const icon of [list.icon, detail.icon]) {
      expect(drawable).toContain(icon);
      expect(taken).not.toContain(icon);
      expect(icon).not.toBe(GENERIC_MENU_ICON);
    }
    expect(list.icon).not.toBe(detail.icon);
    expect(withMenuIcons(entries('stock.part'), [], drawable, GENERIC_MENU_ICON)[1].icon).toBe('ProfileOutlined');
    const [named] = withMenuIcons([{ ...entries('stock.part')[0], icon: 'ToolOutlined' }], taken, drawable, GENERIC_MENU_ICON);
    expect(named.icon).toBe('ToolOutlined');
    // Not one icon for every screen: the entries of other codes beside the same siblings differ.
    const icons = new Set(['supply.supplier', 'stock.part', 'asset.tool', 'fleet.car', 'office.desk'].map((code) => withMenuIcons(entries(code), taken, drawable, GENERIC_MENU_ICON)[0].icon));
    expect(icons.size).toBeGreaterThan(1);
  });

  it('a screen written into a folder takes icons its siblings there do not use (备件库存 already holds InboxOutlined and ProfileOutlined in 维修)', () => {
    const dir = mkdtempSync(join(tmpdir(), 'new-screen-'));
    scratch.push(dir);
    cpSync(join(root, 'schemas'), join(dir, 'schemas'), { recursive: true });
    const read = () => JSON.parse(readFileSync(join(dir, 'schemas/menus.json'), 'utf8')) as { menus: MenuEntry[] };
    const before = siblingIcons(read(), 'repair');
    expect(before).toEqual(expect.arrayContaining(['InboxOutlined', 'ProfileOutlined']));
    // A new dictionary, written into the folder's own dictionaries: its entity is checked against those, not the project's.
    const inFolder = ['repair/sparePartB', '--title', '备件台账', '--noun', '备件', '--parent', 'repair', '--fields', 'name:text!,grade:dict(spare_part_grade)=备件等级', '--dict', 'spare_part_grade=a:一级,b:二级', '--seed', '2'];
    const { problems } = writeScreen(generateScreen(describeArgs(inFolder)), dir);
    expect(problems.map((p) => `${p.file} ${p.pointer} ${p.message}`)).toEqual([]);
    const after = siblingIcons(read(), 'repair');
    const added = after.slice(before.length);
    expect(added).toHaveLength(2);
    for (const icon of added) {
      expect(before).not.toContain(icon);
      expect(drawable).toContain(icon);
      expect(icon).not.toBe(GENERIC_MENU_ICON);
    }
    expect(new Set(after).size).toBe(after.length);
  });
});

describe('npm run new:screen -- --menus and what it says after writing (issue 33: README "Add a screen")', () => {
  it('prints the menu tree with codes, its folders being what --parent takes, hidden routes marked', () => {
    const tree = {
      menus: [
        { code: 'home', name: '工作台', url: '/dashboard' },
        { code: 'repair', name: '维修管理', children: [{ code: 'repair.order', name: '维修工单', url: '/repair' }, { code: 'repair.orderDetail', name: '工单详情', url: '/repair/detail', shown: false }] },
      ],
    } satisfies { menus: MenuEntry[] };
    expect(menuTreeText(tree).split('\n')).toEqual(['工作台  home  /dashboard', '维修管理  repair  目录，可作 --parent', '  维修工单  repair.order  /repair', '  工单详情  repair.orderDetail  /repair/detail（隐藏）']);
    // The project's own tree: 维修管理 is the folder README's 备件库存 went into.
    const menus = JSON.parse(readFileSync(join(root, 'schemas/menus.json'), 'utf8')) as { menus: MenuEntry[] };
    expect(menuTreeText(menus)).toMatch(/^\S.* {2}repair {2}目录，可作 --parent$/m);
  });

  it('says how to see the screen and how to run only its server suites', () => {
    const text = nextSteps('repair.sparePart.');
    expect(text).toContain('npm run dev 时页面随保存即时更新');
    expect(text).toContain('npm run build');
    expect(text).toContain('CATALOGUE_FOCUS=repair.sparePart. npx vitest run --project server tests/server/fuzz-1.test.ts');
  });
});
