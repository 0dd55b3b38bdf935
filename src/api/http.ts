import type { AxiosAdapter, AxiosInstance, AxiosProgressEvent, AxiosResponse, AxiosStatic, RawAxiosRequestHeaders } from 'axios';
import type { OperationKind, OperationSpec } from './catalogue';
import {
  REQUEST_TIMEOUT_MS,
  SESSION_INVALID_CODE,
  SESSION_INVALID_MESSAGE,
  SUCCESS_CODE,
  SYSTEM_ERROR_MESSAGE,
} from './messages';
import type { PageRequest, PageResult, SortParam } from '../../renderers/services';
import { DataError, type DataErrorKind } from '../../renderers/data/errors';

/** The response envelope the platform answers with (DESIGN.md, "The envelope"). */
export interface Envelope<T = unknown> {
  code: string;
  message?: string;
  data: T;
  /** With code "500": the platform's id of the request (its logs name it). */
  requestId?: string;
}

// The paging types are the renderer's data-provider contract; this client implements it.
export type { PageRequest, PageResult, SortParam } from '../../renderers/services';

export type ApiErrorKind = DataErrorKind;

/**
 * Every rejected call rejects with a DataError (renderers/data/errors.ts) and the client tells
 * nobody: what the user is told is the data layer's policy (the caches' onError; reportFailure for
 * a call made outside the cache). The one exception is the session: a "301" ends it once through
 * `onSessionInvalid`, however many calls fail together. `ApiError` is its older name.
 */
export { DataError, DataError as ApiError };

export interface CallOptions {
  signal?: AbortSignal;
}

export interface TransferOptions extends CallOptions {
  onProgress?: (fraction: number | null, loadedBytes: number) => void;
}

export interface DownloadResult {
  fileName: string;
  size: number;
}

export interface HttpClientDeps {
  /** Called once for a burst of "301" answers: say 用户失效，请重新登录, clear the session, go to /login. */
  onSessionInvalid: () => void;
  /** The `token` and `orgCode` headers, read from session storage at each call. */
  readHeader: (name: 'token' | 'orgCode') => string | null;
  /**
   * Renewing an expired access token (#9): the stored refresh token, and where a renewed pair is
   * kept. Without them a "301" ends the session at once.
   */
  readRefreshToken?: () => string | null;
  storeTokens?: (tokens: RenewedTokens) => void;
  baseURL?: string;
  /** Replaces the network transport (tests). */
  adapter?: AxiosAdapter;
  /**
   * Told whether the platform answered: true for any response (whatever its status), false when a
   * call got none (the network or the server is gone; not for a cancelled call).
   */
  onReachability?: (reachable: boolean) => void;
  /** Saves a downloaded file; the default clicks a temporary link. */
  saveFile?: (blob: Blob, fileName: string) => void;
  /** Resolves an operation name; the default is the catalogue `schemas/operations.json`. */
  resolveOperation?: (name: string) => OperationSpec;
}

/** What auth.refresh answers. */
export interface RenewedTokens {
  accessToken: string;
  refreshToken: string;
}

/** The operation that renews an access token with the refresh token. */
export const RENEW_OPERATION = 'auth.refresh';

export interface HttpClient {
  /** kind `call` (or `get`): resolves the envelope's `data`. */
  call<T = unknown>(operation: string, param?: unknown, options?: CallOptions): Promise<T>;
  /** kind `page`: server pagination and sorting. */
  page<T = unknown>(
    operation: string,
    pageParam: PageRequest,
    param?: unknown,
    sortParamList?: SortParam[],
    options?: CallOptions,
  ): Promise<PageResult<T>>;
  /** kind `blob`: the file is saved under the server's file name. */
  download(operation: string, param?: unknown, options?: TransferOptions): Promise<DownloadResult>;
  /** kind `upload`: multipart with field `file`; resolves the envelope's `data`. */
  upload<T = unknown>(operation: string, file: Blob, fileName: string, options?: TransferOptions): Promise<T>;
  /** After a successful login, a later "301" is announced again. */
  resetSessionLatch(): void;
}

function isEnvelope(body: unknown): body is Envelope {
  return typeof body === 'object' && body !== null && 'code' in body && (body as { code: unknown }).code !== undefined;
}

function expectKind(name: string, spec: OperationSpec, kinds: OperationKind[]): void {
  if (!kinds.includes(spec.kind)) {
    throw new Error(`接口操作 ${name} 的类型是 ${spec.kind}，不能按 ${kinds.join('/')} 调用`);
  }
}

