import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import dayjs from 'dayjs';
import PageRenderer from '../../../renderers/PageRenderer';
import { rangeProblem } from '../../../renderers/dashboard/DashboardRenderer';
import { NAMED_VALIDATORS } from '../../../src/validation/named';
import { ErrorBoundary } from '../../../renderers/runtime/ErrorBoundary';
import { needsExpressionEngine, needsExpressionLoad, resolveTemplate } from '../../../renderers/schema/template';
// The comparison compiler, as checkPage loads it for a page whose templates go beyond paths.
import '../../../renderers/schema/simpleExpression';
// The expression engine, as PageRenderer loads it for a page whose templates go beyond paths.
import '../../../renderers/form/expressions';
import { fakeData, fakeServices, renderWith } from './harness';
import statusPage from '../../../schemas/pages/system/status.json';

vi.mock('../../../renderers/dashboard/Chart', () => ({
  Chart: ({ label, option }: { label: string; option: { series: Array<{ type: string; data: unknown[] }> } }) => (
    <div role="img" aria-label={label} data-series={JSON.stringify(option.series.map((s) => ({ type: s.type, data: s.data })))} />
  ),
}));

describe('detail renderer', () => {
  it('shows description sections and child tables from its operations', async () => {
    const data = fakeData();
    data.call = vi.fn(async (operation: string) =>
      (operation === 'device.detail'
        ? { deviceCode: 'ABCDEF123456', state: 'offline', alarms: [{ id: 1, title: '温度过高' }] }
        : [{ id: 9, version: 'v2.1.0' }]) as never,
    );
    const page = {
      schemaVersion: 1,
      kind: 'detail',
      title: '设备详情',
      load: { operation: 'device.detail', param: { id: '{{params.id}}' } },
      sections: [
        { title: '基本信息', type: 'descriptions', fields: [{ field: 'deviceCode', title: '设备编码' }, { field: 'state', title: '状态', display: 'dict', dictType: 'device_state' }] },
        { title: '告警', type: 'table', source: 'alarms', columns: [{ field: 'title', title: '告警内容' }] },
        { title: '固件', type: 'table', operation: 'device.firmware.list', param: { code: '{{record.deviceCode}}' }, columns: [{ field: 'version', title: '版本' }] },
      ],
    };
    renderWith(<PageRenderer view="fixture/detail" schema={page} params={{ id: '3' }} />, fakeServices({ data }));
    expect(await screen.findByText('ABCDEF123456')).toBeInTheDocument();
    expect(screen.getByText('离线')).toBeInTheDocument();
    expect(screen.getByText('温度过高')).toBeInTheDocument();
    expect(await screen.findByText('v2.1.0')).toBeInTheDocument();
    expect(data.call).toHaveBeenCalledWith('device.detail', { id: '3' }, expect.anything());
    expect(data.call).toHaveBeenCalledWith('device.firmware.list', { code: 'ABCDEF123456' }, expect.anything());
  });
});

describe('dashboard renderer', () => {
  it('feeds statistic cards and charts from operations with the time range', async () => {
    const data = fakeData();
    data.call = vi.fn(async (operation: string) =>
      (operation === 'stats.total' ? { value: 12345 } : [{ name: '在线', value: 30 }, { name: '离线', value: 12 }]) as never,
    );
    const page = {
      schemaVersion: 1,
      kind: 'dashboard',
      title: '设备概览',
      timeRange: { default: 'last7days' },
      widgets: [
        { type: 'statistic', title: '设备总数', operation: 'stats.total', display: 'count' },
        { type: 'pie', title: '在线状态', operation: 'stats.state', name: 'name', y: 'value' },
        { type: 'bar', title: '每日告警', operation: 'stats.daily', x: 'name', y: 'value' },
      ],
    };
    renderWith(<PageRenderer view="fixture/dashboard" schema={page} />, fakeServices({ data }));
    expect(await screen.findByText('1.2万+')).toBeInTheDocument();
    const pie = await screen.findByRole('img', { name: '在线状态' });
    expect(JSON.parse(pie.dataset.series ?? '[]')).toEqual([{ type: 'pie', data: [{ name: '在线', value: 30 }, { name: '离线', value: 12 }] }]);
    expect(await screen.findByRole('img', { name: '每日告警' })).toBeInTheDocument();
    const [, param] = vi.mocked(data.call).mock.calls[0] as [string, { startTime: string; endTime: string }];
    expect(param.startTime).toMatch(/^\d{4}-\d{2}-\d{2} 00:00:00$/);
    expect(param.endTime).toMatch(/23:59:59$/);
  });
});

