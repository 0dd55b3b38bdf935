import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { ChainDeclined, runAction, type ActionRuntime } from '../../../renderers/actions/runAction';
import type { Action } from '../../../renderers/schema/types';
import { fakeData, fakeServices, renderWith } from './harness';

/** Issue 22's credential reset, the shape the device page will use: a call, then its answer shown once. */
const resetCredential: Action = {
  type: 'chain',
  label: '重置密钥',
  permission: 'device.credential.reset',
  confirm: '重置后旧密钥立即失效，确定重置？',
  danger: true,
  steps: [
    { type: 'call', operation: 'device.credential.reset', param: { deviceCode: '{{record.deviceCode}}' }, successMessage: '密钥已重置' },
    {
      type: 'showResult',
      title: '新的设备密钥',
      message: '密钥只显示这一次，请立即复制保存。',
      value: { deviceCode: '{{record.deviceCode}}', secret: '{{result.secret}}' },
      fields: [
        { field: 'deviceCode', title: '设备编码' },
        { field: 'secret', title: '密钥' },
      ],
    },
  ],
};

function detailWith(actions: Action[]) {
  return {
    schemaVersion: 1,
    kind: 'detail',
    title: '设备详情',
    load: { operation: 'device.detail', param: { deviceCode: '{{params.code}}' } },
    sections: [{ title: '基本信息', type: 'descriptions', fields: [{ field: 'deviceCode', title: '设备编码' }] }],
    actions,
  };
}

describe('action chains (issue 20)', () => {
  it('a call then showResult: the confirmation first, the call with the record, its answer shown in a dialog as result', async () => {
    const data = fakeData();
    data.call = vi.fn(async (operation: string) => (operation === 'device.detail' ? { deviceCode: 'DEV-1' } : operation === 'device.credential.reset' ? { secret: 's3cr3t-once' } : undefined) as never);
    const services = fakeServices({ data, buttons: ['device.credential.reset'] });
    renderWith(<PageRenderer view="fixture/device" schema={detailWith([resetCredential])} params={{ code: 'DEV-1' }} />, services);
    await userEvent.click(await screen.findByRole('button', { name: '重置密钥' }));
    // Any action may ask first; nothing runs before it is confirmed.
    expect(await screen.findByText('重置后旧密钥立即失效，确定重置？')).toBeInTheDocument();
    expect(data.call).not.toHaveBeenCalledWith('device.credential.reset', expect.anything());
    await userEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    const shown = await screen.findByTestId('shown-result');
    expect(data.call).toHaveBeenCalledWith('device.credential.reset', { deviceCode: 'DEV-1' });
    expect(services.notify.success).toHaveBeenCalledWith('密钥已重置');
    expect(screen.getAllByText('新的设备密钥').length).toBeGreaterThan(0);
    expect(within(shown).getByText('密钥只显示这一次，请立即复制保存。')).toBeInTheDocument();
    expect(within(shown).getByText('s3cr3t-once')).toBeInTheDocument();
    expect(within(shown).getByText('DEV-1')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '知道了' }));
  });

  it('each step reads the answer of the step before as result; a failing step stops the chain', async () => {
    const services = fakeServices();
    const answers: Record<string, unknown> = { 'order.create': { orderCode: 'O-7' }, 'order.submit': { state: 'submitted' } };
    services.data.call = vi.fn(async (operation: string) => {
      if (operation === 'order.fail') throw Object.assign(new Error('库存不足'), { kind: 'business' });
      return answers[operation] as never;
    });
    const runtime: ActionRuntime = { services, refresh: vi.fn(), openForm: vi.fn() };
    const chain: Action = {
      type: 'chain',
      label: '下单',
      steps: [
        { type: 'call', operation: 'order.create', param: { sku: '{{record.sku}}' } },
        { type: 'call', operation: 'order.submit', param: { code: '{{result.orderCode}}' } },
        { type: 'navigate', to: '/order/detail', query: { state: '{{result.state}}' } },
      ],
    };
    await expect(runAction(chain, { record: { sku: 'A1' } }, runtime)).resolves.toEqual({ state: 'submitted' });
    expect(services.data.call).toHaveBeenNthCalledWith(2, 'order.submit', { code: 'O-7' });
    expect(services.navigate).toHaveBeenCalledWith('/order/detail?state=submitted');

    vi.mocked(services.navigate).mockClear();
    const failing: Action = { type: 'chain', label: '失败', steps: [{ type: 'call', operation: 'order.fail' }, { type: 'navigate', to: '/order' }] };
    await expect(runAction(failing, {}, runtime)).rejects.toThrow('库存不足');
    expect(services.navigate).not.toHaveBeenCalled();

    // A step that asks first and is declined stops the chain, as a cancelled call does.
    const declined: Action = { type: 'chain', label: '确认', steps: [{ type: 'navigate', to: '/a', confirm: '确定？' }, { type: 'navigate', to: '/b' }] };
    await expect(runAction(declined, {}, { ...runtime, confirm: async () => false })).rejects.toBeInstanceOf(ChainDeclined);
    expect(services.navigate).not.toHaveBeenCalled();
  });

  it('openPage opens a page of any kind, a detail page here, in a drawer', async () => {
    const data = fakeData([{ id: 1, name: '甲', code: 'DEV-1' }]);
    data.call = vi.fn(async () => ({ deviceCode: 'DEV-1' }) as never);
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '设备',
      operation: 'device.page',
      columns: [{ field: 'name', title: '名称' }],
      rowActions: [{ type: 'openPage', label: '查看', page: 'device/detail', params: { code: '{{record.code}}' } }],
    };
    renderWith(<PageRenderer view="fixture/devices" schema={page} />, fakeServices({ data }));
    await userEvent.click(await screen.findByRole('button', { name: '查看' }));
    const drawer = await screen.findByRole('dialog');
    // The detail page's own renderer, in the drawer, loaded with the params the action passed.
    await waitFor(() => expect(within(drawer).getByTestId('detail-page')).toBeInTheDocument(), { timeout: 10000 });
    expect(within(drawer).queryByText(/需要表单页面/)).toBeNull();
  });
});

