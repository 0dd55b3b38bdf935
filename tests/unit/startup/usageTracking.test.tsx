import { act, screen, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../src/api/client';
import { ApiError } from '../../../src/api/http';
import { extraItemOf, useUsageTracking } from '../../../src/startup/useUsageTracking';
import { paramsOf, renderConsole, signIn } from '../account/harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn() } }));

function Tracked() {
  useUsageTracking();
  return null;
}

describe('usage tracking', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('saves a didPush record on every route change with the time spent on the previous page', async () => {
    signIn();
    vi.mocked(api.call).mockResolvedValue(null as never);
    const now = vi.spyOn(Date, 'now').mockReturnValue(1_700_000_000_000);
    const { router } = renderConsole(<Tracked />, { path: '/dashboard' });
    await waitFor(() => expect(paramsOf('usage.message.save')).toHaveLength(1));
    expect(paramsOf('usage.message.save')[0]).toEqual({
      actionType: 'didPush',
      activeTime: 1_700_000_000_000,
      extraItem: '',
      pendingTime: 0,
      platform: 'web',
      usageUrl: '/dashboard',
    });

    now.mockReturnValue(1_700_000_004_500);
    await act(() => router.navigate('/device/all?state=online&dlmToken=secret'));
    await waitFor(() => expect(paramsOf('usage.message.save')).toHaveLength(2));
    expect(paramsOf('usage.message.save')[1]).toEqual({
      actionType: 'didPush',
      activeTime: 1_700_000_004_500,
      extraItem: '{"state":"online"}',
      pendingTime: 4500,
      platform: 'web',
      usageUrl: '/device/all',
    });
    expect(paramsOf('usage.message.save')).toHaveLength(2);
  });

  it('never holds up or breaks navigation: the save is not awaited and its failure is swallowed', async () => {
    signIn();
    const pending = new Promise<never>(() => undefined);
    vi.mocked(api.call).mockReturnValueOnce(pending).mockRejectedValue(new ApiError('network', null, '系统错误，请联系管理员'));
    const { router, notes } = renderConsole(<Tracked />, { path: '/dashboard' });
    await act(() => router.navigate('/system/message'));
    expect(screen.getByTestId('location')).toHaveTextContent('/system/message');
    await act(() => router.navigate('/my/order'));
    expect(screen.getByTestId('location')).toHaveTextContent('/my/order');
    await waitFor(() => expect(paramsOf('usage.message.save')).toHaveLength(3));
    // Silent: a failed save tells nobody.
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(notes.error).not.toHaveBeenCalled();
  });

  it('records nothing without a session token', async () => {
    const { router } = renderConsole(<Tracked />, { path: '/login' });
    await act(() => router.navigate('/forgot/password'));
    expect(paramsOf('usage.message.save')).toEqual([]);
  });

  it('extraItem is the query as JSON text, without tokens, or empty', () => {
    expect(extraItemOf('')).toBe('');
    expect(extraItemOf('?dlmToken=abc')).toBe('');
    expect(extraItemOf('?id=7&tab=2')).toBe('{"id":"7","tab":"2"}');
  });
});