describe('dashboard fields', () => {
  it('reads a statistic from a dotted field, shows "-" where it holds nothing, and a table from a field of the answer (the system status page)', async () => {
    const status = {
      version: '0.1.0',
      engine: 'pglite',
      databaseVersion: 'PostgreSQL 18.6 (PGlite 0.5.16)',
      startedAt: '2026-11-25T08:00:00.000Z',
      uptimeSeconds: 93_600,
      databaseBytes: 52_428_800,
      databaseMiB: 50,
      pool: null,
      slowestOperations: [{ operation: 'device.page', title: '设备分页列表', count: 12, averageMs: 41.5, p95Ms: 86.5, maxMs: 97.1 }],
      outboxLastHour: 3,
    };
    const data = fakeData();
    data.call = vi.fn(async () => status as never);
    renderWith(<PageRenderer view="system/status" schema={statusPage} />, fakeServices({ data }));
    const card = async (title: string) => (await screen.findByText(title)).closest('[data-testid="dashboard-widget"]') as HTMLElement;
    await waitFor(() => expect(document.querySelectorAll('.ant-skeleton')).toHaveLength(0));
    expect(await card('版本')).toHaveTextContent('0.1.0');
    expect(await card('数据库引擎')).toHaveTextContent('PostgreSQL 18.6 (PGlite 0.5.16)');
    expect(await card('运行时长')).toHaveTextContent('1天2小时');
    expect(await card('数据库大小')).toHaveTextContent('50MiB');
    // The embedded engine has no pool: "-", not 0.
    expect(await card('连接池：连接数')).toHaveTextContent(/-$/);
    expect(await card('连接池：等待连接的调用')).toHaveTextContent(/-$/);
    const slowest = await card('最慢的操作（最近一小时，本实例）');
    expect(slowest).toHaveTextContent('设备分页列表');
    expect(slowest).toHaveTextContent('86.5');
    expect(await card('发件箱消息（最近一小时，写入即发送）')).toHaveTextContent('3');
  });

  it('shows the pool of a PostgreSQL server', async () => {
    const data = fakeData();
    data.call = vi.fn(async () => ({ engine: 'postgresql', pool: { total: 10, idle: 7, waiting: 0 }, slowestOperations: [] }) as never);
    renderWith(<PageRenderer view="system/status" schema={statusPage} />, fakeServices({ data }));
    const card = async (title: string) => (await screen.findByText(title)).closest('[data-testid="dashboard-widget"]') as HTMLElement;
    await waitFor(() => expect(document.querySelectorAll('.ant-skeleton')).toHaveLength(0));
    expect(await card('连接池：连接数')).toHaveTextContent(/10$/);
    expect(await card('连接池：空闲连接')).toHaveTextContent(/7$/);
    expect(await card('连接池：等待连接的调用')).toHaveTextContent(/0$/);
  });
});

describe('page schema problems', () => {
  it('a schema that fails validation shows an error panel naming the file and the pointer', async () => {
    const broken = { schemaVersion: 1, kind: 'list', title: '坏页面', operation: 'device.page', columns: [{ field: 'a' }], toolbar: [{ type: 'explode', label: 'x' }] };
    renderWith(<PageRenderer view="device/broken" schema={broken} />, fakeServices());
    const panel = await screen.findByTestId('schema-error');
    expect(panel).toHaveTextContent('schemas/pages/device/broken.json');
    expect(panel).toHaveTextContent('/columns/0');
    expect(panel).toHaveTextContent('缺少必填属性 title');
    expect(panel).toHaveTextContent('/toolbar/0');
  });

  it('an unknown view says so instead of a white page', async () => {
    renderWith(<PageRenderer view="no/such" />, fakeServices());
    expect(await screen.findByText('页面模式不存在')).toBeInTheDocument();
  });

  it('a widget that throws shows an error boundary with a retry that renders again', async () => {
    let fail = true;
    const Flaky = () => {
      if (fail) throw new Error('组件渲染失败');
      return <p>恢复正常</p>;
    };
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    renderWith(
      <ErrorBoundary>
        <Flaky />
      </ErrorBoundary>,
      fakeServices(),
    );
    expect(await screen.findByText('组件渲染失败')).toBeInTheDocument();
    fail = false;
    await userEvent.click(screen.getByRole('button', { name: /重\s*试/ }));
    await waitFor(() => expect(screen.getByText('恢复正常')).toBeInTheDocument());
  });
});

