import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { AxiosError, CanceledError } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createHttpClient, fileNameFromDisposition, type HttpClientDeps } from '../../src/api/http';
import { findOperation, UnknownOperationError, type OperationSpec } from '../../src/api/catalogue';
import { DataError } from '../../renderers/data/errors';
import { errorPolicy, reportFailure } from '../../renderers/data/policy';

// A fixture catalogue for the kinds the issue-2 catalogue does not exercise yet; the real
// catalogue answers every other name.
const fixtures: Record<string, OperationSpec> = {
  'fixture.device.page': { path: '/device/_page', kind: 'page', title: '设备分页列表' },
  'fixture.device.export': { path: '/device/_export', kind: 'blob', title: '设备导出' },
  'fixture.file.upload': { path: '/system/file/upload', kind: 'upload', title: '文件上传' },
  'fixture.place.search': { path: '/map/place/_search', kind: 'get', title: '地点搜索' },
};
const resolveOperation = (name: string): OperationSpec => fixtures[name] ?? findOperation(name);

type Reply = (config: InternalAxiosRequestConfig) => Promise<Partial<AxiosResponse>> | Partial<AxiosResponse>;

function harness(reply: Reply, headers: Record<string, string | null> = { token: 'tok-1', orgCode: 'T0001' }, extra: Partial<HttpClientDeps> = {}) {
  const seen: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const partial = await reply(config);
    const response = { status: 200, statusText: 'OK', headers: {}, config, data: undefined, ...partial } as AxiosResponse;
    if (response.status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, null, response);
    return response;
  };
  // The client tells nobody: what the user is told is the data layer's policy, applied here as the
  // console's caches (and `told`) apply it.
  const notifier = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };
  const policy = errorPolicy(notifier);
  const told = <T>(promise: Promise<T>) => reportFailure(promise, policy);
  const onSessionInvalid = vi.fn();
  const saveFile = vi.fn();
  const deps: HttpClientDeps = {
    onSessionInvalid,
    readHeader: (name) => headers[name] ?? null,
    adapter,
    saveFile,
    resolveOperation,
    ...extra,
  };
  return { client: createHttpClient(deps), told, seen, notifier, onSessionInvalid, saveFile };
}

const ok = (data: unknown) => ({ data: { code: '200', message: '成功', data } });

describe('http client: requests (SPEC §7)', () => {
  it('POSTs {param:{}} by default to /api/<path> with token and orgCode headers, cookies and a 100 s timeout', async () => {
    const { client, seen } = harness(() => ok({ loginUserName: 'tadmin' }));
    await expect(client.call('auth.init')).resolves.toEqual({ loginUserName: 'tadmin' });
    const [config] = seen;
    expect(config.method).toBe('post');
    expect(config.baseURL).toBe('/api');
    expect(config.url).toBe('/auth/web/_init');
    expect(JSON.parse(String(config.data))).toEqual({ param: {} });
    expect(config.headers.token).toBe('tok-1');
    expect(config.headers.orgCode).toBe('T0001');
    expect(config.withCredentials).toBe(true);
    expect(config.timeout).toBe(100000);
  });

  it('sends a bare string param where the catalogue says so, and omits absent headers', async () => {
    const { client, seen } = harness(() => ok(null), { token: null, orgCode: null });
    await client.call('verification.sms.send', '13800000001');
    expect(JSON.parse(String(seen[0].data))).toEqual({ param: '13800000001' });
    expect(seen[0].headers.token).toBeUndefined();
    expect(seen[0].headers.orgCode).toBeUndefined();
  });

  it('sends paged requests as {pageParam:{pageNumber,pageSize},param,sortParamList}', async () => {
    const page = { records: [{ id: 1 }], total: 1, pageNumber: 2, pageSize: 20 };
    const { client, seen } = harness(() => ok(page));
    const result = await client.page('fixture.device.page', { pageNumber: 2, pageSize: 20 }, { loginName: 'a' }, [
      { field: 'loginTime', order: 'desc' },
    ]);
    expect(result).toEqual(page);
    expect(seen[0].url).toBe('/device/_page');
    expect(JSON.parse(String(seen[0].data))).toEqual({
      pageParam: { pageNumber: 2, pageSize: 20 },
      param: { loginName: 'a' },
      sortParamList: [{ field: 'loginTime', order: 'desc' }],
    });
  });

  it('refuses an operation name that is not catalogued', async () => {
    const { client, seen } = harness(() => ok(null));
    await expect(client.call('no.such.operation')).rejects.toBeInstanceOf(UnknownOperationError);
    expect(seen).toHaveLength(0);
  });
});

