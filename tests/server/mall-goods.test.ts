// The mall's catalogue (issue 7): the platform's goods — listed for the shop (what is on the
// shelf) and for product management, added with uploaded pictures and sanitised descriptions,
// changed, put on and taken off the shelf, deleted — and its discounts (满减 and 折扣, over goods
// or whole orders, with validity periods). Every operation: its answer, invalid input ("400"),
// a state that refuses the action ("409"), what a tenant may not see ("404") and a role without
// the button ("403").
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DiscountRecord } from '../../server/operations/mall/discounts';
import type { GoodsSummary } from '../../server/operations/mall/goods';
import { codeOf, ok, page, signIn, uploaded, type Tokens } from './cards-helpers';
import { PNG } from './frame-helpers';
import { startServer, type TestServer } from './harness';

let server: TestServer;
let t: Tokens;
let picture: string;

beforeAll(async () => {
  server = await startServer();
  t = await signIn(server);
  picture = await uploaded(server, 'meter.png', PNG, t.operator);
});
afterAll(() => server.close());

type GoodsDetail = GoodsSummary & { images: string[]; description: string; discounts: Array<{ code: string; ruleText: string; saving: number | null }> };

const newGoods = (overrides: Record<string, unknown> = {}) => ({
  name: 'NB-IoT 智能燃气表',
  category: 'device',
  model: 'YL-GM100',
  spec: 'G2.5 · 阀控 · 8 年电池',
  unit: '台',
  price: 520,
  marketPrice: 600,
  stock: 300,
  freight: 30,
  images: [picture],
  description: '<p>内置 <strong>NB-IoT</strong> 物联网卡</p><script>alert(1)</script><img src=x onerror=alert(1)>',
  cardCustomCode: 'DZ-CMCC-NB-MP1',
  cardsPerUnit: 1,
  sort: 40,
  ...overrides,
});

describe('mall.goods.page, list and detail', () => {
  it('shows a tenant what is on the shelf, with pictures, prices and the running discounts', async () => {
    const shop = await page<GoodsSummary>(server, 'mall.goods.page', t.tadmin, {}, { pageSize: 100 });
    expect(shop.code).toBe('200');
    expect(shop.data.total).toBe(27);
    expect(shop.data.records.every((goods) => goods.state === 'on_shelf' && goods.coverImage.startsWith('data:image/svg+xml;base64,'))).toBe(true);
    const meter = shop.data.records.find((goods) => goods.code === 'GD00001')!;
    expect(meter).toMatchObject({ name: 'NB-IoT 智能水表 DN20', price: 368, marketPrice: 428, category: 'device', cardCustomCode: 'DZ-CMCC-NB-MP1', cardsPerUnit: 1 });
    expect(meter.discountTags).toEqual(expect.arrayContaining(['全场满10000减1200', '指定商品9折']));
    // Even asked for, the shelf's other side stays hidden from a tenant.
    expect((await page<GoodsSummary>(server, 'mall.goods.page', t.badmin, { state: 'off_shelf' })).data.records.every((goods) => goods.state === 'on_shelf')).toBe(true);
    const cards = await page<GoodsSummary>(server, 'mall.goods.page', t.tadmin, { category: 'card' }, { sort: [{ field: 'price', order: 'desc' }] });
    const prices = cards.data.records.map((goods) => goods.price);
    expect(cards.data.records.every((goods) => goods.category === 'card')).toBe(true);
    expect(prices).toEqual([...prices].sort((a, b) => b - a));
  });

  it('shows platform staff both sides of the shelf; refuses bad filters and users without the mall', async () => {
    const off = await page<GoodsSummary>(server, 'mall.goods.page', t.operator, { state: 'off_shelf' });
    expect(off.data.records.map((goods) => goods.code).sort()).toEqual(['GD00016', 'GD00017']);
    expect((await page(server, 'mall.goods.page', t.operator, { category: 'food' })).code).toBe('400');
    expect((await page(server, 'mall.goods.page', t.tuser)).code).toBe('403');
    const options = await ok<Array<{ code: string; label: string }>>(server, 'mall.goods.list', { keyword: '水表' }, t.operator);
    expect(options.map((o) => o.code)).toEqual(['GD00001', 'GD00002', 'GD00012', 'GD00017']);
    expect(options[3].label).toContain('已下架');
    expect(await codeOf(server, 'mall.goods.list', { keyword: 7 }, t.operator)).toBe('400');
  });

  it('details goods with every picture, the description and what each discount saves; off-shelf goods are not found by a tenant', async () => {
    const detail = await ok<GoodsDetail>(server, 'mall.goods.detail', { code: 'GD00001' }, t.tadmin);
    expect(detail.images).toHaveLength(3);
    expect(detail.description).toContain('<li>内置中国移动 NB-IoT 物联网卡，开箱即用</li>');
    expect(detail.discounts.find((d) => d.code === 'YH00006')).toMatchObject({ ruleText: '指定商品9折', saving: 36.8 });
    expect(detail.discounts.find((d) => d.code === 'YH00005')).toMatchObject({ saving: null });
    expect(await server.call('mall.goods.detail', { code: 'GD00016' }, { token: t.tadmin })).toMatchObject({ code: '404', message: '商品不存在或已下架' });
    expect((await ok<GoodsDetail>(server, 'mall.goods.detail', { code: 'GD00016' }, t.operator)).state).toBe('off_shelf');
    expect(await codeOf(server, 'mall.goods.detail', { code: 'G1' }, t.tadmin)).toBe('400');
    expect(await codeOf(server, 'mall.goods.detail', { code: 'GD00001' }, t.tuser)).toBe('403');
  });
});

