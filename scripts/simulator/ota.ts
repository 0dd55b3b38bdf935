import { createHash } from 'node:crypto';
import type { CommandHandler } from './commands';

/**
 * The device side of firmware over the air (issue 31), as `npm run simulate` runs it and the tests
 * drive it: on an `ota` command (`{version, url, size, sha256, taskCode}`) the device downloads the
 * image in pieces with HTTP Range requests (a small device's buffer; a piece that breaks off is
 * asked for again from where it stopped), checks its size and SHA-256, installs it and reports
 * each step in its telemetry:
 *
 *   {"ota": {"taskCode": "OTA…", "state": "downloading", "progress": 40}}
 *   {"ota": {"taskCode": "OTA…", "state": "installing", "progress": 95}}
 *   {"ota": {"taskCode": "OTA…", "state": "succeeded", "progress": 100}, "firmwareVersion": "1.5.0"}
 *   {"ota": {"taskCode": "OTA…", "state": "failed", "progress": 40, "message": "固件校验失败：…"}}
 *
 * About 1 in 20 upgrades fails on purpose while installing (FAILURE_SHARE), with a message, so the
 * console shows both outcomes.
 */

/** What an `ota` command asks for. */
export interface OtaCommand {
  version: string;
  url: string;
  size: number;
  sha256: string;
  taskCode: string;
}

/** The share of upgrades the simulator fails on purpose. */
export const FAILURE_SHARE = 0.05;
export const SIMULATED_FAILURE = '模拟故障：写入 Flash 后校验失败，已回滚到原版本';

export interface OtaDevice {
  /** The firmware the device runs: the new version once an upgrade has installed ('' while the simulator does not know it). */
  firmwareVersion: string;
}

export interface OtaOptions {
  /** Publishes a report on the device's telemetry topic (resolves once the platform took it: QoS 1's PUBACK). */
  publish(report: Record<string, unknown>): Promise<void>;
  /** Random numbers in [0, 1) (the deliberate failures; tests make them repeatable). */
  random?: () => number;
  /** Bytes asked for in one Range request. */
  pieceBytes?: number;
  /** How long installing takes, in milliseconds. */
  installMs?: number;
  /** Tries of one piece before the download is given up. */
  pieceTries?: number;
  fetch?: typeof fetch;
}

