/** The response envelope and the error codes every client relies on (DESIGN.md, "The envelope"). */
export interface Envelope<T = unknown> {
  code: string;
  message: string;
  data: T | null;
}

export const MESSAGES = {
  success: '成功',
  sessionInvalid: '用户失效，请重新登录',
  badRequest: '参数错误',
  badCredentials: '用户名或密码错误',
  forbidden: '无权限访问',
  notFound: '接口不存在',
  tooFrequent: '操作过于频繁，请稍后再试',
  notImplemented: '该接口尚未实现',
  internal: '系统错误，请联系管理员',
} as const;

export type FailureCode = '301' | '400' | '401' | '403' | '404' | '409' | '423' | '429' | '500' | '501' | '503';

/** A business failure: answered with HTTP 200 and this code and message. */
export class ApiFailure extends Error {
  constructor(
    readonly code: FailureCode,
    message: string,
  ) {
    super(message);
    this.name = 'ApiFailure';
  }
}

export const fail = {
  session: () => new ApiFailure('301', MESSAGES.sessionInvalid),
  /** "400": `detail` is either a full sentence (旧密码错误) or, with `field`, the offending field. */
  badRequest: (detail: string) => new ApiFailure('400', detail),
  badField: (field: string) => new ApiFailure('400', `${MESSAGES.badRequest}：${field}`),
  credentials: () => new ApiFailure('401', MESSAGES.badCredentials),
  forbidden: (message: string = MESSAGES.forbidden) => new ApiFailure('403', message),
  notFound: (message: string) => new ApiFailure('404', message),
  conflict: (message: string) => new ApiFailure('409', message),
  tooFrequent: () => new ApiFailure('429', MESSAGES.tooFrequent),
  notImplemented: () => new ApiFailure('501', MESSAGES.notImplemented),
};

export function success<T>(data: T): Envelope<T> {
  return { code: '200', message: MESSAGES.success, data };
}

export function failure(error: ApiFailure): Envelope<null> {
  return { code: error.code, message: error.message, data: null };
}
