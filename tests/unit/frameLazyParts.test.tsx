import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { ConfigProvider } from 'antd';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';
import { afterFirstPaint, useFirstPaintHold } from '../../renderers/runtime/firstPaint';
import { ConsoleApp, useConsoleModal } from '../../src/frame/ConsoleApp';

// Issue 35: the frame's confirm dialogs load with the first one (src/frame/ModalHost.tsx), and
// what the frame draws around a page waits for the page's first paint. The dialogs' first load
// fails here, as a dropped connection would fail it.
const failures = vi.hoisted(() => ({ left: 0 }));
vi.mock('../../src/frame/ModalHost', async (importOriginal) => {
  if (failures.left > 0) {
    failures.left -= 1;
    throw new TypeError('Failed to fetch dynamically imported module');
  }
  return importOriginal();
});
const notified = vi.hoisted(() => ({ errors: [] as string[] }));
vi.mock('../../src/api/notifier', () => ({ notify: { success: vi.fn(), info: vi.fn(), warning: vi.fn(), error: (text: string) => notified.errors.push(text) } }));

function Logout({ onAnswer }: { onAnswer: (answer: string) => void }) {
  const modal = useConsoleModal();
  return (
    <button
      type="button"
      onClick={() =>
        void modal
          .confirm({ title: '确认登出', okText: '确定', cancelText: '取消', onCancel: () => onAnswer('cancelled') })
          .then((confirmed) => onAnswer(confirmed ? 'confirmed' : 'not confirmed'), () => onAnswer('failed'))
      }
    >
      退出登录
    </button>
  );
}

function renderFrame(onAnswer: (answer: string) => void) {
  return render(
    <ConfigProvider>
      <ConsoleApp>
        <Logout onAnswer={onAnswer} />
      </ConsoleApp>
    </ConfigProvider>,
  );
}

describe('the frame’s dialogs, loaded with the first one', () => {
  it('answers a dismissal and says so when the dialogs cannot be loaded, and loads them on the next try', async () => {
    failures.left = 1;
    const answers: string[] = [];
    renderFrame((answer) => answers.push(answer));
    await userEvent.click(screen.getByRole('button', { name: '退出登录' }));
    await waitFor(() => expect(answers).toEqual(['cancelled', 'not confirmed']));
    expect(notified.errors).toEqual(['页面资源加载失败，请重试']);
    expect(document.querySelector('.ant-modal')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '退出登录' }));
    expect(within(await screen.findByRole('dialog')).getAllByText('确认登出').length).toBeGreaterThan(0);
  });

  it('opens a confirmation although its holder was not there, and answers it', async () => {
    const answers: string[] = [];
    renderFrame((answer) => answers.push(answer));
    expect(document.querySelector('.ant-modal')).toBeNull();
    await userEvent.click(screen.getByRole('button', { name: '退出登录' }));
    expect(within(await screen.findByRole('dialog')).getAllByText('确认登出').length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(answers).toEqual(['confirmed']));
  });

});

describe('the page’s first paint', () => {
  it('is done only once nothing on the page holds it back', async () => {
    function Loading() {
      const [loading, setLoading] = useState(true);
      useFirstPaintHold(loading);
      return (
        <>
          <button type="button" onClick={() => setLoading(false)}>数据到达</button>
          {loading ? <p>加载中</p> : <p>第一行</p>}
        </>
      );
    }
    render(<Loading />);
    let done = false;
    void afterFirstPaint().then(() => (done = true));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(done).toBe(false);
    act(() => screen.getByRole('button', { name: '数据到达' }).click());
    await waitFor(() => expect(done).toBe(true));
    expect(screen.getByText('第一行')).toBeInTheDocument();
  });
});
