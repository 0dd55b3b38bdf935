import { afterEach, describe, expect, it, vi } from 'vitest';
import { isReachable, onReconnected, reportReachable, subscribeReachability } from '../../src/api/connectivity';

afterEach(() => reportReachable(true));

describe('connectivity', () => {
  it('changes on what the client and the browser report, and tells each change once', () => {
    const changed = vi.fn();
    const stop = subscribeReachability(changed);
    reportReachable(true);
    expect(changed).not.toHaveBeenCalled();
    window.dispatchEvent(new Event('offline'));
    expect(isReachable()).toBe(false);
    reportReachable(false);
    expect(changed).toHaveBeenCalledTimes(1);
    window.dispatchEvent(new Event('online'));
    expect(isReachable()).toBe(true);
    expect(changed).toHaveBeenCalledTimes(2);
    stop();
  });

  it('tells the recoveries only: lost, then back', () => {
    const back = vi.fn();
    const stop = onReconnected(back);
    reportReachable(true);
    reportReachable(false);
    expect(back).not.toHaveBeenCalled();
    reportReachable(true);
    expect(back).toHaveBeenCalledTimes(1);
    stop();
    reportReachable(false);
    reportReachable(true);
    expect(back).toHaveBeenCalledTimes(1);
  });
});
