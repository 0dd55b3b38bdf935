// Issues 33 and 34: a column's value, tag colour and visibility are expressions of its row, and a
// tag's colour is what its dictionary item means (never a hash of its text).
import { cleanup, render, screen } from '@testing-library/react';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { MEANING_COLOURS, seriesColours } from '../../../renderers/displays/colours';
import { renderCell } from '../../../renderers/displays/displays';
import { chartOption } from '../../../renderers/dashboard/options';
import { loadExpressionEngine } from '../../../renderers/schema/template';
import type { Column, DashboardWidget } from '../../../renderers/schema/types';
import type { RendererServices } from '../../../renderers/services';
import { dictionaryColour } from '../../../src/session/dictionary';
import type { Dictionary } from '../../../src/session/types';
import { fakeServices } from './harness';

const DICTIONARIES: Record<string, Dictionary> = {
  alarm_state: {
    dictType: 'alarm_state',
    dictName: '告警状态',
    children: [
      { dictValue: 'pending', dictLabel: '待处理', dictColor: 'error' },
      { dictValue: 'recovered', dictLabel: '已恢复', dictColor: 'success' },
    ],
  },
  alarm_level: { dictType: 'alarm_level', dictName: '告警等级', children: [{ dictValue: '1', dictLabel: '紧急', dictColor: 'error' }, { dictValue: '2', dictLabel: '重要', dictColor: 'warning' }] },
  spare_part_category: { dictType: 'spare_part_category', dictName: '备件类别', children: [{ dictValue: 'mechanical', dictLabel: '机械' }] },
};

/** The console's provider over these dictionaries (src/renderer/ConsolePage.tsx binds the session's the same way). */
function services(): RendererServices {
  const base = fakeServices();
  return {
    ...base,
    dictionaries: {
      ...base.dictionaries,
      label: (type, value) => DICTIONARIES[type]?.children.find((item) => item.dictValue === String(value))?.dictLabel ?? '未知',
      colour: (type, value) => dictionaryColour(DICTIONARIES, type, value),
    },
  };
}

function cell(column: Column, record: Record<string, unknown>) {
  cleanup();
  render(<div data-testid="cell">{renderCell(column, record, services())}</div>);
  return screen.getByTestId('cell');
}
const tagOf = (element: HTMLElement) => element.querySelector('.ant-tag');

beforeAll(() => loadExpressionEngine({ needs: "{{a ? 'b' : 'c'}}" }));
afterEach(cleanup);

describe('tag colours by meaning (issue 34)', () => {
  it('a dictionary tag takes its item colour: 已恢复 and 待处理 differ, the label stays', () => {
    const column: Column = { field: 'state', title: '状态', display: 'tag', dictType: 'alarm_state' };
    const pending = tagOf(cell(column, { state: 'pending' }));
    expect(pending).toHaveTextContent('待处理');
    expect(pending).toHaveClass('ant-tag-error');
    const recovered = tagOf(cell(column, { state: 'recovered' }));
    expect(recovered).toHaveTextContent('已恢复');
    expect(recovered).toHaveClass('ant-tag-success');
  });

  it('an item without a colour, a value the dictionary does not know and a tag without a dictionary are neutral, not a colour of their text', () => {
    expect(tagOf(cell({ field: 'category', title: '备件类别', display: 'tag', dictType: 'spare_part_category' }, { category: 'mechanical' }))).toHaveClass('ant-tag-default');
    expect(tagOf(cell({ field: 'state', title: '状态', display: 'tag', dictType: 'alarm_state' }, { state: 'nowhere' }))).toHaveClass('ant-tag-default');
    const battery = tagOf(cell({ field: 'tags', title: '标签', display: 'tag' }, { tags: '电量：91%' }));
    expect(battery).toHaveTextContent('电量：91%');
    expect(battery).toHaveClass('ant-tag-default');
    expect(battery?.className).not.toMatch(/ant-tag-(red|blue|green|orange|purple|cyan|gold|magenta|geekblue|lime)/);
  });

  it('a chart series standing for a dictionary item is drawn in that item colour, named by its label', () => {
    const widget: DashboardWidget = { type: 'line', title: '每日告警趋势', operation: 'dashboard.alarmTrend', x: 'day', y: ['level1', 'level2'], seriesDict: { dictType: 'alarm_level', values: { level1: '1', level2: '2' } } };
    const option = chartOption(widget, [{ day: '2026-12-01', level1: 3, level2: 1 }], undefined, services().dictionaries);
    expect(seriesColours(option)).toBe(`紧急:${MEANING_COLOURS.error},重要:${MEANING_COLOURS.warning}`);
  });
});

describe('row rules (issue 33)', () => {
  // 备件库存's rule, as schemas/pages/devices/sparePart.json writes it.
  const warning: Column = { field: 'stockWarning', title: '库存预警', display: 'tag', value: '库存不足', color: 'error', cellVisibleWhen: '{{record.stock < record.warnAt}}' };

  it('cellVisibleWhen: the short row shows a red 库存不足 tag, the others nothing', () => {
    const short = tagOf(cell(warning, { stock: 2, warnAt: 5 }));
    expect(short).toHaveTextContent('库存不足');
    expect(short).toHaveClass('ant-tag-error');
    expect(cell(warning, { stock: 5, warnAt: 5 })).toBeEmptyDOMElement();
    expect(cell(warning, { stock: 40, warnAt: 5 })).toBeEmptyDOMElement();
  });

  it('color: an expression of the row giving a meaning', () => {
    const stock: Column = { field: 'stock', title: '库存数量', display: 'tag', color: "{{record.stock < record.warnAt ? 'error' : 'default'}}" };
    expect(tagOf(cell(stock, { stock: 2, warnAt: 5 }))).toHaveClass('ant-tag-error');
    expect(tagOf(cell(stock, { stock: 9, warnAt: 5 }))).toHaveClass('ant-tag-default');
    // Anything but a meaning is neutral, never an arbitrary colour.
    expect(tagOf(cell({ ...stock, color: "{{'#f00'}}" }, { stock: 1, warnAt: 5 }))).toHaveClass('ant-tag-default');
  });

  it('value: a computed column, shown with its display', () => {
    const margin: Column = { field: 'margin', title: '余量', display: 'number', value: '{{record.stock - record.warnAt}}' };
    expect(cell(margin, { stock: 12, warnAt: 5 })).toHaveTextContent('7');
    const label: Column = { field: 'summary', title: '说明', value: '{{record.name}}：剩 {{record.stock}} 件' };
    expect(cell(label, { name: '轴承', stock: 3 })).toHaveTextContent('轴承：剩 3 件');
  });
});
