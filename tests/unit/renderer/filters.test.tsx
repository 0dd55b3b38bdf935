import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import type { FormInstance } from 'antd';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import DateRange from '../../../renderers/list/DateRange';
import { FILTER_COMPONENT_KINDS, filterDefaults, filterRules } from '../../../renderers/list/FilterForm';
import type { FilterField } from '../../../renderers/schema/types';
import { NAMED_VALIDATORS } from '../../../src/validation/named';
import { checkPage } from '../../../renderers/schema/checkPage';
import { fakeData, fakeServices, renderWith } from './harness';

const rows = [{ id: 1, deviceCode: 'DEV000000001', state: 'online' }];

/** A list whose filter uses every kind of rule a filter may carry, and a default. */
const listPage = {
  schemaVersion: 1,
  kind: 'list',
  title: '全部设备',
  operation: 'device.page',
  filters: {
    type: 'object',
    properties: {
      deviceCode: { type: 'string', title: '设备编码', 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-validator': 'deviceCode' },
      iccid: { type: 'string', title: 'ICCID', 'x-component': 'Input', 'x-validator': [{ pattern: '^\\d*$', message: 'ICCID 只包含数字' }] },
      scope: {
        type: 'string',
        title: '范围',
        'x-component': 'Select',
        enum: [
          { label: '平台', value: 'platform' },
          { label: '租户', value: 'tenant' },
        ],
        default: 'tenant',
      },
      state: { type: 'string', title: '状态', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'device_state' } },
      lastSeen: { type: 'array', title: '最后在线', 'x-component': 'DatePicker.RangePicker', 'x-component-props': { showTime: true }, 'x-validator': 'timeRange' },
    },
  },
  columns: [{ field: 'deviceCode', title: '设备编码' }],
};

async function renderList() {
  const data = fakeData(rows);
  renderWith(<PageRenderer view="fixture/filters" schema={listPage} />, fakeServices({ data }));
  await screen.findByText('DEV000000001');
  return { data, filters: screen.getByTestId('list-filters') };
}

const search = () => userEvent.click(screen.getByRole('button', { name: /查\s*询/ }));

describe('list filters (antd form, no Formily)', () => {
  it('asks the first page with the defaults, and 重置 goes back to them', async () => {
    const { data, filters } = await renderList();
    expect(data.calls[0]).toMatchObject({ param: { scope: 'tenant' } });
    expect(within(filters).getByTitle('租户')).toBeInTheDocument();
    await userEvent.type(within(filters).getByLabelText('ICCID'), '8986');
    await search();
    await waitFor(() => expect(data.calls.at(-1)).toMatchObject({ param: { scope: 'tenant', iccid: '8986' } }));
    await userEvent.click(screen.getByRole('button', { name: /重\s*置/ }));
    await waitFor(() => expect(data.calls.at(-1)?.param).toEqual({ scope: 'tenant' }));
    expect(within(filters).getByLabelText('ICCID')).toHaveValue('');
  });

  it('refuses a search with the SPEC §5 message of a named rule, or a pattern’s own, and asks nothing', async () => {
    const { data, filters } = await renderList();
    const asked = data.calls.length;
    await userEvent.type(within(filters).getByLabelText('设备编码'), 'ABC');
    await search();
    expect(await within(filters).findByText('请输入正确的设备编码格式')).toBeInTheDocument();
    await userEvent.type(within(filters).getByLabelText('ICCID'), '89x');
    await search();
    expect(await within(filters).findByText('ICCID 只包含数字')).toBeInTheDocument();
    expect(data.calls.length).toBe(asked);
    await userEvent.clear(within(filters).getByLabelText('设备编码'));
    await userEvent.type(within(filters).getByLabelText('设备编码'), 'LVLR01880001');
    await userEvent.clear(within(filters).getByLabelText('ICCID'));
    // Enter in a field searches, as the button does.
    fireEvent.keyDown(within(filters).getByLabelText('ICCID'), { key: 'Enter' });
    await waitFor(() => expect(data.calls.at(-1)?.param).toEqual({ scope: 'tenant', deviceCode: 'LVLR01880001' }));
  });

  it('shows three fields until 展开, and the rest after it', async () => {
    const { filters } = await renderList();
    expect(within(filters).queryByRole('combobox', { name: '状态' })).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: /展\s*开/ }));
    expect(await within(filters).findByRole('combobox', { name: '状态' })).toBeInTheDocument();
    // The date range is fetched only now, and shows once loaded.
    expect(await within(filters).findAllByPlaceholderText(/日期|时间/)).toHaveLength(2);
    await userEvent.click(screen.getByRole('button', { name: /收\s*起/ }));
    expect(within(filters).queryByRole('combobox', { name: '状态' })).toBeNull();
  });

  it('a date range shows the two formatted times it holds (the browser suite types one into the login log)', () => {
    const { container } = render(<DateRange showTime value={['2026-11-01 08:00:00', '2026-11-02 09:30:00']} />);
    expect([...container.querySelectorAll('input')].map((input) => input.value)).toEqual(['2026-11-01 08:00:00', '2026-11-02 09:30:00']);
    const { container: dates } = render(<DateRange value={['2026-11-01', '2026-11-02']} />);
    expect([...dates.querySelectorAll('input')].map((input) => input.value)).toEqual(['2026-11-01', '2026-11-02']);
  });

  it('a named rule that compares times refuses a range that starts where it ends with 请输入不同的时间', async () => {
    const field = listPage.filters.properties.lastSeen as FilterField;
    const [rule] = filterRules(field, NAMED_VALIDATORS);
    const form = { getFieldsValue: () => ({}) } as unknown as FormInstance;
    const validator = typeof rule === 'function' ? rule(form).validator : undefined;
    await expect(validator?.({}, ['2026-11-01 08:00:00', '2026-11-01 08:00:00'], () => undefined)).rejects.toThrow('请输入不同的时间');
    await expect(validator?.({}, ['2026-11-01 08:00:00', '2026-11-02 08:00:00'], () => undefined)).resolves.toBeUndefined();
  });

  it('the defaults are the fields’ `default`s, empty ones left out', () => {
    expect(filterDefaults(listPage.filters)).toEqual({ scope: 'tenant' });
    expect(filterDefaults(undefined)).toEqual({});
  });

  it('the page schema offers exactly the filter components the renderer draws, and names the problem of another', async () => {
    const meta = JSON.parse(readFileSync(join(process.cwd(), 'schemas/page.schema.json'), 'utf8')) as {
      $defs: { filterField: { properties: { 'x-component': { $ref: string } } } };
    };
    const names = JSON.parse(readFileSync(join(process.cwd(), 'schemas/names.schema.json'), 'utf8')) as { $defs: { filterComponent: { enum: string[] } } };
    expect(meta.$defs.filterField.properties['x-component'].$ref).toBe('names.schema.json#/$defs/filterComponent');
    expect(names.$defs.filterComponent.enum).toEqual(FILTER_COMPONENT_KINDS.names().sort());
    const withUpload = structuredClone(listPage) as { filters: { properties: Record<string, unknown> } };
    withUpload.filters.properties.photo = { type: 'string', title: '照片', 'x-component': 'FileUpload' };
    const problems = await checkPage(withUpload, 'given');
    expect(problems.ok).toBe(false);
    expect(JSON.stringify(problems)).toContain('/filters/properties/photo/x-component');
    expect(JSON.stringify(problems)).toContain('未注册的筛选组件 FileUpload');
  });
});
