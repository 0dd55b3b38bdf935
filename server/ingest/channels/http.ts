/**
 * The HTTP calls of the channel transports (the robots', the SMS provider's and WeChat's APIs):
 * one request, its answer read as JSON. What fails is said in Chinese without the address's query
 * (a robot's access_token, a WeChat token or secret ride in it), so the delivery log
 * (outbox_attempt.error) and the server log never hold one.
 */

export interface JsonAnswer {
  status: number;
  /** The body parsed as JSON; null when it is not JSON. */
  json: unknown;
}

export interface JsonRequest {
  method: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

/** The largest answer read: the providers answer a few hundred bytes. */
const MAX_ANSWER_BYTES = 64 * 1024;

function causeOf(error: unknown): string {
  const cause = error instanceof Error ? (error.cause as { code?: string; message?: string } | undefined) : undefined;
  return cause?.code ?? cause?.message ?? (error instanceof Error ? error.message : String(error));
}

function parsed(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return null;
  }
}

/** Sends the request and reads its answer; throws `无法连接<label>（host）：<cause>` when none came. */
export async function requestJson(url: URL, request: JsonRequest, signal: AbortSignal, label: string): Promise<JsonAnswer> {
  let response: Response;
  try {
    response = await fetch(url, { method: request.method, headers: request.headers, body: request.body, signal, redirect: 'error' });
  } catch (error) {
    if (signal.aborted) throw new Error(`${label}未在时限内应答`, { cause: error });
    throw new Error(`无法连接${label}（${url.host}）：${causeOf(error)}`, { cause: error });
  }
  const text = (await response.text()).slice(0, MAX_ANSWER_BYTES);
  return { status: response.status, json: parsed(text) };
}

/** A field of an answer object, when the answer is one. */
export function field(json: unknown, name: string): unknown {
  return typeof json === 'object' && json !== null ? (json as Record<string, unknown>)[name] : undefined;
}

/** The answer's text field, or ''. */
export function textField(json: unknown, name: string): string {
  const value = field(json, name);
  return typeof value === 'string' || typeof value === 'number' ? String(value) : '';
}
