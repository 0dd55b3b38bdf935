import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { fieldToFormily, templateToFormily, type TemplateField } from '../../../renderers/form/templateSchema';
import { fakeData, fakeServices, renderWith } from './harness';

const FIELDS: TemplateField[] = [
  { key: 'signal', label: '信号强度', type: 'number', required: true, min: -140, max: -30, precision: 0, unit: 'dBm', help: '在安装位置实测' },
  { key: 'seal', label: '铅封编号', type: 'text', maxLength: 20, placeholder: '例如 QF123456' },
  { key: 'note', label: '勘察说明', type: 'textarea' },
  { key: 'power', label: '供电方式', type: 'select', required: true, options: [{ value: 'grid', label: '市电' }, { value: 'battery', label: '电池' }] },
  { key: 'risks', label: '现场风险', type: 'checkbox', options: [{ value: 'water', label: '积水' }] },
  { key: 'day', label: '勘察日期', type: 'date' },
  { key: 'photos', label: '现场照片', type: 'photo', maxCount: 2 },
];

describe('template → Formily schema', () => {
  it('gives each field type its component, value type, options and limits, in the template’s order', () => {
    const schema = templateToFormily(FIELDS) as { type: string; properties: Record<string, Record<string, unknown>> };
    expect(schema.type).toBe('object');
    expect(Object.keys(schema.properties)).toEqual(['signal', 'seal', 'note', 'power', 'risks', 'day', 'photos']);
    expect(schema.properties.signal).toEqual({
      title: '信号强度',
      type: 'number',
      required: true,
      'x-index': 0,
      'x-decorator': 'FormItem',
      'x-decorator-props': { extra: '在安装位置实测' },
      'x-component': 'NumberPicker',
      'x-component-props': { style: { width: '100%' }, min: -140, max: -30, precision: 0, addonAfter: 'dBm' },
      'x-validator': [
        { required: true, message: '请填写“信号强度”' },
        { minimum: -140, message: '“信号强度”应在 -140 到 -30 之间' },
        { maximum: -30, message: '“信号强度”应在 -140 到 -30 之间' },
      ],
    });
    expect(schema.properties.seal).toMatchObject({
      type: 'string',
      'x-component': 'Input',
      'x-component-props': { placeholder: '例如 QF123456', allowClear: true, maxLength: 20 },
      'x-validator': [{ maxLength: 20, message: '“铅封编号”不能超过 20 个字' }],
    });
    expect(schema.properties.seal).not.toHaveProperty('required');
    expect(schema.properties.note).toMatchObject({ 'x-component': 'Input.TextArea', 'x-component-props': { rows: 3, showCount: true, maxLength: 2000 } });
    expect(schema.properties.power).toMatchObject({ type: 'string', 'x-component': 'Select', enum: [{ label: '市电', value: 'grid' }, { label: '电池', value: 'battery' }] });
    expect(schema.properties.risks).toMatchObject({ type: 'array', 'x-component': 'Checkbox.Group', enum: [{ label: '积水', value: 'water' }] });
    expect(schema.properties.day).toMatchObject({ type: 'string', 'x-component': 'DatePicker', 'x-component-props': { format: 'YYYY-MM-DD' } });
    expect(schema.properties.photos).toMatchObject({
      type: 'array',
      'x-component': 'FileUpload',
      'x-component-props': { multiple: true, maxCount: 2, listType: 'picture-card', allowedTypes: ['image/jpeg', 'image/png', 'image/webp'] },
    });
  });

  it('states one-sided number limits, default photo counts and the read-only pattern', () => {
    expect(fieldToFormily({ key: 'v', label: '电压', type: 'number', min: 0 }, 0)['x-validator']).toEqual([{ minimum: 0, message: '“电压”不能小于 0' }]);
    expect(fieldToFormily({ key: 'v', label: '电压', type: 'number', max: 5 }, 0)['x-validator']).toEqual([{ maximum: 5, message: '“电压”不能大于 5' }]);
    expect(fieldToFormily({ key: 'v', label: '电压', type: 'number' }, 0)).not.toHaveProperty('x-validator');
    expect(fieldToFormily({ key: 'p', label: '照片', type: 'photo' }, 3)).toMatchObject({ 'x-index': 3, 'x-component-props': { maxCount: 3 } });
    expect(templateToFormily(FIELDS.slice(0, 1), { pattern: 'readPretty' })).toMatchObject({ properties: { signal: { 'x-pattern': 'readPretty' } } });
    expect(templateToFormily([])).toEqual({ type: 'object', properties: {} });
  });
});

