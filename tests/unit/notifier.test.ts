// What the console says before the shell has installed its notifier is said once it has (a "301"
// answered while the page is still mounting must still tell the user 用户失效，请重新登录).
import { describe, expect, it, vi } from 'vitest';

describe('notify before the shell installs its notifier', () => {
  it('keeps what was said and says it once, in order, when a notifier is installed', async () => {
    vi.resetModules();
    const { notify, setNotifier } = await import('../../src/api/notifier');
    notify.error('用户失效，请重新登录');
    notify.info('已复制');
    const said: string[] = [];
    const record = (kind: string) => (text: string) => void said.push(`${kind} ${text}`);
    setNotifier({ success: record('success'), error: record('error'), warning: record('warning'), info: record('info') });
    expect(said).toEqual(['error 用户失效，请重新登录', 'info 已复制']);
    notify.warning('网络已断开');
    expect(said).toEqual(['error 用户失效，请重新登录', 'info 已复制', 'warning 网络已断开']);
    // A second notifier (a remount) is not told again what the first one said.
    const again: string[] = [];
    setNotifier({ success: (t) => void again.push(t), error: (t) => void again.push(t), warning: (t) => void again.push(t), info: (t) => void again.push(t) });
    expect(again).toEqual([]);
  });

  it('keeps only the last 20 when nothing installs one', async () => {
    vi.resetModules();
    const { notify, setNotifier } = await import('../../src/api/notifier');
    for (let i = 1; i <= 25; i += 1) notify.error(`错误 ${i}`);
    const said: string[] = [];
    setNotifier({ success: () => undefined, error: (text) => void said.push(text), warning: () => undefined, info: () => undefined });
    expect(said).toEqual(Array.from({ length: 20 }, (_, i) => `错误 ${i + 6}`));
  });
});