describe('http client: the error catalogue (SPEC §8)', () => {
  it('the client rejects with a typed DataError and tells nobody itself (issue 33)', async () => {
    const requestId = '1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d';
    const { client, notifier } = harness(() => ({ data: { code: '500', message: '系统繁忙', data: { retry: true }, requestId } }));
    const error = await client.call('auth.init').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataError);
    expect(error).toMatchObject({ kind: 'business', code: '500', message: '系统繁忙（请求编号 1a2b3c4d）', requestId, data: { retry: true } });
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('a code other than "200" shows the server message and rejects', async () => {
    const { client, told, notifier } = harness(() => ({ data: { code: '401', message: '用户名或密码错误', data: null } }));
    const error = await told(client.call('auth.login', { loginName: 'x', password: 'y' })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'business', code: '401', message: '用户名或密码错误' });
    expect(notifier.error).toHaveBeenCalledTimes(1);
    expect(notifier.error).toHaveBeenCalledWith('用户名或密码错误');
  });

  it('"301" goes to /login once through the session handler, however many calls fail together', async () => {
    const { client, told, notifier, onSessionInvalid } = harness(() => ({ data: { code: '301', message: 'token失效' } }));
    const results = await Promise.allSettled([told(client.call('auth.init')), told(client.call('dict.tree')), told(client.call('resource.menu.list'))]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).kind === 'session')).toBe(true);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).message === '用户失效，请重新登录')).toBe(true);
    // The session handler says 用户失效，请重新登录 (tests/unit/sessionInvalid.test.ts); the policy adds nothing.
    expect(notifier.error).not.toHaveBeenCalled();
    expect(onSessionInvalid).toHaveBeenCalledTimes(1);
    // A later burst after a new login is announced again.
    client.resetSessionLatch();
    await client.call('auth.init').catch(() => undefined);
    expect(onSessionInvalid).toHaveBeenCalledTimes(2);
  });

  it('a response without a code passes through', async () => {
    const { client, notifier } = harness(() => ({ data: { rows: [1, 2] } }));
    await expect(client.call('auth.init')).resolves.toEqual({ rows: [1, 2] });
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('a network failure shows 系统错误，请联系管理员', async () => {
    const { client, told, notifier } = harness((config) => {
      throw new AxiosError('Network Error', 'ERR_NETWORK', config);
    });
    await expect(told(client.call('auth.init'))).rejects.toMatchObject({ kind: 'network', message: '系统错误，请联系管理员' });
    expect(notifier.error).toHaveBeenCalledWith('系统错误，请联系管理员');
  });

  it('a fault of the platform ("500") shows its message with the first 8 characters of the request id to quote', async () => {
    const requestId = '1a2b3c4d-5e6f-4a0b-8c9d-0e1f2a3b4c5d';
    const { client, told, notifier } = harness(() => ({ data: { code: '500', message: '系统错误，请联系管理员', data: null, requestId } }));
    await expect(told(client.call('auth.init'))).rejects.toMatchObject({ kind: 'business', code: '500', message: '系统错误，请联系管理员（请求编号 1a2b3c4d）' });
    expect(notifier.error).toHaveBeenCalledWith('系统错误，请联系管理员（请求编号 1a2b3c4d）');
  });

  it('an HTTP error status without an envelope is a system error too', async () => {
    const { client, told, notifier } = harness(() => ({ status: 502, data: '<html>Bad Gateway</html>' }));
    await expect(told(client.call('auth.init'))).rejects.toMatchObject({ kind: 'network' });
    expect(notifier.error).toHaveBeenCalledWith('系统错误，请联系管理员');
  });

  it('a call whose caller handles its errors (background polling) rejects without a message, but "301" still ends the session', async () => {
    const { client, notifier, onSessionInvalid } = harness(() => ({ data: { code: '500', message: '系统繁忙' } }));
    await expect(client.call('auth.wechat.login', { ticket: 't' })).rejects.toMatchObject({ code: '500' });
    expect(notifier.error).not.toHaveBeenCalled();
    const expired = harness(() => ({ data: { code: '301' } }));
    await expect(expired.client.call('auth.init', {})).rejects.toMatchObject({ kind: 'session' });
    expect(expired.onSessionInvalid).toHaveBeenCalledTimes(1);
    expect(onSessionInvalid).not.toHaveBeenCalled();
  });

  it('tells whether the platform answered: any response yes, none no, a cancelled call nothing', async () => {
    const heard: boolean[] = [];
    const onReachability = (reachable: boolean) => heard.push(reachable);
    await harness(() => ok(null), undefined, { onReachability }).client.call('auth.init');
    await harness(() => ({ status: 502, data: 'Bad Gateway' }), undefined, { onReachability }).client.call('auth.init').catch(() => undefined);
    await harness((config) => {
      throw new AxiosError('Network Error', 'ERR_NETWORK', config);
    }, undefined, { onReachability }).client.call('auth.init').catch(() => undefined);
    await harness(() => {
      throw new CanceledError();
    }, undefined, { onReachability }).client.call('auth.init').catch(() => undefined);
    expect(heard).toEqual([true, true, false]);
  });

  it('a cancelled call rejects without any message', async () => {
    const { client, told, notifier } = harness(() => {
      throw new CanceledError();
    });
    await expect(told(client.call('auth.init'))).rejects.toMatchObject({ kind: 'cancelled' });
    expect(notifier.error).not.toHaveBeenCalled();
  });
});

