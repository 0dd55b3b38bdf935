// @vitest-environment jsdom
// DOMPurify does not sanitise under happy-dom (it leaves <script> and handlers in place), so the
// proof that a notification body is sanitised runs in jsdom, like the renderer's display test.
import { screen, waitFor, within } from '@testing-library/react';
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { api } from '../../../src/api/client';
import { DailyReadModal } from '../../../src/notifications/DailyReadModal';
import type { UserNotification } from '../../../src/notifications/notifications';
import { answerCalls, paramsOf, renderConsole } from '../account/harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn() } }));

beforeAll(() => {
  // jsdom has no matchMedia; antd asks for it.
  window.matchMedia ??= ((query: string) => ({
    matches: false,
    media: query,
    onchange: null,
    addListener: () => undefined,
    removeListener: () => undefined,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    dispatchEvent: () => false,
  })) as typeof window.matchMedia;
});

const hostile: UserNotification = {
  id: 9,
  notificationTitle: '带脚本的通知',
  notificationDescription:
    '<p>正文<script>window.pwned=1</script><img src="x" onerror="window.pwned=2"><a href="javascript:window.pwned=3">链接</a><b onclick="window.pwned=4">加粗</b></p>',
  notificationDateTime: '2024-05-09 10:00:00',
  hasRead: false,
};

describe('daily-read modal body', () => {
  it('renders the server HTML only after sanitising: no script, handler or javascript: url', async () => {
    vi.mocked(api.call).mockReset();
    answerCalls({ 'notification.read': () => null });
    renderConsole(<DailyReadModal items={[hostile]} index={0} onIndexChange={() => undefined} onClose={() => undefined} />);
    const dialog = await screen.findByRole('dialog');
    // The sanitiser loads with the first HTML shown.
    expect(await within(dialog).findByText('加粗')).toBeInTheDocument();
    const body = within(dialog).getByTestId('daily-read-body');
    expect(body.innerHTML).not.toMatch(/script|onerror|onclick|javascript:/i);
    expect((window as { pwned?: unknown }).pwned).toBeUndefined();
    await waitFor(() => expect(paramsOf('notification.read')).toEqual([{ id: 9 }]));
  });
});
