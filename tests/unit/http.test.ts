import type { AxiosAdapter, AxiosResponse, InternalAxiosRequestConfig } from 'axios';
import { AxiosError, CanceledError } from 'axios';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, createHttpClient, fileNameFromDisposition, type HttpClientDeps } from '../../src/api/http';
import { findOperation, UnknownOperationError, type OperationSpec } from '../../src/api/catalogue';

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

function harness(reply: Reply, headers: Record<string, string | null> = { token: 'tok-1', orgCode: 'T0001' }) {
  const seen: InternalAxiosRequestConfig[] = [];
  const adapter: AxiosAdapter = async (config) => {
    seen.push(config);
    const partial = await reply(config);
    const response = { status: 200, statusText: 'OK', headers: {}, config, data: undefined, ...partial } as AxiosResponse;
    if (response.status >= 400) throw new AxiosError('failed', 'ERR_BAD_RESPONSE', config, null, response);
    return response;
  };
  const notifier = { success: vi.fn(), error: vi.fn(), warning: vi.fn(), info: vi.fn() };
  const onSessionInvalid = vi.fn();
  const saveFile = vi.fn();
  const deps: HttpClientDeps = {
    notifier,
    onSessionInvalid,
    readHeader: (name) => headers[name] ?? null,
    adapter,
    saveFile,
    resolveOperation,
  };
  return { client: createHttpClient(deps), seen, notifier, onSessionInvalid, saveFile };
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
  it('a code other than "200" shows the server message and rejects', async () => {
    const { client, notifier } = harness(() => ({ data: { code: '401', message: '用户名或密码错误', data: null } }));
    const error = await client.call('auth.login', { loginName: 'x', password: 'y' }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect(error).toMatchObject({ kind: 'business', code: '401', message: '用户名或密码错误' });
    expect(notifier.error).toHaveBeenCalledTimes(1);
    expect(notifier.error).toHaveBeenCalledWith('用户名或密码错误');
  });

  it('"301" goes to /login with 用户失效，请重新登录 once, however many calls fail together', async () => {
    const { client, notifier, onSessionInvalid } = harness(() => ({ data: { code: '301', message: 'token失效' } }));
    const results = await Promise.allSettled([client.call('auth.init'), client.call('dict.tree'), client.call('resource.menu.list')]);
    expect(results.every((r) => r.status === 'rejected' && (r.reason as ApiError).kind === 'session')).toBe(true);
    expect(notifier.error).toHaveBeenCalledTimes(1);
    expect(notifier.error).toHaveBeenCalledWith('用户失效，请重新登录');
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
    const { client, notifier } = harness((config) => {
      throw new AxiosError('Network Error', 'ERR_NETWORK', config);
    });
    await expect(client.call('auth.init')).rejects.toMatchObject({ kind: 'network', message: '系统错误，请联系管理员' });
    expect(notifier.error).toHaveBeenCalledWith('系统错误，请联系管理员');
  });

  it('an HTTP error status without an envelope is a system error too', async () => {
    const { client, notifier } = harness(() => ({ status: 502, data: '<html>Bad Gateway</html>' }));
    await expect(client.call('auth.init')).rejects.toMatchObject({ kind: 'network' });
    expect(notifier.error).toHaveBeenCalledWith('系统错误，请联系管理员');
  });

  it('a silent call (background polling) rejects without a message, but "301" still ends the session', async () => {
    const { client, notifier, onSessionInvalid } = harness(() => ({ data: { code: '500', message: '系统繁忙' } }));
    await expect(client.call('auth.wechat.login', { ticket: 't' }, { silent: true })).rejects.toMatchObject({ code: '500' });
    expect(notifier.error).not.toHaveBeenCalled();
    const expired = harness(() => ({ data: { code: '301' } }));
    await expect(expired.client.call('auth.init', {}, { silent: true })).rejects.toMatchObject({ kind: 'session' });
    expect(expired.onSessionInvalid).toHaveBeenCalledTimes(1);
    expect(onSessionInvalid).not.toHaveBeenCalled();
  });

  it('a cancelled call rejects without any message', async () => {
    const { client, notifier } = harness(() => {
      throw new CanceledError();
    });
    await expect(client.call('auth.init')).rejects.toMatchObject({ kind: 'cancelled' });
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
    const { client, saveFile, notifier } = harness(() => ({ data: body, headers: { 'content-type': 'application/json' } }));
    await expect(client.download('fixture.device.export')).rejects.toMatchObject({ code: '403' });
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