describe('mall.goods.insert, modify, shelf and delete (platform staff)', () => {
  it('adds goods off the shelf, the description sanitised; refuses bad input and tenants', async () => {
    expect(await codeOf(server, 'mall.goods.insert', { goods: newGoods() }, t.tadmin)).toBe('403');
    expect(await server.call('mall.goods.insert', { goods: newGoods({ price: 0 }) }, { token: t.operator })).toMatchObject({ code: '400', message: '参数错误：goods.price（超出允许范围）' });
    expect(await server.call('mall.goods.insert', { goods: newGoods({ marketPrice: 500 }) }, { token: t.operator })).toMatchObject({
      code: '400',
      message: '参数错误：marketPrice（划线价不能低于售价）',
    });
    expect(await server.call('mall.goods.insert', { goods: newGoods({ images: ['upload/2026/11/00000000000000000000000000000000.png'] }) }, { token: t.operator })).toMatchObject({
      code: '400',
      message: '参数错误：images（图片不存在，请重新上传）',
    });
    expect(await server.call('mall.goods.insert', { goods: newGoods({ images: ['https://evil.example.com/a.png'] }) }, { token: t.operator })).toMatchObject({ code: '400' });
    expect(await server.call('mall.goods.insert', { goods: newGoods({ category: 'card', cardCustomCode: '' }) }, { token: t.operator })).toMatchObject({
      code: '400',
      message: '参数错误：cardCustomCode（物联网卡套餐需要选择定制卡）',
    });
    expect(await codeOf(server, 'mall.goods.insert', { goods: newGoods({ cardCustomCode: 'DZ-NONE' }) }, t.operator)).toBe('400');
    expect(await codeOf(server, 'mall.goods.insert', { goods: newGoods({ name: '<b>燃气表</b>' }) }, t.operator)).toBe('400');

    const added = await ok<GoodsDetail>(server, 'mall.goods.insert', { goods: newGoods() }, t.operator);
    expect(added).toMatchObject({ code: 'GD00030', state: 'off_shelf', price: 520, images: [picture], createdBy: 'operator' });
    expect(added.description).toBe('<p>内置 <strong>NB-IoT</strong> 物联网卡</p>');
    // Not on the shelf yet: the shop does not know it.
    expect(await codeOf(server, 'mall.goods.detail', { code: added.code }, t.tadmin)).toBe('404');
  });

  it('changes goods, keeping its built-in pictures but taking no foreign ones', async () => {
    const current = await ok<GoodsDetail>(server, 'mall.goods.detail', { code: 'GD00002' }, t.operator);
    const fields = {
      name: current.name,
      category: current.category,
      model: current.model,
      spec: current.spec,
      unit: current.unit,
      price: 388,
      marketPrice: current.marketPrice,
      stock: current.stock,
      freight: current.freight,
      images: [...current.images.slice(0, 2), picture],
      description: current.description,
      cardCustomCode: current.cardCustomCode,
      cardsPerUnit: current.cardsPerUnit,
      sort: current.sort,
    };
    const changed = await ok<GoodsDetail>(server, 'mall.goods.modify', { code: current.code, goods: fields }, t.operator);
    expect(changed).toMatchObject({ price: 388, images: fields.images });
    const foreign = `data:image/svg+xml;base64,${Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>').toString('base64')}`;
    expect(await server.call('mall.goods.modify', { code: current.code, goods: { ...fields, images: [foreign] } }, { token: t.operator })).toMatchObject({
      code: '400',
      message: '参数错误：images（请上传商品图片）',
    });
    expect(await server.call('mall.goods.modify', { code: current.code, goods: { ...fields, stock: 0 } }, { token: t.operator })).toMatchObject({
      code: '409',
      message: '上架中的商品库存不能为 0，请先下架',
    });
    expect(await codeOf(server, 'mall.goods.modify', { code: current.code, goods: fields }, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'mall.goods.modify', { code: 'GD99999', goods: fields }, t.operator)).toBe('404');
    expect(await codeOf(server, 'mall.goods.modify', { code: current.code, goods: { ...fields, unit: '' } }, t.operator)).toBe('400');
  });

  it('refuses a save over goods that changed since the editor loaded them: an order took stock meanwhile, or another editor saved', async () => {
    const loaded = await ok<GoodsDetail & { updateTime: string }>(server, 'mall.goods.detail', { code: 'GD00003' }, t.operator);
    const fields = {
      name: loaded.name, category: loaded.category, model: loaded.model, spec: loaded.spec, unit: loaded.unit, price: loaded.price, marketPrice: loaded.marketPrice,
      stock: loaded.stock + 10, freight: loaded.freight, images: loaded.images, description: loaded.description, cardCustomCode: loaded.cardCustomCode,
      cardsPerUnit: loaded.cardsPerUnit, sort: loaded.sort, updateTime: loaded.updateTime,
    };
    // An order takes 2 (as mall.order.submit does: stock and updated_at in one statement).
    await server.db.query('UPDATE mall_goods SET stock = stock - 2, updated_at = $2 WHERE code = $1', ['GD00003', new Date(Date.parse(loaded.updateTime) + 1000)]);
    expect(await server.call('mall.goods.modify', { code: 'GD00003', goods: fields }, { token: t.operator })).toEqual({
      code: '409',
      message: '商品已被他人修改（库存可能已被订单占用），请刷新后重试',
      data: null,
    });
    expect((await ok<GoodsDetail>(server, 'mall.goods.detail', { code: 'GD00003' }, t.operator)).stock).toBe(loaded.stock - 2);
    // Loaded again, the save goes through; then the same loaded version cannot be saved twice.
    const fresh = await ok<GoodsDetail & { updateTime: string }>(server, 'mall.goods.detail', { code: 'GD00003' }, t.operator);
    const saved = await ok<GoodsDetail>(server, 'mall.goods.modify', { code: 'GD00003', goods: { ...fields, stock: fresh.stock + 10, updateTime: fresh.updateTime } }, t.operator);
    expect(saved.stock).toBe(loaded.stock + 8);
    expect((await server.call('mall.goods.modify', { code: 'GD00003', goods: { ...fields, updateTime: fresh.updateTime } }, { token: t.operator })).code).toBe('409');
    // Without updateTime (an integrator's call) the save is not checked; a malformed one is "400".
    expect((await server.call('mall.goods.modify', { code: 'GD00003', goods: { ...fields, updateTime: 'yesterday' } }, { token: t.operator })).code).toBe('400');
  });

  it('puts goods on the shelf and takes them off, each only from the other side', async () => {
    const [goods] = (await page<GoodsSummary>(server, 'mall.goods.page', t.operator, { keyword: '燃气表' })).data.records;
    expect(await codeOf(server, 'mall.goods.shelf', { code: goods.code, onShelf: true }, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'mall.goods.shelf', { code: goods.code, onShelf: 'yes' }, t.operator)).toBe('400');
    const on = await ok<GoodsDetail>(server, 'mall.goods.shelf', { code: goods.code, onShelf: true }, t.operator);
    expect(on.state).toBe('on_shelf');
    expect(on.shelfTime).not.toBeNull();
    expect((await ok<GoodsDetail>(server, 'mall.goods.detail', { code: goods.code }, t.badmin)).name).toBe('NB-IoT 智能燃气表');
    expect(await server.call('mall.goods.shelf', { code: goods.code, onShelf: true }, { token: t.operator })).toMatchObject({ code: '409', message: '当前状态（已上架）不允许上架' });
    // Out of stock: it stays off the shelf.
    expect(await server.call('mall.goods.shelf', { code: 'GD00016', onShelf: true }, { token: t.operator })).toMatchObject({ code: '409', message: '库存为 0 的商品不能上架，请先补充库存' });
    expect(await server.call('mall.goods.shelf', { code: 'GD00017', onShelf: false }, { token: t.operator })).toMatchObject({ code: '409', message: '当前状态（已下架）不允许下架' });
  });

  it('deletes goods off the shelf only; what orders bought stays for them', async () => {
    const [goods] = (await page<GoodsSummary>(server, 'mall.goods.page', t.operator, { keyword: '燃气表' })).data.records;
    expect(await server.call('mall.goods.delete', { code: goods.code }, { token: t.operator })).toMatchObject({ code: '409', message: '当前状态（已上架）不允许删除' });
    await ok(server, 'mall.goods.shelf', { code: goods.code, onShelf: false }, t.operator);
    expect(await codeOf(server, 'mall.goods.delete', { code: goods.code }, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'mall.goods.delete', { code: goods.code, force: true }, t.operator)).toBe('400');
    await ok(server, 'mall.goods.delete', { code: goods.code }, t.operator);
    expect(await codeOf(server, 'mall.goods.detail', { code: goods.code }, t.operator)).toBe('404');
    // The old water meter was bought by orders: deleted, their lines still name it.
    await ok(server, 'mall.goods.delete', { code: 'GD00017' }, t.admin);
    const [line] = await server.db.query<{ goods_name: string }>(`SELECT goods_name FROM mall_order_item WHERE goods_code = 'GD00017' LIMIT 1`);
    expect(line.goods_name).toBe('NB-IoT 智能水表（旧款）');
  });
});

