// A "301" that comes back before the shell is mounted (a reload's first calls on a busy machine)
// ends the session at once and takes the user to /login when the shell mounts; it never reloads
// the page, which dropped the 用户失效，请重新登录 the notifier was holding (a CI failure).
import { afterEach, describe, expect, it, vi } from 'vitest';

afterEach(() => {
  sessionStorage.clear();
  vi.restoreAllMocks();
});

describe('the console client on "301"', () => {
  it('before the shell mounts: clears the session, reloads nothing, and runs the shell’s handler once it is installed', async () => {
    vi.resetModules();
    const { sessionInvalid, setSessionInvalidHandler } = await import('../../src/api/client');
    const { writeSession, readSession } = await import('../../src/session/storage');
    writeSession('accessToken', 'expired');
    const assign = vi.spyOn(window.location, 'assign').mockImplementation(() => undefined);
    sessionInvalid();
    expect(readSession('accessToken')).toBeNull();
    expect(assign).not.toHaveBeenCalled();
    const shell = vi.fn();
    setSessionInvalidHandler(shell);
    expect(shell).toHaveBeenCalledTimes(1);
    // A remounted shell is not sent to /login again for the same "301".
    const remounted = vi.fn();
    setSessionInvalidHandler(remounted);
    expect(remounted).not.toHaveBeenCalled();
  });

  it('says 用户失效，请重新登录 (SPEC §8): the one place a "301" is told, once per burst (the client latches)', async () => {
    vi.resetModules();
    const { sessionInvalid, setSessionInvalidHandler } = await import('../../src/api/client');
    const { setNotifier } = await import('../../src/api/notifier');
    const notes = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };
    setNotifier(notes);
    setSessionInvalidHandler(vi.fn());
    sessionInvalid();
    expect(notes.error).toHaveBeenCalledTimes(1);
    expect(notes.error).toHaveBeenCalledWith('用户失效，请重新登录');
  });

  it('after the shell mounts: only the shell’s handler runs', async () => {
    vi.resetModules();
    const { sessionInvalid, setSessionInvalidHandler } = await import('../../src/api/client');
    const shell = vi.fn();
    setSessionInvalidHandler(shell);
    expect(shell).not.toHaveBeenCalled();
    sessionInvalid();
    expect(shell).toHaveBeenCalledTimes(1);
  });
});
