// The console's one data layer (issue 33): screens read and change through typed hooks on the
// console's cache; the cache, not the transport, tells the user of a failure (SPEC §8), once,
// unless the query says it shows its failure itself; a change marks stale what it changes.
import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { consoleQueries } from '../../../src/api/cache';
import { api } from '../../../src/api/client';
import { useOperationMutation, useOperationQuery } from '../../../src/api/data';
import { ApiError } from '../../../src/api/http';
import { TemplateList } from '../../../src/screens/dynamicForm/TemplateList';
import { operationKey } from '../../../renderers/data/keys';
import { renderConsole, signIn } from '../account/harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), page: vi.fn(), download: vi.fn(), upload: vi.fn() } }));

function Overview({ handlesErrors = false }: { handlesErrors?: boolean }) {
  const overview = useOperationQuery('dashboard.overview', {}, { handlesErrors });
  return <output data-testid="overview">{overview.error ?? (overview.loading ? '加载中' : String(overview.data?.deviceTotal))}</output>;
}

function Rename() {
  const rename = useOperationMutation('user.name.update', { invalidates: ['user.detail'] });
  return (
    <button type="button" onClick={() => rename.mutate('张三')}>
      改名
    </button>
  );
}

const settle = () => act(async () => new Promise((resolve) => setTimeout(resolve, 20)));

describe('the console cache tells failures (the transport does not)', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
    signIn();
  });

  it('a refusal shows the platform message once, and in its place', async () => {
    vi.mocked(api.call).mockRejectedValue(new ApiError('business', '403', '无权限访问'));
    const { notes } = renderConsole(<Overview />);
    expect(await screen.findByText('无权限访问')).toBeInTheDocument();
    await settle();
    expect(notes.error).toHaveBeenCalledTimes(1);
    expect(notes.error).toHaveBeenCalledWith('无权限访问');
  });

  it('a network failure shows 系统错误，请联系管理员; a cancelled call and "301" show nothing', async () => {
    vi.mocked(api.call).mockRejectedValueOnce(new ApiError('network', null, '系统错误，请联系管理员'));
    const first = renderConsole(<Overview />);
    await screen.findByText('系统错误，请联系管理员');
    await settle();
    expect(first.notes.error).toHaveBeenCalledWith('系统错误，请联系管理员');
    first.unmount();

    for (const error of [new ApiError('cancelled', null, '请求已取消'), new ApiError('session', '301', '用户失效，请重新登录')]) {
      vi.mocked(api.call).mockRejectedValueOnce(error);
      const view = renderConsole(<Overview />);
      await waitFor(() => expect(vi.mocked(api.call).mock.calls.length).toBeGreaterThan(0));
      await settle();
      expect(view.notes.error).not.toHaveBeenCalled();
      view.unmount();
    }
  });

  it('a query that handles its own errors tells nobody (what silent: true was)', async () => {
    vi.mocked(api.call).mockRejectedValue(new ApiError('business', '500', '系统繁忙'));
    const { notes } = renderConsole(<Overview handlesErrors />);
    expect(await screen.findByText('系统繁忙')).toBeInTheDocument();
    await settle();
    expect(notes.error).not.toHaveBeenCalled();
  });

  it('calls are cancellable through TanStack\'s signal: an unmounted screen\'s call is aborted', async () => {
    let signal: AbortSignal | undefined;
    vi.mocked(api.call).mockImplementation((_operation, _param, options) => {
      signal = (options as { signal?: AbortSignal } | undefined)?.signal;
      return new Promise<never>(() => undefined);
    });
    const view = renderConsole(<Overview />);
    await waitFor(() => expect(signal).toBeInstanceOf(AbortSignal));
    view.unmount();
    await waitFor(() => expect(signal?.aborted).toBe(true));
  });
});

describe('useOperationMutation', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
    vi.mocked(api.page).mockReset();
    signIn();
  });

  it('tells a failed change once, and after a success marks stale what it changed', async () => {
    const user = userEvent.setup();
    vi.mocked(api.call).mockRejectedValueOnce(new ApiError('business', '400', '昵称不合法'));
    const { notes } = renderConsole(<Rename />);
    consoleQueries.setQueryData(operationKey('user.detail', {}), { userName: '张伟' });
    await user.click(screen.getByRole('button', { name: '改名' }));
    await waitFor(() => expect(notes.error).toHaveBeenCalledWith('昵称不合法'));
    expect(consoleQueries.getQueryState(operationKey('user.detail', {}))?.isInvalidated).toBe(false);

    vi.mocked(api.call).mockResolvedValueOnce(null);
    await user.click(screen.getByRole('button', { name: '改名' }));
    await waitFor(() => expect(consoleQueries.getQueryState(operationKey('user.detail', {}))?.isInvalidated).toBe(true));
    expect(notes.error).toHaveBeenCalledTimes(1);
  });

  it('a template published in TemplateList marks the templates stale in the shared cache (the list loads again)', async () => {
    const user = userEvent.setup();
    const row = {
      id: 7,
      name: '管网勘察表',
      description: '',
      tenantName: '',
      state: 'draft',
      publishedVersion: null,
      draftVersion: 1,
      latestVersion: 1,
      fieldCount: 3,
      usedCount: 0,
      creatorName: '',
      updateTime: '2026-11-30 10:00:00',
      canPublish: true,
      canDelete: true,
    };
    vi.mocked(api.page).mockResolvedValue({ records: [row], total: 1, pageNumber: 1, pageSize: 10 } as never);
    vi.mocked(api.call).mockImplementation(async (operation: string) => {
      if (operation === 'activeForm.template.publish') return { version: 1 } as never;
      throw new Error(`unexpected call ${operation}`);
    });
    const rights = { insert: true, modify: true, publish: true, delete: true, duplicate: true };
    const { notes } = renderConsole(<TemplateList kind={1} rights={rights} title="勘察模板" onEdit={() => undefined} onCreate={() => undefined} />);
    // Another tab shows this template's version: its cached answer must go stale with the publish.
    consoleQueries.setQueryData(operationKey('activeForm.template.get', { id: 7 }), { id: 7, state: 'draft' });
    await screen.findByText('管网勘察表');
    expect(vi.mocked(api.page)).toHaveBeenCalledTimes(1);

    await user.click(screen.getByRole('button', { name: /^发\s*布$/ }));
    // The confirmation's own 发布 (the last of them on the page).
    await waitFor(() => expect(screen.getAllByRole('button', { name: /^发\s*布$/ }).length).toBeGreaterThan(1));
    await user.click(screen.getAllByRole('button', { name: /^发\s*布$/ }).at(-1) as HTMLElement);
    await waitFor(() => expect(notes.success).toHaveBeenCalledWith('发布成功'));
    await waitFor(() => expect(consoleQueries.getQueryState(operationKey('activeForm.template.get', { id: 7 }))?.isInvalidated).toBe(true));
    await waitFor(() => expect(vi.mocked(api.page)).toHaveBeenCalledTimes(2));
  });
});
