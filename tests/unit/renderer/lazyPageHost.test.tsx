import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { fakeData, fakeServices, renderWith } from './harness';

// Issue 35: a list page loads its drawers and dialogs (renderers/form/FormHost.tsx) when it first
// opens one. The first load of that chunk fails here, as a dropped connection would fail it.
const failures = vi.hoisted(() => ({ left: 1 }));
vi.mock('../../../renderers/runtime/PageHostBridge', async (importOriginal) => {
  if (failures.left > 0) {
    failures.left -= 1;
    throw new TypeError('Failed to fetch dynamically imported module');
  }
  return importOriginal();
});

const listPage = {
  schemaVersion: 1,
  kind: 'list',
  title: '全部设备',
  operation: 'device.page',
  columns: [{ field: 'deviceCode', title: '设备编码' }],
  toolbar: [{ type: 'openForm', label: '新增', page: 'fixture/noSuchForm', permission: 'device.insert' }],
};

describe('a list page’s drawers and dialogs, loaded when first opened', () => {
  it('says so when their chunk fails to load, and opens them on the next try', async () => {
    const services = fakeServices({ data: fakeData([{ id: 1, deviceCode: 'DEV000000001' }]), buttons: ['device.insert'] });
    renderWith(<PageRenderer view="fixture/list" schema={listPage} />, services);
    await screen.findByText('DEV000000001');
    expect(document.querySelector('.ant-drawer')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    await waitFor(() => expect(services.notify.error).toHaveBeenCalledWith('页面资源加载失败，请重试'));
    expect(document.querySelector('.ant-drawer')).toBeNull();

    await userEvent.click(screen.getByRole('button', { name: /新\s*增/ }));
    expect(await screen.findByText('表单页面不存在')).toBeInTheDocument();
    expect(document.querySelector('.ant-drawer-open')).not.toBeNull();
  });
});
