// Issue 33, "Built-ins registered like extensions": displays, form components and filter
// components are registries like the action and widget kinds (renderers/registry.ts). Each built-in
// is an entry with the props npm run check reads; an entry added through the registry, as an
// extension adds it, works in a rendered page beside the built-ins; a name registered twice is
// refused with a sentence naming the registry and the name.
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { ACTION_KINDS } from '../../../renderers/actions/actionKinds';
import { WIDGET_KINDS } from '../../../renderers/dashboard/widgetKinds';
import { DISPLAY_KINDS } from '../../../renderers/displays/displays';
import { FORM_COMPONENT_KINDS } from '../../../renderers/form/formily';
import { FILTER_COMPONENT_KINDS } from '../../../renderers/list/FilterForm';
import { fakeData, fakeServices, renderWith } from './harness';
import { IDENTIFIER_CLASS } from '../../../renderers/list/identifiers';

/** A stock meter: an extension's display, reading another field of its row. */
DISPLAY_KINDS.register('testStock', {
  render: (value, { record }) => (
    <meter aria-label={`库存 ${String(record.name)}`} value={Number(value)} max={Number(record.capacity)}>
      {String(value)}/{String(record.capacity)}
    </meter>
  ),
});

/** Weights in grams: an extension's display saying it is a number (its cells line up on the right). */
DISPLAY_KINDS.register('testGrams', { render: (value) => `${String(value)} g`, numeric: true });
/** A part's code shown as it is: an extension's verbatim display, so its code column is an identifier. */
DISPLAY_KINDS.register('testVerbatim', { render: (value) => String(value), verbatim: true });

/** A star rating: an extension's form component (Formily hands it value and onChange). */
function Stars({ value, onChange, count = 5 }: { value?: number; onChange?: (value: number) => void; count?: number }) {
  return (
    <span role="radiogroup" aria-label="评分">
      {Array.from({ length: count }, (_, index) => (
        <button key={index} type="button" role="radio" aria-checked={value === index + 1} onClick={() => onChange?.(index + 1)}>
          {index + 1}星
        </button>
      ))}
    </span>
  );
}
FORM_COMPONENT_KINDS.register('TestStars', { component: Stars as never, filled: 'chosen' });

/** A yes/no switch for a list's filter: an extension's filter control (antd's Form.Item hands it value and onChange). */
function YesNo({ value, onChange, 'aria-label': label }: { value?: string; onChange?: (value: string) => void; 'aria-label'?: string }) {
  return (
    <select aria-label={label} value={value ?? ''} onChange={(event) => onChange?.(event.target.value)}>
      <option value="">全部</option>
      <option value="1">是</option>
      <option value="0">否</option>
    </select>
  );
}
FILTER_COMPONENT_KINDS.register('TestYesNo', { render: (props) => <YesNo {...(props as { 'aria-label'?: string })} /> });

const rows = [
  { id: 1, name: '滤芯', stock: 3, capacity: 10 },
  { id: 2, name: '密封圈', stock: 9, capacity: 10 },
];

