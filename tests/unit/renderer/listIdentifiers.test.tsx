import { render, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { cardLayout } from '../../../renderers/list/ListCards';
import { activeFilters } from '../../../renderers/list/FilterToggle';
import { identifierTextWidth, identifierWidth, isIdentifier } from '../../../renderers/list/identifiers';
import { PagerTotal } from '../../../renderers/list/ListRenderer';
import type { Column } from '../../../renderers/schema/types';
import { fakeData, fakeServices, renderWith } from './harness';

const column = (field: string, title: string, more: Partial<Column> = {}): Column => ({ field, title, ...more });

describe('identifiers in a list (issue 34)', () => {
  it('a code, an ICCID, an IMEI, a phone number or an order number is an identifier; names, labels and times are not', () => {
    for (const c of [
      column('iccid', 'ICCID'),
      column('code', '告警编号'),
      column('deviceCode', '设备编码', { display: 'link', to: '/device/detail?code={{record.code}}' }),
      column('imei', 'IMEI'),
      column('msisdn', 'MSISDN'),
      column('expressNo', '快递单号'),
      column('contactPhone', '联系电话', { display: 'phone' }),
      column('phoneNumber', '手机号', { display: 'phone' }),
      column('requestId', '请求编号'),
      column('device.serialNo', '序列号'),
      column('repairOrderCode', '维修工单'),
    ])
      expect(isIdentifier(c), `${c.field} ${c.title}`).toBe(true);
    for (const c of [
      column('title', '告警标题'),
      column('deviceName', '设备名称'),
      column('address', '安装地址', { ellipsis: true }),
      column('roleCode', '角色', { display: 'tag', dictType: 'role' }),
      column('state', '卡状态', { display: 'tag', dictType: 'card_state' }),
      column('triggeredAt', '触发时间', { display: 'datetime' }),
      column('code', '编码', { ellipsis: true }),
      column('description', '说明'),
    ])
      expect(isIdentifier(c), `${c.field} ${c.title}`).toBe(false);
  });

  it('an identifier column is as wide as its widest value on one line, in steps of 8 px', () => {
    expect(identifierTextWidth('89860125000000000001')).toBe(160);
    const rows = [{ iccid: '89860125000000000001' }, { iccid: '8986012500000001' }, { iccid: null }, { device: { code: 'DEV000000001' } }];
    expect(identifierWidth('iccid', rows)).toBe(184);
    expect(identifierWidth('device.code', rows)).toBe(Math.ceil((12 * 8 + 24) / 8) * 8);
    expect(identifierWidth('device.code', rows, 32)).toBe(Math.ceil((12 * 8 + 24 + 32) / 8) * 8);
    expect(identifierWidth('missing', rows)).toBe(0);
  });

  it('a list never narrows an identifier: its column keeps the width its values need', async () => {
    const rows = Array.from({ length: 3 }, (_, i) => ({ id: i + 1, iccid: `8986012500000000000${i}`, remark: '一段很长很长的备注文字'.repeat(4) }));
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '物联网卡',
      operation: 'card.page',
      columns: [
        { field: 'iccid', title: 'ICCID', width: 100 },
        { field: 'remark', title: '备注', width: 400 },
      ],
    };
    renderWith(<PageRenderer view="fixture/cards" schema={page} />, fakeServices({ data: fakeData(rows) }));
    const cell = (await screen.findByText('89860125000000000000')).closest('td');
    expect(cell).toHaveClass('list-identifier');
    expect(cell).not.toHaveClass('ant-table-cell-ellipsis');
    const col = document.querySelectorAll('colgroup col')[0] as HTMLElement;
    expect(parseInt(col.style.width, 10)).toBe(184);
    const remark = screen.getAllByText(/一段很长/)[0].closest('td');
    expect(remark).toHaveClass('ant-table-cell-ellipsis');
  });
});

describe('the pager past the exact count (issue 34)', () => {
  it('says the rows counted and shows the estimate its pages follow as an estimate', () => {
    const { container, rerender } = render(<PagerTotal total={13_900} atLeast={10_000} />);
    expect(container.textContent).toBe('共 10,000+ 条（估算约 13,900 条）');
    rerender(<PagerTotal total={6_007} />);
    expect(container.textContent).toBe('共 6,007 条');
  });

  it('a list past the exact count shows the estimate beside 共 10,000+ 条', async () => {
    const data = fakeData([]);
    data.page = vi.fn(async (_operation, pageParam) => ({ records: [{ id: 1, code: 'A1' }], total: 13_900, totalAtLeast: 10_000, pageNumber: pageParam.pageNumber, pageSize: pageParam.pageSize }) as never);
    const page = { schemaVersion: 1, kind: 'list', title: '告警记录', operation: 'alarm.page', columns: [{ field: 'code', title: '告警编号' }] };
    renderWith(<PageRenderer view="fixture/alarms" schema={page} />, fakeServices({ data }));
    expect(await screen.findByText('共 10,000+ 条')).toBeVisible();
    expect(screen.getByTestId('pager-estimate')).toHaveTextContent('（估算约 13,900 条）');
  });
});

describe('a list at a phone\'s width (issue 34)', () => {
  it('a card takes the first column as its title, the first tag as its status and the next four as key fields', () => {
    const columns = [column('code', '设备编码'), column('name', '设备名称'), column('online', '在线状态', { display: 'tag', dictType: 'x' }), column('a', 'A'), column('b', 'B'), column('c', 'C'), column('d', 'D')];
    const layout = cardLayout(columns);
    expect(layout.title?.field).toBe('code');
    expect(layout.status?.field).toBe('online');
    expect(layout.fields.map((c) => c.field)).toEqual(['name', 'a', 'b', 'c']);
  });

  it('the folded filters\' button counts the filters in use', () => {
    expect(activeFilters({ keyword: '', state: undefined, org: [], level: 'urgent', range: ['a', 'b'] })).toBe(2);
  });
});
