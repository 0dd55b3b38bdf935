import { render, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ErrorBoundary } from '../../renderers/runtime/ErrorBoundary';
import { expectedFailures, reportError } from '../../renderers/runtime/errorReporter';
import { ERROR_NOTICE, installErrorReporting, NOTICE_INTERVAL_MS, pageContext } from '../../src/app/errorReporting';
import type { MenuResource } from '../../src/session/types';

const menus = [
  { resourceCode: 'device', resourceName: '设备管理', resourceUrl: '/device', children: [{ resourceCode: 'device_all', resourceName: '全部设备', resourceUrl: '/device/all', fileUrl: 'device/all', children: [] }] },
] as unknown as MenuResource[];

let uninstall: (() => void) | null = null;
let clock = 0;
const notify = { error: vi.fn() };
const target = new EventTarget() as unknown as Window;

beforeEach(() => {
  notify.error.mockReset();
  clock = 100_000;
  vi.spyOn(console, 'error').mockImplementation(() => undefined);
  uninstall = installErrorReporting({ notify, page: () => pageContext(menus, { pathname: '/device/all', search: '?x=1' }), target, now: () => clock });
});

afterEach(() => {
  uninstall?.();
  uninstall = null;
  vi.restoreAllMocks();
});

describe('the shell installs the renderer reporter (issue 20)', () => {
  it('logs an unexpected error once, with the page it happened on, and shows a friendly notice', () => {
    const error = new TypeError("Cannot read properties of undefined (reading 'code')");
    reportError(error, '操作 详情');
    // The same error reaching a second catch (the root's, say) is not logged again.
    reportError(error, '渲染');
    expect(console.error).toHaveBeenCalledTimes(1);
    expect(console.error).toHaveBeenCalledWith('[操作 详情] 页面 全部设备（/device/all?x=1，视图 device/all）', error);
    expect(notify.error).toHaveBeenCalledTimes(1);
    expect(notify.error).toHaveBeenCalledWith(ERROR_NOTICE);
    // The notice is friendly: not the programmer's message.
    expect(ERROR_NOTICE).not.toContain('undefined');
  });

  it('a burst of errors shows one notice; a later one another', () => {
    reportError(new Error('一'), '操作 甲');
    reportError(new Error('二'), '操作 乙');
    expect(console.error).toHaveBeenCalledTimes(2);
    expect(notify.error).toHaveBeenCalledTimes(1);
    clock += NOTICE_INTERVAL_MS;
    reportError(new Error('三'), '操作 丙');
    expect(notify.error).toHaveBeenCalledTimes(2);
  });

  it('the declared data failures and refused validations are neither logged nor noticed', () => {
    const settle = expectedFailures('提交');
    for (const kind of ['business', 'session', 'network', 'cancelled']) settle(Object.assign(new Error(kind), { kind }));
    settle({ errorFields: [] });
    const rejected = Object.assign(new Event('unhandledrejection'), { reason: Object.assign(new Error('网络'), { kind: 'network' }) });
    target.dispatchEvent(rejected);
    expect(console.error).not.toHaveBeenCalled();
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('reports an uncaught error and an unhandled rejection of anything else', () => {
    const thrown = new RangeError('坏了');
    target.dispatchEvent(Object.assign(new Event('error'), { error: thrown, message: thrown.message }));
    const reason = new SyntaxError('bad');
    target.dispatchEvent(Object.assign(new Event('unhandledrejection'), { reason }));
    expect(console.error).toHaveBeenCalledWith('[未捕获的错误] 页面 全部设备（/device/all?x=1，视图 device/all）', thrown);
    expect(console.error).toHaveBeenCalledWith('[未处理的异步错误] 页面 全部设备（/device/all?x=1，视图 device/all）', reason);
  });

  it('a render error is logged once with the page; the boundary, not a notice, tells the user', () => {
    function Broken(): never {
      throw new RangeError('渲染坏了');
    }
    render(
      <ErrorBoundary>
        <Broken />
      </ErrorBoundary>,
    );
    expect(screen.getByRole('alert')).toHaveTextContent('页面出错了');
    const logged = vi.mocked(console.error).mock.calls.filter(([first]) => typeof first === 'string' && first.startsWith('[渲染'));
    expect(logged).toHaveLength(1);
    expect(logged[0][0]).toContain('页面 全部设备（/device/all?x=1，视图 device/all）');
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('removing it restores the renderer without hook or page', () => {
    uninstall?.();
    uninstall = null;
    const error = new Error('之后');
    reportError(error, '操作');
    expect(console.error).toHaveBeenCalledWith('[操作]', error);
    expect(notify.error).not.toHaveBeenCalled();
  });

  it('names a page outside the menu by its address', () => {
    expect(pageContext(menus, { pathname: '/playground', search: '' })).toBe('页面 /playground');
  });
});
