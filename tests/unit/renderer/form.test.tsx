import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import FormRenderer, { declaredFields, stripInternalKeys } from '../../../renderers/form/FormRenderer';
import type { FormPage } from '../../../renderers/schema/types';
import { fakeData, fakeServices, renderWith } from './harness';

const formPage = {
  schemaVersion: 1,
  kind: 'form',
  title: '编辑设备',
  load: { operation: 'device.detail', param: { id: '{{params.id}}' } },
  submit: { operation: 'device.modify', param: { id: '{{params.id}}', device: '{{values}}' } },
  schema: {
    type: 'object',
    properties: {
      deviceCode: { type: 'string', title: '设备编码', required: true, 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-validator': 'deviceCode' },
      contactPhone: { type: 'string', title: '联系电话', 'x-decorator': 'FormItem', 'x-component': 'Input', 'x-validator': 'phoneOrEmpty' },
      state: { type: 'string', title: '状态', 'x-decorator': 'FormItem', 'x-component': 'DictSelect', 'x-component-props': { dictType: 'device_state' } },
    },
  },
};

function formData(load: Record<string, unknown> = { deviceCode: 'ABCDEF123456', contactPhone: '', state: 'online', createTime: '2026-01-01' }) {
  const data = fakeData();
  data.call = vi.fn(async (operation: string, param?: unknown) => {
    data.calls.push({ kind: 'call', operation, param });
    return (operation === 'device.detail' ? load : null) as never;
  });
  return data;
}

describe('form renderer', () => {
  it('loads the record with the params, validates with the SPEC §5 rules and submits', async () => {
    const data = formData();
    const services = fakeServices({ data });
    renderWith(<PageRenderer view="fixture/form" schema={formPage} params={{ id: '7' }} />, services);
    const code = await screen.findByDisplayValue('ABCDEF123456');
    expect(data.calls[0]).toEqual({ kind: 'call', operation: 'device.detail', param: { id: '7' } });

    await userEvent.clear(code);
    await userEvent.type(code, 'SHORT');
    await userEvent.type(screen.getAllByRole('textbox')[1], '123');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请输入正确的设备编码格式')).toBeInTheDocument();
    expect(await screen.findByText('请输入正确的手机号码')).toBeInTheDocument();
    expect(data.calls.some((c) => c.operation === 'device.modify')).toBe(false);

    await userEvent.clear(code);
    await userEvent.type(code, 'ZYXWVU987654');
    await userEvent.clear(screen.getAllByRole('textbox')[1]);
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() =>
      expect(data.calls.find((c) => c.operation === 'device.modify')).toMatchObject({
        param: { id: '7', device: { deviceCode: 'ZYXWVU987654', state: 'online' } },
      }),
    );
    const submitted = data.calls.find((c) => c.operation === 'device.modify')?.param as { device: Record<string, unknown> };
    expect(submitted.device).not.toHaveProperty('createTime');
    expect(services.notify.success).toHaveBeenCalledWith('设置成功！');
  });

  it('takes no input while the record loads, and takes it as soon as the record is shown', async () => {
    const data = formData();
    let answer: (value: unknown) => void = () => undefined;
    data.call = vi.fn(() => new Promise((resolve) => (answer = resolve)) as never);
    renderWith(<PageRenderer view="fixture/form" schema={formPage} params={{ id: '7' }} />, fakeServices({ data }));
    const fields = await screen.findAllByRole('textbox');
    for (const field of fields) expect(field).toBeDisabled();
    answer({ deviceCode: 'ABCDEF123456', state: 'online' });
    const code = await screen.findByDisplayValue('ABCDEF123456');
    expect(code).toBeEnabled();
    await userEvent.clear(code);
    await userEvent.type(code, 'QWERTY123456');
    expect(code).toHaveValue('QWERTY123456');
  });

  it('keeps every input when the submit fails', async () => {
    const data = formData();
    data.call = vi.fn(async (operation: string) => {
      if (operation === 'device.modify') throw Object.assign(new Error('设备编码已存在'), { kind: 'business' });
      return { deviceCode: 'ABCDEF123456', state: 'online' } as never;
    });
    const services = fakeServices({ data });
    renderWith(<PageRenderer view="fixture/form" schema={formPage} params={{ id: '7' }} />, services);
    const code = await screen.findByDisplayValue('ABCDEF123456');
    await userEvent.clear(code);
    await userEvent.type(code, 'QWERTY123456');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(data.call).toHaveBeenCalledWith('device.modify', expect.anything()));
    expect(screen.getByDisplayValue('QWERTY123456')).toBeInTheDocument();
    expect(services.notify.success).not.toHaveBeenCalled();
  });

  it('without params.id the form creates: nothing is loaded and the create operation is called', async () => {
    const data = formData();
    const services = fakeServices({ data });
    const page = { ...formPage, submit: { ...formPage.submit, createOperation: 'device.insert' } };
    renderWith(<PageRenderer view="fixture/form" schema={page} />, services);
    await userEvent.type((await screen.findAllByRole('textbox'))[0], 'NEWDEV123456');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(data.calls.find((c) => c.operation === 'device.insert')).toMatchObject({ param: { device: { deviceCode: 'NEWDEV123456' } } }));
    expect(data.calls.some((c) => c.operation === 'device.detail')).toBe(false);
  });

  it('after a save, a drawer form whose loaded record holds lists and objects reports done (and stays clean)', async () => {
    // The record carries more than the form declares: a list of devices and a nested object.
    const data = formData({ deviceCode: 'ABCDEF123456', state: 'online', devices: [{ code: 'A1' }, { code: 'B2' }], location: { lng: 120.1, lat: 30.2 } });
    const services = fakeServices({ data });
    const onDone = vi.fn();
    renderWith(<FormRenderer page={formPage as unknown as FormPage} view="fixture/form" params={{ id: '7' }} embedded onDone={onDone} />, services);
    const code = await screen.findByDisplayValue('ABCDEF123456');
    await userEvent.clear(code);
    await userEvent.type(code, 'ZYXWVU987654');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(onDone).toHaveBeenCalledTimes(1));
    expect(services.notify.success).toHaveBeenCalledWith('设置成功！');
  });

  it('names a field with a missing required value', async () => {
    const data = formData({});
    renderWith(<PageRenderer view="fixture/form" schema={{ ...formPage, load: undefined }} />, fakeServices({ data }));
    await userEvent.click(await screen.findByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请输入设备编码')).toBeInTheDocument();
  });

  it('submits only the fields the schema declares, looking through void containers', () => {
    expect(declaredFields({ type: 'object', properties: { a: { type: 'string' }, grid: { type: 'void', properties: { b: { type: 'number' } } } } })).toEqual(['a', 'b']);
  });

  it('strips the ArrayTable index key before submit', () => {
    expect(stripInternalKeys({ rows: [{ a: 1, __DO_NOT_USE_THIS_PROPERTY_index__: 0 }], b: { c: 2 } })).toEqual({ rows: [{ a: 1 }], b: { c: 2 } });
  });
});