describe('a form that shows what its submit answered (submit.showResult)', () => {
  it('新增 Webhook: the created webhook’s secret is shown once, after the drawer closes', async () => {
    const data = fakeData([]);
    data.call = vi.fn(async (operation: string) => (operation === 'openApi.webhook.insert' ? { code: 'wh_0123456789abcdef', secret: 'whsec-shown-once' } : undefined) as never);
    const list = {
      schemaVersion: 1,
      kind: 'list',
      title: 'Webhook',
      operation: 'openApi.webhook.page',
      columns: [{ field: 'name', title: '名称' }],
      toolbar: [{ type: 'openForm', label: '新增 Webhook', page: 'openApi/webhookForm' }],
    };
    const services = fakeServices({ data });
    renderWith(<PageRenderer view="fixture/webhooks" schema={list} />, services);
    await userEvent.click(await screen.findByRole('button', { name: '新增 Webhook' }));
    const drawer = await screen.findByRole('dialog');
    await userEvent.type(await within(drawer).findByRole('textbox', { name: '名称' }), '工单系统');
    await userEvent.type(within(drawer).getByRole('textbox', { name: '地址' }), 'https://example.com/hook');
    await userEvent.click(within(drawer).getByRole('checkbox', { name: '告警产生' }));
    await userEvent.click(within(drawer).getByRole('button', { name: /提\s*交|保\s*存|确\s*定/ }));
    const shown = await screen.findByTestId('shown-result');
    expect(data.call).toHaveBeenCalledWith('openApi.webhook.insert', { name: '工单系统', url: 'https://example.com/hook', events: ['alarm.raised'] });
    expect(services.notify.success).toHaveBeenCalledWith('新增成功！');
    expect(within(shown).getByText('签名密钥只显示这一次，请立即复制保存；接收方以它验证每条消息的 x-iot-signature。')).toBeInTheDocument();
    expect(within(shown).getByText('whsec-shown-once')).toBeInTheDocument();
    expect(within(shown).getByText('wh_0123456789abcdef')).toBeInTheDocument();
    expect(screen.getAllByText('Webhook 的签名密钥').length).toBeGreaterThan(0);
  });
});
