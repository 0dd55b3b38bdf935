import { describe, expect, it, vi } from 'vitest';
import { errorPolicy, reportFailure } from '../../renderers/data/policy';
import { createHttpClient } from '../../src/api/http';
import { SYSTEM_ERROR_MESSAGE } from '../../src/api/messages';

// axios is fetched with the first request (issue 8). Here its code cannot be fetched, as when the
// network is lost before the first call.
let loads = 0;
vi.mock('axios', () => {
  loads += 1;
  throw new TypeError('Failed to fetch dynamically imported module');
});

describe('the http client when its request library cannot be fetched', () => {
  it('fails the call as unreachable with the system message, and the next call fetches it again', async () => {
    const notifier = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };
    const onReachability = vi.fn();
    const client = createHttpClient({ onReachability, onSessionInvalid: vi.fn(), readHeader: () => null });
    await expect(reportFailure(client.call('auth.init'), errorPolicy(notifier))).rejects.toMatchObject({ kind: 'network', message: SYSTEM_ERROR_MESSAGE });
    expect(notifier.error).toHaveBeenCalledWith(SYSTEM_ERROR_MESSAGE);
    expect(onReachability).toHaveBeenCalledWith(false);
    const before = loads;
    await expect(client.call('auth.init')).rejects.toMatchObject({ kind: 'network' });
    expect(loads).toBeGreaterThan(before);
  });
});
