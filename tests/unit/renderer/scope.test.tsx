import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { actionDisabled, actionVisible, conditionHolds } from '../../../renderers/actions/runAction';
import { makeScope } from '../../../renderers/schema/template';
// The expression engine, as PageRenderer loads it for a page whose templates go beyond paths.
import '../../../renderers/form/expressions';
import type { Action } from '../../../renderers/schema/types';
import { fakeData, fakeServices, renderWith } from './harness';

vi.mock('../../../renderers/dashboard/Chart', () => ({ Chart: () => null }));

const admin = { loginUserCode: 'U1', roleList: ['admin'] };

describe('one scope for templates and conditions (issue 20)', () => {
  it('a condition is an expression over the scope', () => {
    const scope = makeScope({ record: { status: '1', locked: true }, user: admin, params: { tab: 'all' } });
    expect(conditionHolds("{{record.status === '1' && user.roleList.includes('admin')}}", scope)).toBe(true);
    expect(conditionHolds("{{params.tab === 'mine'}}", scope)).toBe(false);
    expect(conditionHolds("{{record.status === '1'}}", scope)).toBe(true);
    expect(conditionHolds("{{['2', '3'].includes(record.status)}}", scope)).toBe(false);
    expect(conditionHolds(undefined, scope)).toBe(true);
    const action: Action = { type: 'refresh', label: '刷新', visibleWhen: '{{user.loginUserCode === "U1"}}', disabledWhen: '{{record.locked}}' };
    expect(actionVisible(action, [], scope)).toBe(true);
    expect(actionDisabled(action, scope)).toBe(true);
    expect(actionVisible(action, [], makeScope({ user: { loginUserCode: 'U2' } }))).toBe(false);
    expect(actionDisabled(action, makeScope({ record: { locked: false } }))).toBe(false);
  });

  it('a list row shows and disables its actions by visibleWhen and disabledWhen expressions; the toolbar reads user and filters', async () => {
    const data = fakeData([
      { id: 1, name: '甲', status: '1', locked: false },
      { id: 2, name: '乙', status: '0', locked: true },
    ]);
    const services = fakeServices({ data, user: admin });
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '用户',
      operation: 'user.page',
      columns: [{ field: 'name', title: '名称' }],
      toolbar: [
        { type: 'refresh', label: '管理员刷新', visibleWhen: "{{user.roleList.includes('admin')}}" },
        { type: 'refresh', label: '访客刷新', visibleWhen: "{{!user.roleList.includes('admin')}}" },
      ],
      rowActions: [
        { type: 'navigate', label: '停用', to: '/u', visibleWhen: "{{record.status === '1'}}" },
        { type: 'navigate', label: '编辑', to: '/u', disabledWhen: '{{record.locked}}' },
      ],
    };
    renderWith(<PageRenderer view="fixture/scope" schema={page} />, services);
    const first = (await screen.findByText('甲')).closest('tr') as HTMLElement;
    const second = screen.getByText('乙').closest('tr') as HTMLElement;
    expect(within(first).getAllByRole('button').map((b) => b.textContent?.replace(/\s/g, ''))).toEqual(['停用', '编辑']);
    expect(within(second).getAllByRole('button').map((b) => b.textContent?.replace(/\s/g, ''))).toEqual(['编辑']);
    expect(within(first).getByRole('button', { name: '编辑' })).toBeEnabled();
    expect(within(second).getByRole('button', { name: '编辑' })).toBeDisabled();
    expect(screen.getByRole('button', { name: '管理员刷新' })).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '访客刷新' })).toBeNull();
  });

  it('a dashboard follows its route: widget params read params and user', async () => {
    const data = fakeData();
    data.call = vi.fn(async () => ({ value: 7 }) as never);
    const page = {
      schemaVersion: 1,
      kind: 'dashboard',
      title: '组织看板',
      widgets: [{ type: 'statistic', title: '设备数', operation: 'stats.total', param: { org: '{{params.orgCode}}', by: '{{user.loginUserCode}}', days: '{{params.days | number}}' } }],
    };
    renderWith(<PageRenderer view="fixture/board" schema={page} params={{ orgCode: 'O9', days: '7' }} />, fakeServices({ data, user: admin }));
    expect(await screen.findByText('7')).toBeInTheDocument();
    expect(data.call).toHaveBeenCalledWith('stats.total', { org: 'O9', by: 'U1', days: 7 }, expect.anything());
  });

  it('a form select depends on another field through values, and on the route through params', async () => {
    const data = fakeData();
    data.call = vi.fn(async (operation: string, param?: unknown) => {
      if (operation === 'city.list') {
        const { province } = (param ?? {}) as { province?: string };
        return (province === 'ZJ' ? [{ id: 'HZ', name: '杭州' }] : province === 'JS' ? [{ id: 'NJ', name: '南京' }] : []) as never;
      }
      return undefined as never;
    });
    const page = {
      schemaVersion: 1,
      kind: 'form',
      title: '新增站点',
      submit: { operation: 'site.add' },
      schema: {
        type: 'object',
        properties: {
          province: { type: 'string', title: '省份', 'x-decorator': 'FormItem', 'x-component': 'Select', enum: [{ label: '浙江', value: 'ZJ' }, { label: '江苏', value: 'JS' }] },
          city: {
            type: 'string',
            title: '城市',
            'x-decorator': 'FormItem',
            'x-component': 'OperationSelect',
            'x-component-props': { operation: 'city.list', param: { province: '{{values.province}}', tenant: '{{params.tenant}}' } },
          },
        },
      },
    };
    renderWith(<PageRenderer view="fixture/site" schema={page} params={{ tenant: 'T1' }} />, fakeServices({ data }));
    const province = await screen.findByRole('combobox', { name: '省份' });
    await userEvent.click(province);
    await userEvent.click(await screen.findByTitle('浙江'));
    await waitFor(() => expect(data.call).toHaveBeenCalledWith('city.list', { province: 'ZJ', tenant: 'T1' }, expect.anything()));
    await userEvent.click(screen.getByRole('combobox', { name: '省份' }));
    await userEvent.click(await screen.findByTitle('江苏'));
    await waitFor(() => expect(data.call).toHaveBeenCalledWith('city.list', { province: 'JS', tenant: 'T1' }, expect.anything()));
  });

  it('a filter select depends on another filter through values', async () => {
    const data = fakeData([{ id: 1, name: '甲' }]);
    data.call = vi.fn(async () => [] as never);
    const page = {
      schemaVersion: 1,
      kind: 'list',
      title: '站点',
      operation: 'site.page',
      columns: [{ field: 'name', title: '名称' }],
      filters: {
        type: 'object',
        properties: {
          kind: { type: 'string', title: '类型', 'x-component': 'Select', enum: [{ label: '水站', value: 'water' }] },
          area: { type: 'string', title: '区域', 'x-component': 'OperationSelect', 'x-component-props': { operation: 'area.list', param: { kind: '{{values.kind}}', org: '{{params.org}}' } } },
        },
      },
    };
    renderWith(<PageRenderer view="fixture/sites" schema={page} params={{ org: 'O1' }} />, fakeServices({ data }));
    await screen.findByText('甲');
    await waitFor(() => expect(data.call).toHaveBeenCalledWith('area.list', { org: 'O1' }, expect.anything()));
    await userEvent.click(screen.getByRole('combobox', { name: '类型' }));
    await userEvent.click(await screen.findByTitle('水站'));
    await waitFor(() => expect(data.call).toHaveBeenCalledWith('area.list', { kind: 'water', org: 'O1' }, expect.anything()));
  });
});
