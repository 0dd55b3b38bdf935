// Every page operation a menu view calls (tests/support/menuLists.ts), with its default param and
// sort, at page 1 and page 200: one connection, one call after another, a p95 of each; and the
// PostgreSQL plans of the slowest, taken from the cluster's log through auto_explain.
import { readFileSync, statSync } from 'node:fs';
import { passwordOf, type MenuList } from '../../tests/support/menuLists';
import { callApi, median, percentile, type BenchRow } from './common';
import { errorText } from './serverLoad';

export const LIST_BUDGET_MS = 50;
export const PAGE_SIZE = 20;
export const PAGES = [1, 200] as const;
const WARM_UPS = 2;
const REPETITIONS = 20;
/** An operation whose warm-up took longer than this is repeated fewer times (the p95 is then the slowest of those). */
const SLOW_CALL_MS = 1000;
const SLOW_REPETITIONS = 5;

export interface ListTiming {
  operation: string;
  path: string;
  view: string;
  loginName: string;
  page: number;
  /** What the call sent (param, sort, paging): the plan capture repeats it. */
  body: unknown;
  reps: number;
  p50: number;
  p95: number;
  /** '200', or the first other code with its message. */
  code: string;
  message?: string;
  /** The `total` the page answered, when it did. */
  total?: number;
}

/** Access tokens of the demo logins, one login each. */
export class Logins {
  private readonly tokens = new Map<string, string>();
  constructor(private readonly baseUrl: string) {}

  async token(loginName: string): Promise<string> {
    const known = this.tokens.get(loginName);
    if (known) return known;
    const answer = await callApi<{ accessToken: string }>(this.baseUrl, '/auth/web/_login', { param: { loginName, password: passwordOf(loginName) } });
    if (answer.code !== '200') throw new Error(`登录 ${loginName} 失败：${answer.code} ${answer.message}`);
    this.tokens.set(loginName, answer.data.accessToken);
    return answer.data.accessToken;
  }
}

export const pageBody = (list: Pick<MenuList, 'param' | 'sortParamList'>, pageNumber: number) => ({
  pageParam: { pageNumber, pageSize: PAGE_SIZE },
  param: list.param,
  sortParamList: list.sortParamList,
});

async function timedCall(baseUrl: string, path: string, body: unknown, token: string): Promise<{ ms: number; code: string; message: string; total?: number }> {
  const started = performance.now();
  const answer = await callApi<{ total?: unknown } | null>(baseUrl, path, body, token);
  const ms = performance.now() - started;
  const total = answer.data && typeof answer.data === 'object' && typeof answer.data.total === 'number' ? answer.data.total : undefined;
  return { ms, code: answer.code, message: answer.message, ...(total === undefined ? {} : { total }) };
}

const round = (ms: number) => Math.round(ms * 10) / 10;

/** Times every list at page 1 and 200, sequentially on one connection. */
export async function timeLists(baseUrl: string, lists: readonly MenuList[], log: (line: string) => void): Promise<ListTiming[]> {
  const logins = new Logins(baseUrl);
  const timings: ListTiming[] = [];
  for (const [index, list] of lists.entries()) {
    for (const page of PAGES) {
      const body = pageBody(list, page);
      const base = { operation: list.operation, path: list.path, view: list.view, loginName: list.loginName, page, body };
      try {
        const token = await logins.token(list.loginName);
        let warm = 0;
        let failure: { code: string; message: string } | undefined;
        for (let i = 0; i < WARM_UPS; i += 1) {
          const call = await timedCall(baseUrl, list.path, body, token);
          warm = call.ms;
          if (call.code !== '200') failure ??= call;
        }
        // The last warm-up says how long a call takes once caches are warm.
        const reps = warm > SLOW_CALL_MS ? SLOW_REPETITIONS : REPETITIONS;
        const times: number[] = [];
        let total: number | undefined;
        for (let i = 0; i < reps; i += 1) {
          const call = await timedCall(baseUrl, list.path, body, token);
          times.push(call.ms);
          total = call.total;
          if (call.code !== '200') failure ??= call;
        }
        timings.push({
          ...base,
          reps,
          p50: round(median(times)),
          p95: round(percentile(times, 95)),
          code: failure?.code ?? '200',
          ...(failure ? { message: failure.message } : {}),
          ...(total === undefined ? {} : { total }),
        });
      } catch (error) {
        timings.push({ ...base, reps: 0, p50: NaN, p95: NaN, code: 'error', message: errorText(error) });
      }
    }
    if ((index + 1) % 10 === 0) log(`  列表 ${index + 1} / ${lists.length}`);
  }
  return timings;
}