describe('mall.discount.*: the platform’s discounts', () => {
  it('lists discounts with their rule and state, filtered by state; tenants have no access', async () => {
    const all = await page<DiscountRecord>(server, 'mall.discount.page', t.operator, {}, { pageSize: 50 });
    expect(all.data.total).toBe(12);
    expect(new Set(all.data.records.map((d) => d.state))).toEqual(new Set(['not_started', 'active', 'ended']));
    const running = await page<DiscountRecord>(server, 'mall.discount.page', t.operator, { state: 'active' });
    expect(running.data.records.every((d) => d.state === 'active')).toBe(true);
    expect(running.data.records.find((d) => d.code === 'YH00007')).toMatchObject({ ruleText: '指定商品8.8折（满2000可用）', goodsNames: 'NB-IoT 独立烟感', rate: 8.8 });
    expect(running.data.records.find((d) => d.code === 'YH00005')).toMatchObject({ ruleText: '全场满10000减1200', reduceAmount: 1200, threshold: 10000 });
    expect((await page(server, 'mall.discount.page', t.operator, { state: 'forever' })).code).toBe('400');
    expect((await page(server, 'mall.discount.page', t.tadmin)).code).toBe('403');
    expect(await codeOf(server, 'mall.discount.detail', { code: 'YH00005' }, t.tadmin)).toBe('403');
    expect((await ok<DiscountRecord>(server, 'mall.discount.detail', { code: 'YH00005' }, t.operator)).usedCount).toBeGreaterThan(0);
    expect(await codeOf(server, 'mall.discount.detail', { code: 'YH99999' }, t.operator)).toBe('404');
    expect(await codeOf(server, 'mall.discount.detail', { code: 5 }, t.operator)).toBe('400');
  });

  it('adds 满减 and 折扣 discounts, checking the rule; changes one still ahead; refuses tenants', async () => {
    const start = new Date(Date.now() + 86_400_000);
    const end = new Date(Date.now() + 30 * 86_400_000);
    const range = [start.toISOString(), end.toISOString()];
    const amount = { name: '智慧园区开工季', type: 'amount', scope: 'order', threshold: 5000, reduceAmount: 400, timeRange: range, remark: '' };
    expect(await codeOf(server, 'mall.discount.insert', { discount: amount }, t.tadmin)).toBe('403');
    expect(await server.call('mall.discount.insert', { discount: { ...amount, reduceAmount: 6000 } }, { token: t.operator })).toMatchObject({
      code: '400',
      message: '参数错误：reduceAmount（减免金额应小于门槛金额）',
    });
    expect(await server.call('mall.discount.insert', { discount: { ...amount, timeRange: [range[1], range[0]] } }, { token: t.operator })).toMatchObject({
      code: '400',
      message: '参数错误：timeRange（结束时间应晚于开始时间）',
    });
    expect(await server.call('mall.discount.insert', { discount: { ...amount, scope: 'goods' } }, { token: t.operator })).toMatchObject({
      code: '400',
      message: '参数错误：goodsCodes（指定商品优惠需要选择商品）',
    });
    expect(await codeOf(server, 'mall.discount.insert', { discount: { ...amount, type: 'rate', rate: 12 } }, t.operator)).toBe('400');
    const added = await ok<DiscountRecord>(server, 'mall.discount.insert', { discount: amount }, t.operator);
    expect(added).toMatchObject({ code: 'YH00013', state: 'not_started', ruleText: '全场满5000减400' });

    const rate = await ok<DiscountRecord>(
      server,
      'mall.discount.insert',
      { discount: { name: '压力计 85 折', type: 'rate', scope: 'goods', goodsCodes: ['GD00005'], rate: 8.5, timeRange: ['2026-01-01 00:00:00', '2099-12-31 23:59:59'] } },
      t.operator,
    );
    expect(rate).toMatchObject({ state: 'active', rate: 8.5, goodsNames: 'NB-IoT 压力计', timeRange: ['2026-01-01 00:00:00', '2099-12-31 23:59:59'] });
    // It prices the shop at once.
    const preview = await ok<{ discount: { code: string; amount: number } | null }>(server, 'mall.order.preview', { items: [{ goodsCode: 'GD00005', quantity: 2 }] }, t.tadmin);
    expect(preview.discount).toMatchObject({ code: rate.code, amount: 294 });

    const changed = await ok<DiscountRecord>(server, 'mall.discount.modify', { code: added.code, discount: { ...amount, reduceAmount: 450 } }, t.operator);
    expect(changed.ruleText).toBe('全场满5000减450');
    expect(await codeOf(server, 'mall.discount.modify', { code: added.code, discount: { ...amount, name: '' } }, t.operator)).toBe('400');
    expect(await codeOf(server, 'mall.discount.modify', { code: added.code, discount: amount }, t.badmin)).toBe('403');
    expect(await server.call('mall.discount.modify', { code: 'YH00004', discount: amount }, { token: t.operator })).toMatchObject({ code: '409', message: '当前状态（已结束）不允许修改' });
  });

  it('deletes a discount no order used; one orders were placed with stays', async () => {
    const unused = await page<DiscountRecord>(server, 'mall.discount.page', t.operator, { keyword: '开工季' });
    const code = unused.data.records[0].code;
    expect(await codeOf(server, 'mall.discount.delete', { code }, t.tadmin)).toBe('403');
    expect(await codeOf(server, 'mall.discount.delete', { code: 'YH1' }, t.operator)).toBe('400');
    await ok(server, 'mall.discount.delete', { code }, t.operator);
    expect(await codeOf(server, 'mall.discount.detail', { code }, t.operator)).toBe('404');
    expect(await server.call('mall.discount.delete', { code: 'YH00005' }, { token: t.operator })).toMatchObject({
      code: '409',
      message: '已有订单使用该优惠，不能删除；可修改结束时间提前结束',
    });
  });
});
