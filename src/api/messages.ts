/** Error-catalogue texts of SPEC §8, word for word. */
export const SESSION_INVALID_MESSAGE = '用户失效，请重新登录';
export const SYSTEM_ERROR_MESSAGE = '系统错误，请联系管理员';
export const SUCCESS_CODE = '200';
export const SESSION_INVALID_CODE = '301';
/** SPEC §9: request timeout 100000 ms. */
export const REQUEST_TIMEOUT_MS = 100_000;