/** File name from Content-Disposition (RFC 6266: filename* wins over filename). */
export function fileNameFromDisposition(header: string | undefined | null, fallback: string): string {
  if (!header) return fallback;
  const extended = /filename\*\s*=\s*(?:UTF-8|utf-8)''([^;]+)/.exec(header);
  if (extended) {
    try {
      return decodeURIComponent(extended[1].trim().replace(/^"|"$/g, ''));
    } catch (error) {
      if (!(error instanceof URIError)) throw error;
      /* a malformed escape: fall through to the plain name */
    }
  }
  const plain = /filename\s*=\s*("([^"]*)"|[^;]+)/.exec(header);
  if (plain) return (plain[2] ?? plain[1]).trim();
  return fallback;
}

function saveWithLink(blob: Blob, fileName: string): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  document.body.appendChild(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

function progressOf(event: AxiosProgressEvent): number | null {
  return event.total ? Math.min(1, event.loaded / event.total) : null;
}

export function createHttpClient(deps: HttpClientDeps): HttpClient {
  // axios is loaded with the first request, not with the page: the sign-in page paints without it
  // (issue 8's first-paint budget). A load that fails is tried again by the next request.
  let axiosLib: AxiosStatic | null = null;
  let instanceReady: Promise<AxiosInstance> | null = null;
  function http(): Promise<AxiosInstance> {
    instanceReady ??= import('axios')
      .then(({ default: axios }) => {
        axiosLib = axios;
        const instance = axios.create({
          baseURL: deps.baseURL ?? '/api',
          timeout: REQUEST_TIMEOUT_MS,
          withCredentials: true,
          adapter: deps.adapter,
        });
        instance.interceptors.response.use(
          (response) => {
            deps.onReachability?.(true);
            return response;
          },
          (error: unknown) => {
            if (!axios.isCancel(error)) deps.onReachability?.(axios.isAxiosError(error) && error.response !== undefined);
            return Promise.reject(error);
          },
        );
        return instance;
      })
      .catch((error: unknown) => {
        // The code could not be fetched: the platform is out of reach, as for a failed request.
        deps.onReachability?.(false);
        instanceReady = null;
        throw error;
      });
    return instanceReady;
  }
  // The catalogue (500 operations' paths, 5.5 KiB gzip) comes with the first request too, fetched
  // beside axios: no page paints a call's answer before both are in.
  let catalogueReady: Promise<(name: string) => OperationSpec> | null = null;
  function resolver(): Promise<(name: string) => OperationSpec> {
    if (deps.resolveOperation) return Promise.resolve(deps.resolveOperation);
    catalogueReady ??= import('./catalogue')
      .then(({ findOperation }) => findOperation)
      .catch((error: unknown) => {
        deps.onReachability?.(false);
        catalogueReady = null;
        throw error;
      });
    return catalogueReady;
  }
  /** The operation's spec, of one of the kinds its caller makes; an unknown name is a programming error. */
  async function operation(name: string, kinds: OperationKind[]): Promise<OperationSpec> {
    let find: (name: string) => OperationSpec;
    try {
      [find] = await Promise.all([resolver(), http()]);
    } catch (error) {
      return fail(error);
    }
    const spec = find(name);
    expectKind(name, spec, kinds);
    return spec;
  }
  let sessionLatched = false;

  function headers(): RawAxiosRequestHeaders {
    const result: RawAxiosRequestHeaders = {};
    const token = deps.readHeader('token');
    const orgCode = deps.readHeader('orgCode');
    if (token) result.token = token;
    if (orgCode) result.orgCode = orgCode;
    return result;
  }

  /**
   * SPEC §8: "200" resolves; "301" ends the session once; any other code rejects with the message
   * the user is to be told (the data layer tells it).
   */
  function settle(body: unknown): unknown {
    if (!isEnvelope(body)) return body;
    const code = String(body.code);
    if (code === SUCCESS_CODE) return body.data;
    if (code === SESSION_INVALID_CODE) {
      if (!sessionLatched) {
        sessionLatched = true;
        deps.onSessionInvalid();
      }
      throw new DataError('session', code, SESSION_INVALID_MESSAGE, body.data);
    }
    // A fault of the platform names its request, so the user can quote it to the operator.
    const requestId = code === '500' && typeof body.requestId === 'string' ? body.requestId : undefined;
    const quoted = requestId ? `（请求编号 ${requestId.slice(0, 8)}）` : '';
    throw new DataError('business', code, `${body.message || SYSTEM_ERROR_MESSAGE}${quoted}`, body.data, requestId);
  }

  function fail(error: unknown): never {
    if (error instanceof DataError) throw error;
    if (axiosLib?.isCancel(error)) throw new DataError('cancelled', null, '请求已取消');
    // A server that answers an error status with an envelope is still speaking the protocol.
    const response = axiosLib?.isAxiosError(error) ? error.response : undefined;
    if (response && isEnvelope(response.data)) settle(response.data);
    throw new DataError('network', null, SYSTEM_ERROR_MESSAGE);
  }

  /** One renewal at a time: every call that meets an expired token waits for the same one. */
  let renewal: Promise<boolean> | null = null;

  function renewTokens(): Promise<boolean> {
    renewal ??= (async () => {
      const refreshToken = deps.readRefreshToken?.();
      if (!refreshToken || !deps.storeTokens) return false;
      try {
        const spec = (await resolver())(RENEW_OPERATION);
        const response = await (await http()).post(spec.path, { param: { refreshToken } });
        const body: unknown = response.data;
        if (!isEnvelope(body) || String(body.code) !== SUCCESS_CODE) return false;
        deps.storeTokens(body.data as RenewedTokens);
        return true;
      } catch {
        return false;
      }
    })().finally(() => {
      renewal = null;
    });
    return renewal;
  }

  async function answersSessionInvalid(data: unknown): Promise<boolean> {
    const body = data instanceof Blob && /json/i.test(data.type) ? await envelopeFromBlob(data) : data;
    return isEnvelope(body) && String(body.code) === SESSION_INVALID_CODE;
  }

  /**
   * Sends a request; when it was made with an access token and answers "301", renews the token
   * (once, shared by every call waiting) and sends it again with the new one. A call whose token
   * was already renewed meanwhile is simply sent again. If renewal fails, the "301" stands.
   */
  async function withRenewal<T>(request: () => Promise<AxiosResponse<T>>): Promise<AxiosResponse<T>> {
    const usedToken = deps.readHeader('token');
    const response = await request();
    if (!usedToken || !(await answersSessionInvalid(response.data))) return response;
    if (deps.readHeader('token') !== usedToken || (await renewTokens())) return request();
    return response;
  }

  async function send(spec: OperationSpec, body: unknown, options: CallOptions | undefined): Promise<unknown> {
    try {
      const instance = await http();
      const response = await withRenewal(() =>
        spec.kind === 'get'
          ? instance.get(spec.path, { params: body, headers: headers(), signal: options?.signal })
          : instance.post(spec.path, body, { headers: headers(), signal: options?.signal }),
      );
      return settle(response.data);
    } catch (error) {
      return fail(error);
    }
  }

  async function envelopeFromBlob(blob: Blob): Promise<unknown> {
    try {
      return JSON.parse(await blob.text()) as unknown;
    } catch (error) {
      if (!(error instanceof SyntaxError)) throw error;
      return undefined;
    }
  }

  return {
    async call<T>(name: string, param: unknown = {}, options?: CallOptions): Promise<T> {
      const spec = await operation(name, ['call', 'get']);
      return (await send(spec, spec.kind === 'get' ? param : { param }, options)) as T;
    },

    async page<T>(
      name: string,
      pageParam: PageRequest,
      param: unknown = {},
      sortParamList: SortParam[] = [],
      options?: CallOptions,
    ): Promise<PageResult<T>> {
      const spec = await operation(name, ['page']);
      return (await send(spec, { pageParam, param, sortParamList }, options)) as PageResult<T>;
    },

    async download(name: string, param: unknown = {}, options?: TransferOptions): Promise<DownloadResult> {
      const spec = await operation(name, ['blob']);
      let response: AxiosResponse<Blob>;
      try {
        const instance = await http();
        response = await withRenewal(() =>
          instance.post<Blob>(
            spec.path,
            { param },
            {
              headers: headers(),
              responseType: 'blob',
              signal: options?.signal,
              onDownloadProgress: (event) => options?.onProgress?.(progressOf(event), event.loaded),
            },
          ),
        );
      } catch (error) {
        const blob = axiosLib?.isAxiosError(error) ? (error.response?.data as Blob | undefined) : undefined;
        if (blob instanceof Blob) {
          const body = await envelopeFromBlob(blob);
          if (isEnvelope(body)) settle(body);
        }
        return fail(error);
      }
      const blob = response.data;
      // An export that fails answers with an envelope instead of a file.
      if (/json/i.test(blob.type || String(response.headers['content-type'] ?? ''))) {
        const body = await envelopeFromBlob(blob);
        if (isEnvelope(body)) settle(body);
      }
      const disposition = response.headers['content-disposition'] as string | undefined;
      const fileName = fileNameFromDisposition(disposition, `${spec.title ?? name}.xlsx`);
      (deps.saveFile ?? saveWithLink)(blob, fileName);
      return { fileName, size: blob.size };
    },

    async upload<T>(name: string, file: Blob, fileName: string, options?: TransferOptions): Promise<T> {
      const spec = await operation(name, ['upload']);
      const form = new FormData();
      form.append('file', file instanceof File ? file : new File([file], fileName, { type: file.type }), fileName);
      try {
        const instance = await http();
        const response = await withRenewal(() =>
          instance.post(spec.path, form, {
            headers: headers(),
            signal: options?.signal,
            onUploadProgress: (event) => options?.onProgress?.(progressOf(event), event.loaded),
          }),
        );
        return settle(response.data) as T;
      } catch (error) {
        return fail(error);
      }
    },

    resetSessionLatch(): void {
      sessionLatched = false;
    },
  };
}
