import type { FastifyError, FastifySchemaValidationError } from 'fastify';
import { ApiFailure, MESSAGES } from './envelope';

function reasonOf(error: FastifySchemaValidationError): string {
  const limit = error.params.limit;
  switch (error.keyword) {
    case 'required':
      return '不能为空';
    case 'additionalProperties':
      return '是不允许的字段';
    case 'type':
      return `类型应为 ${String(error.params.type)}`;
    case 'maxLength':
    case 'maxItems':
      return `长度不能超过${String(limit)}`;
    case 'minLength':
    case 'minItems':
      return `长度不能少于${String(limit)}`;
    case 'minimum':
    case 'maximum':
      return '超出允许范围';
    case 'enum':
    case 'const':
      return '取值不在允许范围内';
    case 'pattern':
    case 'format':
      return '格式不正确';
    default:
      return '不合法';
  }
}

/** The field an ajv error is about, as the caller wrote it: `loginName`, `pageParam.pageSize`. */
export function fieldOf(error: FastifySchemaValidationError): string {
  const missing = error.params.missingProperty ?? error.params.additionalProperty;
  const segments = error.instancePath.split('/').filter(Boolean);
  if (typeof missing === 'string') segments.push(missing);
  if (segments[0] === 'param' && segments.length > 1) segments.shift();
  return segments.join('.') || '请求体';
}

/** "参数错误：loginName（长度不能超过64）" for the first schema violation. */
export function validationMessage(errors: readonly FastifySchemaValidationError[]): string {
  const [first] = errors;
  if (!first) return MESSAGES.badRequest;
  return `${MESSAGES.badRequest}：${fieldOf(first)}（${reasonOf(first)}）`;
}

const CLIENT_ERRORS: Record<string, string> = {
  FST_ERR_CTP_INVALID_JSON_BODY: '请求体不是合法的 JSON',
  FST_ERR_CTP_EMPTY_JSON_BODY: '请求体为空',
  FST_ERR_CTP_BODY_TOO_LARGE: '请求体过大',
  FST_ERR_CTP_INVALID_MEDIA_TYPE: '不支持的内容类型',
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: '请求长度不正确',
};

/**
 * Fastify's own rejections of a request (schema, JSON, size, media type) as a "400" failure;
 * null for anything else (a server fault).
 */
export function clientFailureOf(error: FastifyError): ApiFailure | null {
  if (error.validation) return new ApiFailure('400', validationMessage(error.validation));
  if (error.statusCode !== undefined && error.statusCode >= 400 && error.statusCode < 500) {
    const detail = CLIENT_ERRORS[error.code] ?? (error instanceof SyntaxError ? CLIENT_ERRORS.FST_ERR_CTP_INVALID_JSON_BODY : '请求不合法');
    return new ApiFailure('400', `${MESSAGES.badRequest}：${detail}`);
  }
  return null;
}

/** What a text field may not hold: PostgreSQL refuses U+0000 in text and jsonb (issue 18, finding 8). */
export const NUL_REASON = '不能包含空字符';

interface Visit {
  value: unknown;
  key: string;
  parent: Visit | null;
}

/** A field path as the caller wrote it (`param` dropped in front of a field of it). */
function fieldName(visit: Visit): string {
  const segments: string[] = [];
  for (let at: Visit | null = visit; at?.parent; at = at.parent) segments.unshift(at.key);
  if (segments[0] === 'param' && segments.length > 1) segments.shift();
  return segments.join('.') || '请求体';
}

/**
 * The first field of a parsed request (body or query) whose text holds a NUL character, written as
 * the caller wrote it (`loginName`, `pageParam.x`, `items.0.name`, `param` for a bare string
 * param); a property name with one names the object that holds it. Null when there is none.
 * Iterative, so a body nested as deep as JSON.parse allows cannot overflow the stack.
 */
export function nulFieldOf(request: unknown): string | null {
  const pending: Visit[] = [{ value: request, key: '', parent: null }];
  for (let visit = pending.pop(); visit; visit = pending.pop()) {
    const { value } = visit;
    if (typeof value === 'string') {
      if (value.includes('\u0000')) return fieldName(visit);
      continue;
    }
    if (value === null || typeof value !== 'object') continue;
    const entries = Array.isArray(value) ? value.map((item, index): [string, unknown] => [String(index), item]) : Object.entries(value);
    if (entries.some(([key]) => key.includes('\u0000'))) return fieldName(visit);
    // Pushed in reverse so that the first field in the body is the one named.
    for (let index = entries.length - 1; index >= 0; index -= 1) pending.push({ value: entries[index][1], key: entries[index][0], parent: visit });
  }
  return null;
}

/** "参数错误：loginName（不能包含空字符）" for a request with a NUL character in a text field. */
export function nulFailureOf(request: unknown): ApiFailure | null {
  const field = nulFieldOf(request);
  return field === null ? null : new ApiFailure('400', `${MESSAGES.badRequest}：${field}（${NUL_REASON}）`);
}
