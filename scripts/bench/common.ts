import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import { extname, join, normalize } from 'node:path';
import { gzipSync } from 'node:zlib';

export const root = new URL('../..', import.meta.url).pathname;
export const benchDir = join(root, '.bench');
export const bin = (name: string) => join(root, 'node_modules/.bin', name);

const TYPES: Record<string, string> = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.css': 'text/css' };

/** Serves built benchmark pages (`.bench/app` unless told) on a loopback port. */
export function serveBenchApp(dir = join(benchDir, 'app')): Promise<{ server: Server; url: string }> {
  const server = createServer((request, response) => {
    const path = normalize(new URL(request.url ?? '/', 'http://x').pathname).replace(/^(\.\.[/\\])+/, '');
    const file = join(dir, path === '/' ? 'index.html' : path);
    if (!file.startsWith(dir) || !existsSync(file)) {
      response.writeHead(404).end();
      return;
    }
    response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(readFileSync(file));
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      resolve({ server, url: `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}` });
    }),
  );
}

/** One row of the benchmark table. */
export interface BenchRow {
  group: string;
  name: string;
  /** The measured figure in `unit`. */
  value: number;
  unit: string;
  /** The budget or goal, as text (≤ 250 KiB, ratio ≤ 1.1 …); empty when there is none. */
  budget: string;
  /** Whether the figure keeps its budget; null when there is none. */
  withinBudget: boolean | null;
  /** The hand-written baseline measured in the same run, when there is one. */
  baseline?: number;
  note?: string;
}

export const kib = (bytes: number) => Math.round((bytes / 1024) * 10) / 10;
export const gzipBytes = (path: string) => gzipSync(readFileSync(path), { level: 9 }).length;

export function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2;
}

export function percentile(values: readonly number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}

export interface RunningServer {
  process: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the READY line. */
  readyAfterMs: number;
  stop(): Promise<void>;
}

/**
 * Starts the reference server and resolves when it prints READY. It runs as one Node process
 * (`node --import tsx`), so its resident memory is the server's own.
 */
export function startServer(args: readonly string[], timeoutMs = 600_000, env: Readonly<Record<string, string | undefined>> = {}): Promise<RunningServer> {
  return startUntilReady(['--import', 'tsx', 'server/main.ts', ...args], timeoutMs, env);
}

/**
 * Runs `node <args>` until it prints the server's READY line. `env` is laid over this process's
 * environment; a variable given as undefined is removed (a DATABASE_URL in the shell, say).
 */
export function startUntilReady(args: readonly string[], timeoutMs = 600_000, env: Readonly<Record<string, string | undefined>> = {}): Promise<RunningServer> {
  const started = Date.now();
  const childEnv: NodeJS.ProcessEnv = { ...process.env, FORCE_COLOR: '0' };
  for (const [name, value] of Object.entries(env)) {
    if (value === undefined) delete childEnv[name];
    else childEnv[name] = value;
  }
  const child = spawn(process.execPath, args, { cwd: root, stdio: ['ignore', 'pipe', 'pipe'], env: childEnv });
  return new Promise((resolve, reject) => {
    let output = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`server not ready after ${timeoutMs} ms:\n${output.slice(-2000)}`));
    }, timeoutMs);
    const onData = (chunk: Buffer) => {
      output += chunk.toString();
      const ready = /READY (http:\/\/\S+)/.exec(output);
      if (ready) {
        clearTimeout(timer);
        child.stdout?.off('data', onData);
        child.stdout?.resume();
        child.stderr?.resume();
        resolve({
          process: child,
          url: ready[1],
          readyAfterMs: Date.now() - started,
          stop: () =>
            new Promise<void>((done) => {
              if (child.exitCode !== null) return done();
              child.once('exit', () => done());
              child.kill('SIGTERM');
              setTimeout(() => child.kill('SIGKILL'), 10_000).unref();
            }),
        });
      }
    };
    child.stdout?.on('data', onData);
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`server exited (${code}) before READY:\n${output.slice(-2000)}`));
    });
  });
}

/** Resident memory of a process in MiB (Linux /proc). */
export function residentMiB(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0);
  return Math.round(kb / 1024);
}

/** Calls an operation over HTTP as the console does. */
export async function callApi<T>(baseUrl: string, path: string, body: unknown, token?: string): Promise<{ code: string; message: string; data: T }> {
  const response = await fetch(`${baseUrl}/api${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...(token ? { token } : {}) },
    body: JSON.stringify(body),
  });
  return (await response.json()) as { code: string; message: string; data: T };
}