describe('entries added through the registries, in rendered pages', () => {
  it('a display draws its column in a list beside the built-ins', async () => {
    const services = fakeServices({ data: fakeData(rows) });
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '备件',
      operation: 'parts.page',
      columns: [
        { field: 'name', title: '名称' },
        { field: 'stock', title: '库存', display: 'testStock' },
        { field: 'capacity', title: '容量', display: 'number' },
      ],
    };
    renderWith(<PageRenderer view="fixture/parts" schema={page} />, services);
    const meter = await screen.findByRole('meter', { name: '库存 滤芯' });
    expect(meter).toHaveAttribute('value', '3');
    expect(meter).toHaveTextContent('3/10');
    expect(screen.getByRole('meter', { name: '库存 密封圈' })).toHaveAttribute('value', '9');
    expect(screen.getAllByText('10')).toHaveLength(2);
  });

  it('a display’s traits are its entry’s: a numeric one lines up on the right, a verbatim one may be an identifier', async () => {
    const services = fakeServices({ data: fakeData(rows.map((row) => ({ ...row, partCode: `P-${row.id}` }))) });
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '备件',
      operation: 'parts.page',
      columns: [
        { field: 'name', title: '名称' },
        { field: 'stock', title: '重量', display: 'testGrams' },
        { field: 'partCode', title: '备件编号', display: 'testVerbatim' },
        { field: 'capacity', title: '容量编号', display: 'testStock' },
      ],
    };
    renderWith(<PageRenderer view="fixture/partTraits" schema={page} />, services);
    const grams = (await screen.findByText('3 g')).closest('td');
    expect(grams).toHaveStyle({ textAlign: 'right' });
    expect(screen.getByText('滤芯').closest('td')).not.toHaveStyle({ textAlign: 'right' });
    expect(screen.getByText('P-1').closest('td')).toHaveClass(IDENTIFIER_CLASS);
    // A display that says neither is no identifier, whatever its title.
    expect(screen.getByRole('meter', { name: '库存 滤芯' }).closest('td')).not.toHaveClass(IDENTIFIER_CLASS);
  });

  it('a form component draws its field, its value submitted; its required message is its entry’s', async () => {
    const data = fakeData();
    data.call = vi.fn(async (operation: string, param?: unknown) => {
      data.calls.push({ kind: 'call', operation, param });
      return null as never;
    });
    const page = {
      schemaVersion: 1,
      kind: 'form',
      title: '评价',
      submit: { operation: 'feedback.rate', param: { rating: '{{values.rating}}', remark: '{{values.remark}}' } },
      schema: {
        type: 'object',
        properties: {
          rating: { type: 'number', title: '评分', required: true, 'x-decorator': 'FormItem', 'x-component': 'TestStars', 'x-component-props': { count: 3 } },
          remark: { type: 'string', title: '备注', 'x-decorator': 'FormItem', 'x-component': 'Input' },
        },
      },
    };
    renderWith(<PageRenderer view="fixture/rate" schema={page} />, fakeServices({ data }));
    const stars = await screen.findByRole('radiogroup', { name: '评分' });
    expect(within(stars).getAllByRole('radio')).toHaveLength(3);
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请选择评分')).toBeInTheDocument();
    await userEvent.click(within(stars).getByRole('radio', { name: '2星' }));
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(data.calls.find((call) => call.operation === 'feedback.rate')).toMatchObject({ param: { rating: 2 } }));
  });

  it('a filter control draws in the list’s filter, its value searched', async () => {
    const data = fakeData(rows);
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '备件',
      operation: 'parts.page',
      filters: {
        type: 'object',
        properties: {
          keyword: { type: 'string', title: '关键字', 'x-component': 'Input' },
          short: { type: 'string', title: '缺货', 'x-component': 'TestYesNo' },
        },
      },
      columns: [{ field: 'name', title: '名称' }],
    };
    renderWith(<PageRenderer view="fixture/partFilters" schema={page} />, fakeServices({ data }));
    await screen.findByText('滤芯');
    await userEvent.selectOptions(within(screen.getByTestId('list-filters')).getByLabelText('缺货'), '1');
    await userEvent.click(screen.getByRole('button', { name: /查\s*询/ }));
    await waitFor(() => expect(data.calls.at(-1)).toMatchObject({ kind: 'page', param: { short: '1' } }));
  });

  it('a page naming a display or a filter control nobody registered is refused with the registered names', async () => {
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '备件',
      operation: 'parts.page',
      filters: { type: 'object', properties: { photo: { type: 'string', title: '照片', 'x-component': 'FileUpload' } } },
      columns: [{ field: 'name', title: '名称', display: 'sparkle' }],
    };
    renderWith(<PageRenderer view="fixture/broken" schema={page} />, fakeServices());
    expect(await screen.findByText(/未注册的展示方式 sparkle（可用：.*testStock/)).toBeInTheDocument();
    expect(screen.getByText(/未注册的筛选组件 FileUpload（可用：.*TestYesNo/)).toBeInTheDocument();
  });
});

describe('clash refusal', () => {
  it.each([
    ['展示方式', () => DISPLAY_KINDS.register('tag', { render: () => null })],
    ['展示方式', () => DISPLAY_KINDS.register('testStock', { render: () => null })],
    ['表单组件', () => FORM_COMPONENT_KINDS.register('Input', { component: () => null })],
    ['筛选组件', () => FILTER_COMPONENT_KINDS.register('DatePicker.RangePicker', { render: () => null })],
    ['动作类型', () => ACTION_KINDS.register('navigate', { answers: false, templates: [], run: () => undefined })],
    ['仪表盘组件类型', () => WIDGET_KINDS.register('pie', { Body: () => null, skeletonRows: 1 })],
  ])('a second %s of a name is refused, the first kept', (what, register) => {
    expect(register).toThrow(new RegExp(`^${what} \\S+ 已注册（内置或扩展），不能再注册一次：请换一个名称$`));
  });
  it('the first entry stays', () => {
    expect(FORM_COMPONENT_KINDS.get('Input')?.members).toEqual(['TextArea']);
    expect(DISPLAY_KINDS.get('tag')?.props).toHaveProperty('color');
  });
});

describe('the built-ins are entries', () => {
  it('each says the props npm run check reads', () => {
    expect(DISPLAY_KINDS.get('dict')?.props).toEqual({ dictType: { required: true, dictType: true } });
    expect(FORM_COMPONENT_KINDS.get('FileUpload')?.props).toEqual({ operation: { operation: ['upload'] } });
    expect(FORM_COMPONENT_KINDS.get('DictSelect')?.props?.dictType).toEqual({ required: true, dictType: true });
    expect(FILTER_COMPONENT_KINDS.get('OperationTreeSelect')?.props?.operation).toEqual({ operation: ['call', 'get'] });
  });
  it('no switch or if chain over the built-in names outside their modules', () => {
    const read = (file: string) => readFileSync(join(process.cwd(), file), 'utf8');
    expect(read('renderers/list/FilterForm.tsx')).not.toMatch(/\bcase\s+['"]|\bswitch\s*\(/);
    expect(read('renderers/displays/displays.tsx')).not.toMatch(/\bcase\s+['"]|display\s*===\s*['"]/);
    expect(read('renderers/form/formily.tsx')).not.toMatch(/\bcase\s+['"]|CHOSEN_IN|UPLOADED_IN/);
    expect(read('scripts/check.ts')).not.toMatch(/base === '|display === '|FORM_SUB_COMPONENTS|BUILTIN_WIDGET_TYPES/);
  });
});