export const listName = (timing: Pick<ListTiming, 'operation' | 'view' | 'page'>) => `${timing.operation}（${timing.view}）第 ${timing.page} 页`;

/** The slowest first (a failed call counts as slowest: it has no time to keep a budget with). */
export function slowest(timings: readonly ListTiming[], count: number): ListTiming[] {
  const key = (timing: ListTiming) => (timing.code !== '200' || Number.isNaN(timing.p95) ? Infinity : timing.p95);
  return [...timings].sort((a, b) => key(b) - key(a)).slice(0, count);
}

/** The summary row of one world: the slowest p95 and how many lists keep the budget. */
export function summaryRow(timings: readonly ListTiming[], world: string, listCount: number, budgetMs: number | undefined): BenchRow {
  const measured = timings.filter((timing) => timing.code === '200' && !Number.isNaN(timing.p95));
  const failed = timings.filter((timing) => timing.code !== '200');
  const within = measured.filter((timing) => timing.p95 <= (budgetMs ?? LIST_BUDGET_MS)).length;
  const worst = slowest(measured, 1)[0];
  const failures = failed.length ? `；${failed.length} 个失败（${[...new Set(failed.map((timing) => `${timing.operation} ${timing.code}`))].slice(0, 4).join('、')}）` : '';
  return {
    group: '服务端',
    name: `菜单列表（${listCount} 个分页接口 × 第 1、200 页），单连接 p95 最大值 · ${world}`,
    value: worst ? worst.p95 : NaN,
    unit: 'ms p95',
    budget: budgetMs === undefined ? '' : `每个 p95 ≤ ${budgetMs} ms`,
    withinBudget: budgetMs === undefined ? null : within === timings.length,
    note: `${within} / ${timings.length} ${budgetMs === undefined ? `个 ≤ ${LIST_BUDGET_MS} ms（此引擎无预算）` : '达标'}；p95 中位数 ${measured.length ? round(median(measured.map((timing) => timing.p95))) : '—'} ms；最慢 ${worst ? listName(worst) : '—'}${failures}`,
  };
}

/** Markdown table of every timing of one world (written to .bench/server-lists.md). */
export function timingsTable(world: string, timings: readonly ListTiming[]): string {
  const lines = [
    `### ${world}`,
    '',
    '| 接口 | 页面 | 登录 | 页 | p50 ms | p95 ms | 次数 | 总数 | 结果 |',
    '| --- | --- | --- | --- | --- | --- | --- | --- | --- |',
    ...timings.map(
      (timing) =>
        `| ${timing.operation} | ${timing.view} | ${timing.loginName} | ${timing.page} | ${timing.p50} | ${timing.p95} | ${timing.reps} | ${timing.total ?? ''} | ${timing.code === '200' ? '200' : `${timing.code} ${timing.message ?? ''}`} |`,
    ),
    '',
  ];
  return lines.join('\n');
}

// ---------------------------------------------------------------------------------------------
// Plans from the cluster log (auto_explain).

export interface LoggedPlan {
  durationMs: number;
  query: string;
  plan: string;
}

/** The length of the log now: plans logged after it belong to what runs next. */
export const logOffset = (logFile: string) => statSync(logFile).size;

/**
 * The auto_explain entries the cluster logged for `database` after `offset`. The log's prefix is
 * `%m [%p] %d `; a message's further lines start with a tab (PostgreSQL's stderr format).
 */