describe('http client: files', () => {
  it('saves a blob export under the server file name (RFC 6266 filename*)', async () => {
    const name = encodeURIComponent('设备列表.xlsx');
    const blob = new Blob(['xlsx-bytes'], { type: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet' });
    const { client, saveFile, seen } = harness(() => ({
      data: blob,
      headers: { 'content-disposition': `attachment; filename="list.xlsx"; filename*=UTF-8''${name}` },
    }));
    const result = await client.download('fixture.device.export', { state: 'online' });
    expect(JSON.parse(String(seen[0].data))).toEqual({ param: { state: 'online' } });
    expect(seen[0].responseType).toBe('blob');
    expect(result.fileName).toBe('设备列表.xlsx');
    expect(saveFile).toHaveBeenCalledWith(blob, '设备列表.xlsx');
  });

  it('an export that answers an error envelope shows its message and saves nothing', async () => {
    const body = new Blob([JSON.stringify({ code: '403', message: '无权限访问' })], { type: 'application/json' });
    const { client, told, saveFile, notifier } = harness(() => ({ data: body, headers: { 'content-type': 'application/json' } }));
    await expect(told(client.download('fixture.device.export'))).rejects.toMatchObject({ code: '403' });
    expect(notifier.error).toHaveBeenCalledWith('无权限访问');
    expect(saveFile).not.toHaveBeenCalled();
  });

  it('uploads multipart with the field "file" and resolves the envelope data', async () => {
    const { client, seen } = harness(() => ok({ url: '/files/a.png' }));
    const result = await client.upload('fixture.file.upload', new Blob(['png']), 'a.png');
    expect(result).toEqual({ url: '/files/a.png' });
    const form = seen[0].data as FormData;
    expect(form).toBeInstanceOf(FormData);
    expect((form.get('file') as File).name).toBe('a.png');
  });

  it('calls kind "get" with query parameters', async () => {
    const { client, seen } = harness(() => ok([]));
    await client.call('fixture.place.search', { keyword: '西湖' });
    expect(seen[0].method).toBe('get');
    expect(seen[0].params).toEqual({ keyword: '西湖' });
  });

  it('refuses to call an operation as the wrong kind', async () => {
    const { client } = harness(() => ok(null));
    await expect(client.call('fixture.device.page')).rejects.toThrow(/page/);
  });

  it('reads Content-Disposition file names', () => {
    expect(fileNameFromDisposition('attachment; filename="a.xlsx"', 'x')).toBe('a.xlsx');
    expect(fileNameFromDisposition("attachment; filename*=UTF-8''%E8%AE%BE%E5%A4%87.xlsx", 'x')).toBe('设备.xlsx');
    expect(fileNameFromDisposition(undefined, '导出.xlsx')).toBe('导出.xlsx');
  });
});

describe('http client: renewing an expired access token (#9 sessions)', () => {
  /** A server whose access token `tok-1` has expired and whose refresh token `ref-1` renews once. */
  function renewing(refreshAnswer: () => Partial<AxiosResponse>) {
    const stored: Record<string, string | null> = { token: 'tok-1', orgCode: 'T0001', refresh: 'ref-1' };
    const seen: InternalAxiosRequestConfig[] = [];
    const adapter: AxiosAdapter = async (config) => {
      seen.push(config);
      await new Promise((resolve) => setTimeout(resolve, 5));
      const partial =
        config.url === '/auth/token/_refresh'
          ? refreshAnswer()
          : config.headers.token === 'tok-2'
            ? ok({ url: config.url })
            : { data: { code: '301', message: '登录已过期', data: null } };
      return { status: 200, statusText: 'OK', headers: {}, config, data: undefined, ...partial } as AxiosResponse;
    };
    const notifier = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };
    const told = <T>(promise: Promise<T>) => reportFailure(promise, errorPolicy(notifier));
    const onSessionInvalid = vi.fn();
    const storeTokens = vi.fn((tokens: { accessToken: string; refreshToken: string }) => {
      stored.token = tokens.accessToken;
      stored.refresh = tokens.refreshToken;
    });
    const client = createHttpClient({
      onSessionInvalid,
      readHeader: (name) => stored[name] ?? null,
      readRefreshToken: () => stored.refresh,
      storeTokens,
      adapter,
      resolveOperation,
    });
    return { client, told, seen, notifier, onSessionInvalid, storeTokens, stored };
  }

  it('renews once for every call that met the expired token, keeps the new pair and sends each call again', async () => {
    const { client, told, seen, notifier, onSessionInvalid, storeTokens, stored } = renewing(() => ok({ accessToken: 'tok-2', refreshToken: 'ref-2', expiresIn: 7200 }));
    const answers = await Promise.all([told(client.call('auth.init')), told(client.call('notification.count')), told(client.page('fixture.device.page', { pageNumber: 1, pageSize: 20 }))]);
    expect(answers).toEqual([{ url: '/auth/web/_init' }, { url: '/user/message/_count' }, { url: '/device/_page' }]);
    const renewals = seen.filter((config) => config.url === '/auth/token/_refresh');
    expect(renewals).toHaveLength(1);
    expect(JSON.parse(String(renewals[0].data))).toEqual({ param: { refreshToken: 'ref-1' } });
    expect(renewals[0].headers.token).toBeUndefined();
    expect(storeTokens).toHaveBeenCalledTimes(1);
    expect(stored).toMatchObject({ token: 'tok-2', refresh: 'ref-2' });
    // Three first tries with the old token, one renewal, three retries with the new one.
    expect(seen.filter((config) => config.headers.token === 'tok-2')).toHaveLength(3);
    expect(notifier.error).not.toHaveBeenCalled();
    expect(onSessionInvalid).not.toHaveBeenCalled();
  });

  it('a call that meets the expired token after the renewal is simply sent again with the new token', async () => {
    const { client, seen } = renewing(() => ok({ accessToken: 'tok-2', refreshToken: 'ref-2' }));
    await client.call('auth.init');
    await client.call('auth.init');
    expect(seen.filter((config) => config.url === '/auth/token/_refresh')).toHaveLength(1);
  });

  it('an expired refresh token ends the session once (the handler says 用户失效，请重新登录), and every call rejects', async () => {
    const { client, told, notifier, onSessionInvalid, storeTokens } = renewing(() => ({ data: { code: '301', message: '登录已过期', data: null } }));
    const results = await Promise.allSettled([told(client.call('auth.init')), told(client.call('notification.count'))]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
    expect((results[0] as PromiseRejectedResult).reason).toMatchObject({ kind: 'session', code: '301', message: '用户失效，请重新登录' });
    expect(storeTokens).not.toHaveBeenCalled();
    expect(onSessionInvalid).toHaveBeenCalledTimes(1);
    expect(notifier.error).not.toHaveBeenCalled();
  });

  it('a renewal that fails on the network ends the session the same way', async () => {
    const { client, onSessionInvalid } = renewing(() => ({ status: 503, data: 'down' }));
    await expect(client.call('auth.init')).rejects.toMatchObject({ kind: 'session' });
    expect(onSessionInvalid).toHaveBeenCalledTimes(1);
  });

  it('renews for a download too, then saves the file', async () => {
    const stored: Record<string, string | null> = { token: 'tok-1', refresh: 'ref-1' };
    const saveFile = vi.fn();
    const adapter: AxiosAdapter = async (config) => {
      const data =
        config.url === '/auth/token/_refresh'
          ? { code: '200', data: { accessToken: 'tok-2', refreshToken: 'ref-2' } }
          : config.headers.token === 'tok-2'
            ? new Blob(['xlsx'], { type: 'application/octet-stream' })
            : new Blob([JSON.stringify({ code: '301', message: '过期', data: null })], { type: 'application/json' });
      return { status: 200, statusText: 'OK', headers: { 'content-disposition': 'attachment; filename="d.xlsx"' }, config, data } as AxiosResponse;
    };
    const client = createHttpClient({
      onSessionInvalid: vi.fn(),
      readHeader: (name) => stored[name] ?? null,
      readRefreshToken: () => stored.refresh,
      storeTokens: (tokens) => Object.assign(stored, { token: tokens.accessToken, refresh: tokens.refreshToken }),
      adapter,
      saveFile,
      resolveOperation,
    });
    await expect(client.download('fixture.device.export')).resolves.toMatchObject({ fileName: 'd.xlsx' });
    expect(saveFile).toHaveBeenCalledTimes(1);
  });

  it('without a refresh token (or a call made without a token) "301" ends the session as before', async () => {
    const { client, onSessionInvalid } = harness(() => ({ data: { code: '301', message: 'x', data: null } }));
    await expect(client.call('auth.init')).rejects.toMatchObject({ kind: 'session' });
    expect(onSessionInvalid).toHaveBeenCalledTimes(1);
  });
});