const orderForm = {
  schemaVersion: 1,
  kind: 'form',
  title: '勘察单',
  load: { operation: 'exploration.detail', param: { code: '{{params.code}}' } },
  submit: { operation: 'exploration.modify', param: { code: '{{params.code}}', order: '{{values}}' } },
  schema: {
    type: 'object',
    properties: {
      title: { type: 'string', title: '勘察名称', 'x-decorator': 'FormItem', 'x-component': 'Input' },
      formData: { type: 'object', title: '勘察表单', 'x-component': 'TemplateForm' },
    },
  },
};

function orderData(record: Record<string, unknown>) {
  const data = fakeData();
  data.call = vi.fn(async (operation: string, param?: unknown) => {
    data.calls.push({ kind: 'call', operation, param });
    if (operation === 'exploration.detail') return record as never;
    if (operation === 'activeForm.template.get') return { id: 5, name: '新装监测点勘察表', version: 2, fields: FIELDS.slice(0, 4) } as never;
    return null as never;
  });
  return data;
}

describe('TemplateForm: an order’s template drawn by the form renderer', () => {
  it('lets the assignee fill the order’s version, validates it with the page, and submits it as formData', async () => {
    const data = orderData({ code: 'KC2026030100001', title: '西溪勘察', formTemplateId: 5, formTemplateVersion: 2, canFill: true, formData: null });
    renderWith(<PageRenderer view="fixture/order" schema={orderForm} params={{ code: 'KC2026030100001' }} />, fakeServices({ data }));
    const section = await screen.findByRole('region', { name: '勘察表单' });
    expect(await within(section).findByText('勘察表单：新装监测点勘察表（v2）')).toBeInTheDocument();
    expect(data.calls.find((c) => c.operation === 'activeForm.template.get')?.param).toEqual({ id: 5, version: 2 });
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请填写“信号强度”')).toBeInTheDocument();
    expect(data.calls.some((c) => c.operation === 'exploration.modify')).toBe(false);

    await userEvent.type(within(section).getByLabelText('信号强度'), '-86');
    await userEvent.type(within(section).getByLabelText('铅封编号'), 'QF100200');
    await userEvent.click(within(section).getByRole('combobox', { name: '供电方式' }));
    await userEvent.click(await screen.findByText('电池'));
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() =>
      expect(data.calls.find((c) => c.operation === 'exploration.modify')?.param).toEqual({
        code: 'KC2026030100001',
        order: { title: '西溪勘察', formData: { signal: -86, seal: 'QF100200', power: 'battery' } },
      }),
    );
  });

  it('shows the filled values read-only to anyone but the assignee', async () => {
    const data = orderData({ code: 'KC1', title: '西溪勘察', formTemplateId: 5, formTemplateVersion: 2, canFill: false, formData: { signal: -90, power: 'grid' } });
    renderWith(<PageRenderer view="fixture/order" schema={orderForm} params={{ code: 'KC1' }} />, fakeServices({ data }));
    const section = await screen.findByRole('region', { name: '勘察表单' });
    expect(await within(section).findByText('市电')).toBeInTheDocument();
    expect(within(section).getByText('-90')).toBeInTheDocument();
    expect(within(section).queryByRole('spinbutton')).toBeNull();
    expect(within(section).queryByRole('combobox')).toBeNull();
  });

  it('says so when nobody has filled it yet, or when no template is chosen', async () => {
    const data = orderData({ code: 'KC2', title: '西溪勘察', formTemplateId: 5, formTemplateVersion: 2, canFill: false, formData: null });
    renderWith(<PageRenderer view="fixture/order" schema={orderForm} params={{ code: 'KC2' }} />, fakeServices({ data }));
    expect(await screen.findByText('尚未填写：由作业人员在现场填写')).toBeInTheDocument();
    const none = orderData({ code: 'KC3', title: '西溪勘察', formTemplateId: null, formTemplateVersion: null, canFill: false, formData: null });
    renderWith(<PageRenderer view="fixture/order" schema={orderForm} params={{ code: 'KC3' }} />, fakeServices({ data: none }));
    expect(await screen.findByText('未选择表单模板')).toBeInTheDocument();
  });
});