export function plansSince(logFile: string, offset: number, database: string): LoggedPlan[] {
  const text = readFileSync(logFile).subarray(offset).toString('utf8');
  const plans: LoggedPlan[] = [];
  let current: { durationMs: number; lines: string[] } | null = null;
  const finish = () => {
    if (!current) return;
    const firstPlanLine = current.lines.findIndex((line) => /\(cost=|\(actual time=|^\s*(->\s+)?\S.*\s\(never executed\)/.test(line));
    const split = firstPlanLine < 0 ? current.lines.length : firstPlanLine;
    const query = current.lines.slice(0, split).join('\n').replace(/^Query Text:\s*/, '').trim();
    plans.push({ durationMs: current.durationMs, query, plan: current.lines.slice(split).join('\n') });
    current = null;
  };
  for (const line of text.split('\n')) {
    if (line.startsWith('\t')) {
      current?.lines.push(line.slice(1));
      continue;
    }
    finish();
    const entry = new RegExp(`^\\S+ \\S+ \\S+ \\[\\d+\\] ${database} LOG:\\s+duration: ([\\d.]+) ms\\s+plan:`).exec(line);
    if (entry) current = { durationMs: Number(entry[1]), lines: [] };
  }
  finish();
  return plans;
}

interface PlanNode {
  depth: number;
  kind: string;
  relation?: string;
  index?: string;
  rows: number;
  loops: number;
  ms: number;
  detail: string[];
}

function planNodes(plan: string): PlanNode[] {
  const nodes: PlanNode[] = [];
  for (const raw of plan.split('\n')) {
    const node = /^(\s*)(?:->\s+)?([A-Z][A-Za-z -]*?)(?: using (\S+))?(?: on (\S+)(?: \S+)?)?\s+\(cost=[^)]*\)\s+\(actual time=[\d.]+\.\.([\d.]+) rows=(\d+) loops=(\d+)\)/.exec(raw);
    if (node) {
      nodes.push({ depth: node[1].length, kind: node[2].trim(), index: node[3], relation: node[4], ms: Number(node[5]), rows: Number(node[6]), loops: Number(node[7]), detail: [] });
      continue;
    }
    const last = nodes.at(-1);
    if (last && /^\s+(Sort Method|Rows Removed by Filter|Heap Fetches|Filter|Index Cond|Sort Key):/.test(raw)) last.detail.push(raw.trim());
  }
  return nodes;
}

/**
 * The plan's key nodes in one line for the table: the top node and its time, then every
 * sequential scan, sort, node run in a loop of 100 or more, and node that reads 10,000 rows or
 * more, biggest first.
 */
export function planSummary(plan: string): string {
  const nodes = planNodes(plan);
  if (!nodes.length) return '（无计划）';
  const describe = (node: PlanNode) => {
    const target = node.relation ? ` ${node.relation}` : node.index ? ` ${node.index}` : '';
    const via = node.relation && node.index ? `（${node.index}）` : '';
    const loops = node.loops > 1 ? ` ×${node.loops} 次` : '';
    const sortMethod = node.detail.find((line) => line.startsWith('Sort Method'))?.replace('Sort Method: ', '');
    const removed = node.detail.find((line) => line.startsWith('Rows Removed by Filter'))?.replace('Rows Removed by Filter: ', '滤掉 ');
    const extras = [sortMethod, removed].filter(Boolean).join('，');
    return `${node.kind}${target}${via} ${node.rows} 行${loops}${extras ? `（${extras}）` : ''}`;
  };
  const top = nodes[0];
  /** Rows a node read: what it kept and what its filter removed, in every loop. */
  const read = (node: PlanNode) => (node.rows + Number(/(\d+)/.exec(node.detail.find((line) => line.startsWith('Rows Removed by Filter')) ?? '')?.[1] ?? 0)) * node.loops;
  const notable = nodes
    .slice(1)
    .filter((node) => (/Seq Scan|Sort/.test(node.kind) && read(node) >= 1000) || node.loops >= 100 || read(node) >= 10_000)
    .sort((a, b) => read(b) - read(a));
  const described = [...new Set(notable.map(describe))].slice(0, 4);
  const jit = /^JIT:/m.test(plan) ? '；JIT' : '';
  return `${describe(top)} ${round(top.ms)} ms${described.length ? `；${described.join('；')}` : ''}${jit}`;
}
