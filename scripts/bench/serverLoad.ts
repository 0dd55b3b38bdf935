// Load at 50 connections for 10 s against one operation (autocannon), and the row it gives.
import autocannon from 'autocannon';
import { loadavg } from 'node:os';
import { callApi, type BenchRow } from './common';

export const CONNECTIONS = 50;
export const DURATION_SECONDS = 10;
const WARM_UP_SECONDS = 2;

export interface LoadResult {
  requestsPerSecond: number;
  p50: number;
  p99: number;
  /** Answers that were not `{"code":"200"…}`, sockets that failed, requests past autocannon's 10 s timeout. */
  errors: number;
  /** The first failed answer's code and message, for the note. */
  firstError?: string;
}

/** Drives `path` with `body` for DURATION_SECONDS at CONNECTIONS connections; every answer's code is checked. */
export async function load(baseUrl: string, path: string, body: unknown, token: string, durationSeconds = DURATION_SECONDS): Promise<LoadResult> {
  let firstError: string | undefined;
  const result = await autocannon({
    url: `${baseUrl}/api${path}`,
    method: 'POST',
    connections: CONNECTIONS,
    duration: durationSeconds,
    headers: { 'content-type': 'application/json', token },
    body: JSON.stringify(body),
    // The platform answers HTTP 200 with its own code: a page that failed is `{"code":"500",…}`.
    verifyBody: (answer) => {
      const text = String(answer);
      const ok = text.startsWith('{"code":"200"');
      if (!ok && firstError === undefined) firstError = text.slice(0, 160);
      return ok;
    },
  });
  return {
    requestsPerSecond: Math.round(result.requests.average * 10) / 10,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx + result.mismatches,
    ...(firstError === undefined ? {} : { firstError: answerSummary(firstError) }),
  };
}

/** `{"code":"500","message":"…"` → `500 …`. */
function answerSummary(text: string): string {
  const code = /"code":"([^"]*)"/.exec(text)?.[1];
  const message = /"message":"([^"]*)"/.exec(text)?.[1];
  return code ? `${code} ${message ?? ''}`.trim() : text.slice(0, 80);
}

export interface LoadCase {
  /** The row's name before the world (`device/_page（在线、按最近上报排序、第 200 页）`). */
  name: string;
  path: string;
  body: unknown;
  /** p99 budget in ms; undefined = no budget. */
  budgetMs?: number;
}

/**
 * One load row: a probe call first (an operation that fails is a row with its code, not a
 * crash), a warm-up, then the load, then one more call of the same kind, which queues behind the requests
 * autocannon left in flight, so the next case starts on an idle server.
 */
export async function loadRow(baseUrl: string, token: string, item: LoadCase, world: string): Promise<BenchRow> {
  const name = `${item.name}，${CONNECTIONS} 连接 · ${world}`;
  const budget = item.budgetMs === undefined ? '' : `p99 ≤ ${item.budgetMs} ms`;
  try {
    const probe = await callApi(baseUrl, item.path, item.body, token);
    if (probe.code !== '200') return { group: '服务端', name, value: NaN, unit: 'ms p99', budget, withinBudget: item.budgetMs === undefined ? null : false, note: `接口失败：${probe.code} ${probe.message}` };
    // Two seconds of the same load first, not counted: the server's code and the database's
    // caches warm up on the first case after a start.
    await load(baseUrl, item.path, item.body, token, WARM_UP_SECONDS);
    await callApi(baseUrl, item.path, item.body, token).catch(() => undefined);
    // The machine's load just before: other work on it shows in every figure.
    const machineLoad = loadavg()[0].toFixed(1);
    const result = await load(baseUrl, item.path, item.body, token);
    await callApi(baseUrl, item.path, item.body, token).catch(() => undefined);
    const errors = result.errors ? `，${result.errors} 个错误${result.firstError ? `（${result.firstError}）` : ''}` : '';
    return {
      group: '服务端',
      name,
      value: result.p99,
      unit: 'ms p99',
      budget,
      withinBudget: item.budgetMs === undefined ? null : result.p99 <= item.budgetMs && result.errors === 0,
      note: `p50 ${result.p50} ms，${result.requestsPerSecond} 次/秒${errors}；开始时负载 ${machineLoad}`,
    };
  } catch (error) {
    return { group: '服务端', name, value: NaN, unit: 'ms p99', budget, withinBudget: item.budgetMs === undefined ? null : false, note: `失败：${errorText(error)}` };
  }
}

/** A failure in one line: its first, and the error line of a server's output when it quoted one. */
export function errorText(error: unknown): string {
  const lines = (error instanceof Error ? error.message : String(error)).split('\n').map((line) => line.trim());
  const cause = lines.slice(1).find((line) => /^(\w*Error|error)\b|Error:/.test(line));
  return [lines[0], cause].filter(Boolean).join(' ').slice(0, 240);
}
