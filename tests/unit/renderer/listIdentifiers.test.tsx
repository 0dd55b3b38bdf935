import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { identifierTextWidth, identifierWidth, isIdentifier } from '../../../renderers/list/identifiers';
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
