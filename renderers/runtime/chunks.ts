/** SPEC §9: a script chunk that has not loaded in 120 s has failed. */
export const CHUNK_LOAD_TIMEOUT_MS = 120_000;

/** SPEC §8: the name of a failed script chunk load (missing or timed out). */
export class ChunkLoadError extends Error {
  constructor(readonly reason: 'missing' | 'timeout', cause?: unknown) {
    super(reason === 'timeout' ? '页面资源加载超时' : '页面资源加载失败', { cause });
    this.name = 'ChunkLoadError';
  }
}

/** Wraps a dynamic import so that a failure or a time-out rejects with ChunkLoadError. */
export function loadChunk<T>(load: () => Promise<T>, timeoutMs = CHUNK_LOAD_TIMEOUT_MS): Promise<T> {
  return new Promise<T>((resolve, reject) => {
    const timer = setTimeout(() => reject(new ChunkLoadError('timeout')), timeoutMs);
    load().then(
      (module) => {
        clearTimeout(timer);
        resolve(module);
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(new ChunkLoadError('missing', error));
      },
    );
  });
}