/** The command's parameters when they are an `ota` command's; null otherwise. */
export function otaCommandOf(parameters: Readonly<Record<string, unknown>>): OtaCommand | null {
  const { version, url, size, sha256, taskCode } = parameters;
  if (typeof version !== 'string' || typeof url !== 'string' || typeof sha256 !== 'string' || typeof taskCode !== 'string') return null;
  if (typeof size !== 'number' || !Number.isSafeInteger(size) || size <= 0 || !/^[0-9a-f]{64}$/.test(sha256) || !/^https?:\/\//.test(url)) return null;
  return { version, url, size, sha256, taskCode };
}

class DownloadFailed extends Error {}

/** Why a request did not get an answer, as a device's log would say it: the host and the network's error code. */
function unreachable(url: string, error: unknown): string {
  const cause = (error as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const code = typeof cause?.code === 'string' ? cause.code : typeof cause?.message === 'string' ? cause.message : error instanceof Error ? error.message : String(error);
  return `固件下载失败：无法连接 ${new URL(url).host}（${code}）`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The piece of `url` from `start` on (Range: bytes=start-end): the bytes, checked against the Content-Range the server answered. */
async function fetchPiece(get: typeof fetch, url: string, start: number, end: number, total: number): Promise<Buffer> {
  const response = await get(url, { headers: { range: `bytes=${start}-${end}` } });
  if (response.status !== 206) {
    await response.body?.cancel();
    throw new DownloadFailed(`固件下载失败（HTTP ${response.status}）`);
  }
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(response.headers.get('content-range') ?? '');
  if (!range || Number(range[1]) !== start || Number(range[3]) !== total) throw new DownloadFailed('固件下载失败：服务器返回的分段与请求不符');
  return Buffer.from(await response.arrayBuffer());
}

/** Downloads the image piece by piece, telling `onProgress` the bytes received; a piece that breaks off is asked for again from where it stopped. */
async function download(command: OtaCommand, options: Required<Pick<OtaOptions, 'pieceBytes' | 'pieceTries' | 'fetch'>>, onProgress: (received: number) => Promise<void>): Promise<Buffer> {
  const pieces: Buffer[] = [];
  let received = 0;
  while (received < command.size) {
    const end = Math.min(command.size, received + options.pieceBytes) - 1;
    let piece: Buffer | null = null;
    for (let attempt = 1; piece === null; attempt += 1) {
      try {
        piece = await fetchPiece(options.fetch, command.url, received, end, command.size);
      } catch (error) {
        if (error instanceof DownloadFailed || attempt >= options.pieceTries) {
          throw error instanceof DownloadFailed ? error : new DownloadFailed(unreachable(command.url, error));
        }
        await sleep(200 * attempt);
      }
    }
    if (piece.length === 0) throw new DownloadFailed('固件下载失败：服务器返回了空的分段');
    pieces.push(piece);
    received += piece.length;
    await onProgress(received);
  }
  return Buffer.concat(pieces);
}

/**
 * Runs one upgrade to its end, reporting every step; resolves with the outcome once the last report
 * was taken. The device's firmwareVersion changes only when the image installed.
 */
export async function runOta(device: OtaDevice, command: OtaCommand, options: OtaOptions): Promise<'succeeded' | 'failed'> {
  const random = options.random ?? Math.random;
  const report = (state: string, progress: number, extra: Record<string, unknown> = {}, message?: string) =>
    options.publish({ ota: { taskCode: command.taskCode, state, progress, ...(message ? { message } : {}) }, ...extra });
  let progress = 0;
  const fail = async (message: string) => {
    await report('failed', progress, {}, message);
    return 'failed' as const;
  };
  await report('downloading', 0);
  let image: Buffer;
  try {
    image = await download(command, { pieceBytes: options.pieceBytes ?? 64 * 1024, pieceTries: options.pieceTries ?? 3, fetch: options.fetch ?? fetch }, async (received) => {
      // The download is 90 % of the way; a report every tenth of it.
      const next = Math.floor((received / command.size) * 90);
      if (Math.floor(next / 10) > Math.floor(progress / 10) || received === command.size) {
        progress = next;
        await report('downloading', progress);
      }
    });
  } catch (error) {
    return fail(error instanceof Error ? error.message : String(error));
  }
  if (image.length !== command.size) return fail(`固件校验失败：大小 ${image.length} 字节，应为 ${command.size} 字节`);
  const digest = createHash('sha256').update(image).digest('hex');
  if (digest !== command.sha256) return fail(`固件校验失败：SHA-256 不一致（下载 ${digest.slice(0, 12)}…，应为 ${command.sha256.slice(0, 12)}…）`);
  progress = 95;
  await report('installing', progress);
  await sleep(options.installMs ?? 3000);
  if (random() < FAILURE_SHARE) return fail(SIMULATED_FAILURE);
  device.firmwareVersion = command.version;
  await report('succeeded', 100, { firmwareVersion: command.version });
  return 'succeeded';
}

/** What each simulated device runs, and whether it is upgrading now (by the simulator's device object). */
const firmwareOf = new WeakMap<object, OtaDevice>();
const upgrading = new WeakSet<object>();

/**
 * The `ota` entry of the simulator's command handlers (commands.ts): the command is answered `ok`
 * at once (or `failed` when its parameters are not an upgrade's, or an upgrade is under way), and
 * the upgrade runs after the answer, reporting as it goes.
 */
export const otaCommandHandler: CommandHandler = (command, context) => {
  const ota = otaCommandOf(command.parameters);
  if (!ota) return { result: 'failed', message: '升级参数不完整' };
  if (upgrading.has(context.device)) return { result: 'failed', message: '正在升级中，请稍后再试' };
  const device = firmwareOf.get(context.device) ?? { firmwareVersion: '' };
  firmwareOf.set(context.device, device);
  upgrading.add(context.device);
  return {
    result: 'ok',
    message: `开始升级到 ${ota.version}`,
    after: () => {
      // Not waited for: the device goes on reporting and answering while it downloads.
      void runOta(device, ota, { publish: context.publish, random: context.random })
        .catch(() => 'failed')
        .finally(() => upgrading.delete(context.device));
    },
  };
};
