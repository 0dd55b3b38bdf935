import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../src/api/client';
import { NotificationPopover } from '../../../src/notifications/NotificationPopover';
import { NOTIFICATION_PREVIEW_SIZE, NOTIFICATION_REFRESH_MS, type UserNotification } from '../../../src/notifications/notifications';
import { ApiError } from '../../../src/api/http';
import { answerCalls, paramsOf, renderConsole, signIn } from '../account/harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn() } }));

function notice(id: number, tabType: 1 | 2, hasRead = false, body = `<p>正文${id}</p>`): UserNotification {
  return {
    id,
    notificationTitle: `${tabType === 1 ? '日常' : '系统'}消息${id}`,
    notificationDescription: body,
    notificationDateTime: `2024-05-0${id} 09:30:00`,
    hasRead,
    notificationStatus: 1,
    tabType,
  };
}

interface World {
  counts: { dailyCount: number; systemCount: number };
  daily: UserNotification[];
  system: UserNotification[];
}

function serve(world: World) {
  answerCalls({
    'notification.count': () => ({ ...world.counts }),
    'notification.list': (param) => ((param as { tabType: number }).tabType === 1 ? world.daily : world.system),
    'notification.tab.readAll': (param) => {
      const { tabType } = param as { tabType: 1 | 2 };
      if (tabType === 1) {
        world.daily = world.daily.map((n) => ({ ...n, hasRead: true }));
        world.counts.dailyCount = 0;
      } else {
        world.system = world.system.map((n) => ({ ...n, hasRead: true }));
        world.counts.systemCount = 0;
      }
      return null;
    },
    'notification.read': (param) => {
      const { id } = param as { id: number };
      world.daily = world.daily.map((n) => (n.id === id ? { ...n, hasRead: true } : n));
      return null;
    },
  });
}

async function openPanel(user: ReturnType<typeof userEvent.setup>) {
  await user.click(screen.getByTestId('notification-bell'));
  return screen.findByTestId('notification-panel');
}

