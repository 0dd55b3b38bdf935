import { screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { render } from '@testing-library/react';
import { Table } from 'antd';
import { useState, type Key } from 'react';
import { describe, expect, it } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { fakeData, fakeServices, renderWith } from './harness';

/**
 * What a selection costs the table (issue 35, goal 2): a held selection renders the table again,
 * and antd's selection hook walks every row of the page again (each row's key, its box's props,
 * the key map) whenever the table's `rowKey` or `getCheckboxProps` is a new function. The
 * renderer gives the table the same ones for as long as the page's key field is the same, so a
 * click reads each row's key only for the rows the table draws again, not for antd's maps too.
 */
const ROWS = 50;

/** Rows whose key counts how often it is read. */
function countedRows() {
  const reads = { count: 0 };
  const rows = Array.from({ length: ROWS }, (_, i) => {
    const row: Record<string, unknown> = { state: i % 2 ? 'offline' : 'online', name: `设备${i + 1}` };
    Object.defineProperty(row, 'id', {
      enumerable: true,
      get: () => {
        reads.count += 1;
        return i + 1;
      },
    });
    return row;
  });
  return { rows, reads };
}

const page = {
  schemaVersion: 1,
  kind: 'list',
  title: '全部设备',
  operation: 'device.page',
  pageSize: ROWS,
  columns: [
    { field: 'name', title: '名称' },
    { field: 'state', title: '状态', display: 'dict', dictType: 'device_state' },
  ],
  batchActions: [{ type: 'call', label: '批量删除', operation: 'device.batchDelete', param: { ids: '{{selection.keys}}' }, permission: 'device.delete' }],
};

/** The limit: antd's own Table written by hand, its selection held in state as a page with batch actions holds it. */
function HandWritten({ rows }: { rows: Array<Record<string, unknown>> }) {
  const [selected, setSelected] = useState<Key[]>([]);
  return (
    <>
      {selected.length > 0 && <span>已选择 {selected.length} 项</span>}
      <Table rowKey="id" dataSource={rows} pagination={false} columns={[{ dataIndex: 'name', title: '名称' }, { dataIndex: 'state', title: '状态' }]} rowSelection={{ selectedRowKeys: selected, preserveSelectedRowKeys: true, onChange: setSelected }} />
    </>
  );
}

/** How often a click on the first row's box and then on the page's box read the rows' keys. */
async function readsOfClicks(reads: { count: number }): Promise<[number, number]> {
  const boxes = screen.getAllByRole('checkbox');
  reads.count = 0;
  await userEvent.click(boxes[1]);
  expect(screen.getByText('已选择 1 项')).toBeInTheDocument();
  const one = reads.count;
  reads.count = 0;
  await userEvent.click(boxes[0]);
  expect(screen.getByText(`已选择 ${ROWS} 项`)).toBeInTheDocument();
  return [one, reads.count];
}

describe('list selection', () => {
  it('reads the rows\' keys on a click no more often than antd\'s own table written by hand', async () => {
    const limit = countedRows();
    const { unmount } = render(<HandWritten rows={limit.rows} />);
    await screen.findByText(`设备${ROWS}`);
    const [limitOne, limitAll] = await readsOfClicks(limit.reads);
    unmount();

    const { rows, reads } = countedRows();
    renderWith(<PageRenderer view="fixture/list" schema={page} />, fakeServices({ data: fakeData(rows), buttons: ['device.delete'] }));
    await screen.findByText(`设备${ROWS}`);
    const [one, all] = await readsOfClicks(reads);
    expect(one).toBeLessThanOrEqual(limitOne);
    expect(all).toBeLessThanOrEqual(limitAll);
  });
});