describe('templates', () => {
  it('reads the scope and never evaluates code', () => {
    const scope = { record: { id: 5, name: '泵站' }, params: {} };
    expect(resolveTemplate('{{record.id}}', scope)).toBe(5);
    expect(resolveTemplate('设备 {{record.name}} #{{record.id}}', scope)).toBe('设备 泵站 #5');
    expect(resolveTemplate({ ids: ['{{record.id}}'] }, scope)).toEqual({ ids: [5] });
    expect(() => resolveTemplate('{{record.constructor}}', scope)).toThrow('表达式 {{record.constructor}} 不允许读取属性 constructor');
    expect(() => resolveTemplate('{{ alert(1) }}', scope)).toThrow('引用了未知的名称 alert');
    expect(resolveTemplate('{{params.id | number}}', { params: { id: '42' } })).toBe(42);
    expect(resolveTemplate('{{params.id | number}}', { params: {} })).toBeUndefined();
    expect(resolveTemplate('{{record.id | string}}', scope)).toBe('5');
  });

  it('is the one expression language: operators, filters, every root of the scope present', () => {
    const scope = { record: { id: 5, tags: ['a', 'b'] }, user: { loginUserCode: 'U1', roleList: ['admin'] } };
    expect(resolveTemplate("{{record.id > 3 ? 'big' : 'small'}}", scope)).toBe('big');
    expect(resolveTemplate("{{record.tags | join('/')}}", scope)).toBe('a/b');
    expect(resolveTemplate("{{params.kind | default('all')}}", scope)).toBe('all');
    expect(resolveTemplate("{{user.roleList.includes('admin') || params.force}}", scope)).toBe(true);
    // A root this place never fills is empty, and reading through it gives nothing (a toolbar's record).
    expect(resolveTemplate('{{selection.keys}}', scope)).toBeUndefined();
    expect(resolveTemplate('{{values.a.b.c}}', scope)).toBeUndefined();
    expect(resolveTemplate('编号 {{record.id}}，{{values.x}}。', scope)).toBe('编号 5，。');
    expect(() => resolveTemplate('{{params.id | int}}', scope)).toThrow('使用了未知的过滤器 int');
  });

  it('a page whose templates are all paths does not need the expression engine (jsep stays out of its download)', () => {
    expect(needsExpressionEngine({ param: { id: '{{params.id | number}}', codes: "{{selection.keys | join(',')}}" }, to: '/d?c={{record.code}}' })).toBe(false);
    // A comparison of paths and literals is compiled without it (renderers/schema/simpleExpression.ts); a call is not.
    expect(needsExpressionEngine({ visibleWhen: "{{record.status === '1'}}" })).toBe(false);
    expect(needsExpressionLoad({ visibleWhen: "{{record.status === '1'}}" })).toBe(true);
    expect(needsExpressionLoad({ param: { id: '{{params.id | number}}' } })).toBe(false);
    expect(needsExpressionEngine({ visibleWhen: "{{user.roleList.includes('admin')}}" })).toBe(true);
    expect(needsExpressionEngine({ param: { at: '{{params.day | default(params.today)}}' } })).toBe(true);
    expect(needsExpressionEngine({ title: '设备', visibleWhen: "{{['paid', 'confirmed'].includes(record.state) && !record.locked}}" })).toBe(false);
  });
});

describe('dashboard time range', () => {
  it('refuses a range whose start and end are the same: 请输入不同的时间', () => {
    const at = dayjs('2026-11-01 08:00:00');
    expect(rangeProblem([at, at], NAMED_VALIDATORS)).toBe('请输入不同的时间');
    expect(rangeProblem([at, at.add(1, 'second')], NAMED_VALIDATORS)).toBeUndefined();
  });
});