describe('notification popover', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
    signIn();
  });

  it('shows each tab count in the SPEC §9 count display and the newest items of the tab', async () => {
    serve({ counts: { dailyCount: 1234, systemCount: 23456 }, daily: [notice(1, 1), notice(2, 1), notice(3, 1)], system: [] });
    const user = userEvent.setup();
    renderConsole(<NotificationPopover />);
    await waitFor(() => expect(paramsOf('notification.count')).toHaveLength(1));

    const panel = await openPanel(user);
    expect(await within(panel).findByText('日常阅读(1000+)')).toBeInTheDocument();
    expect(within(panel).getByText('系统消息(2.3万+)')).toBeInTheDocument();
    expect(await within(panel).findByText('日常消息1')).toBeInTheDocument();
    expect(within(panel).getAllByTestId('notification-item')).toHaveLength(3);
    expect(paramsOf('notification.list')).toEqual([
      { tabType: 1, pageSize: NOTIFICATION_PREVIEW_SIZE },
      { tabType: 2, pageSize: 3 },
    ]);
    // Opening the popover refreshed the counts as well.
    expect(paramsOf('notification.count').length).toBeGreaterThanOrEqual(2);

    await user.click(within(panel).getByRole('tab', { name: '系统消息(2.3万+)' }));
    expect(await within(panel).findByText('暂无消息')).toBeInTheDocument();
  });

  it('offers 全部已读 only on a tab with unread, then resets its count and reloads', async () => {
    const world: World = { counts: { dailyCount: 2, systemCount: 0 }, daily: [notice(1, 1), notice(2, 1), notice(3, 1, true)], system: [notice(4, 2, true)] };
    serve(world);
    const user = userEvent.setup();
    renderConsole(<NotificationPopover />);
    const panel = await openPanel(user);
    await within(panel).findByText('日常消息1');

    const dailyPane = () => within(panel).getByRole('tabpanel');
    const readAllButton = () => within(dailyPane()).getByRole('button', { name: /全部已读/ });
    expect(readAllButton()).toBeEnabled();
    const listsBefore = paramsOf('notification.list').length;
    await user.click(readAllButton());
    await waitFor(() => expect(paramsOf('notification.tab.readAll')).toEqual([{ tabType: 1 }]));
    expect(await within(panel).findByText('日常阅读(0)')).toBeInTheDocument();
    await waitFor(() => expect(paramsOf('notification.list').length).toBeGreaterThan(listsBefore));
    await waitFor(() => expect(readAllButton()).toBeDisabled());

    // The system tab has nothing unread: its 全部已读 cannot be pressed.
    await user.click(within(panel).getByRole('tab', { name: '系统消息(0)' }));
    await waitFor(() => expect(within(dailyPane()).getByText('系统消息4')).toBeInTheDocument());
    expect(within(dailyPane()).getByRole('button', { name: /全部已读/ })).toBeDisabled();
    expect(paramsOf('notification.tab.readAll')).toEqual([{ tabType: 1 }]);
  });

  it('查看全部 goes to the daily-read or the system-message page', async () => {
    serve({ counts: { dailyCount: 0, systemCount: 1 }, daily: [], system: [notice(5, 2)] });
    const user = userEvent.setup();
    renderConsole(<NotificationPopover />);
    let panel = await openPanel(user);
    await user.click(within(within(panel).getByRole('tabpanel')).getByRole('button', { name: '查看全部' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/system/daily/read');

    panel = await openPanel(user);
    await user.click(within(panel).getByRole('tab', { name: '系统消息(1)' }));
    await within(panel).findByText('系统消息5');
    await user.click(within(within(panel).getByRole('tabpanel')).getByRole('button', { name: '查看全部' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/system/message');
  });

  it('refreshes the counts silently every 60 s', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval'] });
    try {
      const world: World = { counts: { dailyCount: 1, systemCount: 0 }, daily: [], system: [] };
      serve(world);
      const { notes } = renderConsole(<NotificationPopover />);
      await waitFor(() => expect(paramsOf('notification.count')).toHaveLength(1));
      world.counts.systemCount = 5;
      await act(async () => {
        vi.advanceTimersByTime(NOTIFICATION_REFRESH_MS);
      });
      await waitFor(() => expect(paramsOf('notification.count')).toHaveLength(2));
      // The bell's badge shows the total.
      await waitFor(() => expect(document.querySelector('.ant-badge')).toHaveTextContent('6'));
      // Silently: a poll that fails tells nobody, and the badge keeps the last counts.
      const counting = vi.mocked(api.call).getMockImplementation();
      vi.mocked(api.call).mockImplementation(async (operation, ...rest) => {
        if (operation === 'notification.count') throw new ApiError('network', null, '系统错误，请联系管理员');
        return counting?.(operation, ...rest) as never;
      });
      await act(async () => {
        vi.advanceTimersByTime(NOTIFICATION_REFRESH_MS);
      });
      await waitFor(() => expect(paramsOf('notification.count')).toHaveLength(3));
      await act(async () => {
        await new Promise((resolve) => setTimeout(resolve, 20));
      });
      expect(notes.error).not.toHaveBeenCalled();
      expect(document.querySelector('.ant-badge')).toHaveTextContent('6');
    } finally {
      vi.useRealTimers();
    }
  });
});

describe('daily-read modal', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
    signIn();
  });

  it('opens from a daily item, steps with 上一条 / 下一条, marks each shown item read and 去查看 navigates', async () => {
    const world: World = {
      counts: { dailyCount: 2, systemCount: 0 },
      daily: [notice(1, 1), notice(2, 1, true), notice(3, 1, false, '<p>第三条</p>')],
      system: [],
    };
    serve(world);
    const user = userEvent.setup();
    renderConsole(<NotificationPopover />);
    const panel = await openPanel(user);
    await user.click(await within(panel).findByText('日常消息1'));

    const dialog = await screen.findByRole('dialog');
    expect(within(dialog).getByText('日常消息1')).toBeInTheDocument();
    expect(within(dialog).getByText('2024-05-01 09:30:00')).toBeInTheDocument();
    expect(await within(dialog).findByText('正文1')).toBeInTheDocument();
    await waitFor(() => expect(paramsOf('notification.read')).toEqual([{ id: 1 }]));
    expect(within(dialog).getByRole('button', { name: '上一条' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: '下一条' })).toBeEnabled();

    await user.click(within(dialog).getByRole('button', { name: '下一条' }));
    expect(await within(dialog).findByText('正文2')).toBeInTheDocument();
    // Already read: not marked again.
    expect(paramsOf('notification.read')).toEqual([{ id: 1 }]);

    await user.click(within(dialog).getByRole('button', { name: '下一条' }));
    expect(await within(dialog).findByText('第三条')).toBeInTheDocument();
    await waitFor(() => expect(paramsOf('notification.read')).toEqual([{ id: 1 }, { id: 3 }]));
    expect(within(dialog).getByRole('button', { name: '下一条' })).toBeDisabled();
    expect(within(dialog).getByRole('button', { name: '上一条' })).toBeEnabled();
    await user.click(within(dialog).getByRole('button', { name: '上一条' }));
    expect(await within(dialog).findByText('正文2')).toBeInTheDocument();

    await user.click(within(dialog).getByRole('button', { name: '去查看' }));
    expect(screen.getByTestId('location')).toHaveTextContent('/system/daily/read');
  });
});
