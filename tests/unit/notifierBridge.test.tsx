// The console's notices through antd's message API: the same words said again while they are
// still shown are one notice (issue 34: a double 设置成功！), different words stack as before.
import { act, render, screen } from '@testing-library/react';
import { ConfigProvider } from 'antd';
import { describe, expect, it } from 'vitest';
import { NotifierBridge } from '../../src/app/NotifierBridge';
import { notify } from '../../src/api/notifier';

const notices = () => Array.from(document.querySelectorAll('.ant-message-notice')).map((notice) => notice.textContent);

describe('NotifierBridge', () => {
  it('shows a message said twice while it is shown once, and different messages each', async () => {
    render(
      <ConfigProvider>
        <NotifierBridge />
      </ConfigProvider>,
    );
    await act(async () => {
      notify.success('设置成功！');
      notify.success('设置成功！');
      await Promise.resolve();
    });
    await screen.findByText('设置成功！');
    expect(notices()).toEqual(['设置成功！']);

    await act(async () => {
      notify.error('系统错误，请联系管理员');
      notify.error('系统错误，请联系管理员');
      notify.success('编辑成功！');
      await Promise.resolve();
    });
    await screen.findByText('编辑成功！');
    expect(notices().sort()).toEqual(['系统错误，请联系管理员', '编辑成功！', '设置成功！'].sort());
  });
});
