import { render } from '@testing-library/react';
import { App as AntdApp, ConfigProvider } from 'antd';
import zhCN from 'antd/es/locale/zh_CN';
import type { ReactNode } from 'react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { vi } from 'vitest';
import { RendererContext, type DataProvider, type RendererServices } from '../../../renderers/services';
import { FORMATS } from '../../../src/format/formats';
import { NAMED_VALIDATORS } from '../../../src/validation/named';

export type Row = Record<string, unknown>;

/** A data provider over in-memory rows, recording every call. */
export function fakeData(rows: Row[] = []) {
  const calls: Array<{ kind: string; operation: string; param?: unknown; pageParam?: unknown; sort?: unknown }> = [];
  const data: DataProvider & { calls: typeof calls } = {
    calls,
    call: vi.fn(async (operation: string, param?: unknown) => {
      calls.push({ kind: 'call', operation, param });
      return undefined as never;
    }),
    page: vi.fn(async (operation, pageParam, param, sort) => {
      calls.push({ kind: 'page', operation, pageParam, param, sort });
      const start = (pageParam.pageNumber - 1) * pageParam.pageSize;
      return { records: rows.slice(start, start + pageParam.pageSize), total: rows.length, pageNumber: pageParam.pageNumber, pageSize: pageParam.pageSize } as never;
    }),
    download: vi.fn(async (operation: string, param?: unknown) => {
      calls.push({ kind: 'download', operation, param });
      return { fileName: '导出.xlsx', size: 10 };
    }),
    upload: vi.fn(async () => ({ url: 'upload/a.png' }) as never),
  };
  return data;
}

export function fakeServices(overrides: Partial<RendererServices> = {}): RendererServices {
  return {
    data: fakeData(),
    dictionaries: {
      label: (type, value) => ({ device_state: { online: '在线', offline: '离线' } } as Record<string, Record<string, string>>)[type]?.[String(value)] ?? '未知',
      options: (type) => (type === 'device_state' ? [{ value: 'online', label: '在线' }, { value: 'offline', label: '离线' }] : []),
    },
    notify: { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() },
    buttons: [],
    navigate: vi.fn(),
    validators: NAMED_VALIDATORS,
    formats: FORMATS,
    ...overrides,
  };
}

/** Renders inside a data router (forms guard navigation), antd's App and the renderer context. */
export function renderWith(ui: ReactNode, services: RendererServices) {
  const router = createMemoryRouter([{ path: '*', element: <RendererContext.Provider value={services}>{ui}</RendererContext.Provider> }]);
  return render(
    <ConfigProvider locale={zhCN}>
      <AntdApp>
        <RouterProvider router={router} />
      </AntdApp>
    </ConfigProvider>,
  );
}
