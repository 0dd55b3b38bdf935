import { QueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import { FILE_PATH_PREFIX, FILE_URL_BATCH_MAX, FILE_URL_OPERATION, type FileUrlSource } from './filePaths';
// TanStack's hook as the data layer's other queries take it: one copy of it in the bundle, in the
// chunk the list pages load first (imported from the package here, it was split into a chunk of its own).
import { useQuery } from './queries';

/**
 * The urls of the platform's stored files (issue 30). The server serves a stored file only at a
 * url it gave the session for that one file (`/files/<path>?ticket=…`, server/domain/fileAccess.ts);
 * an `<img src>` cannot send the token header. Whatever shows stored files (image displays, HTML
 * with /files/ images, the upload list, the avatar) asks for the urls of the paths it shows here:
 * each path's url is kept in the data layer's cache (TanStack Query), and the paths asked for
 * together (within FILE_URL_GATHER_MS), by however many components, go to the server in one
 * system.file.ticket call. A url is used until shortly before it stops working, and asked for
 * again before then while it is shown; the urls of one session are never used by another.
 */

/** A url is asked for again this long before it stops working. */
export const FILE_URL_RENEWAL_MARGIN_MS = 5 * 60 * 1000;
/** A stored file's path (server/domain/files.ts STORED_FILE_PATH). */
const STORED_PATH = /^upload\/\d{4}\/\d{2}\/[0-9a-f]{32}\.(jpg|png|gif|webp|pdf|xlsx|svg)$/;
/** Urls that are not the platform's files: shown as they are. */
const FOREIGN_URL = /^(https?:|data:|blob:)/i;

/** The stored path a value names (`upload/…` or `/files/upload/…`), or null. */
export function storedPathOf(value: string): string | null {
  const path = value.startsWith(FILE_PATH_PREFIX) ? value.slice(FILE_PATH_PREFIX.length) : value;
  return STORED_PATH.test(path) ? path : null;
}

/** A path's url under the file path prefix, without a ticket. */
const plainUrlOf = (value: string) => (value.startsWith(FILE_PATH_PREFIX) ? value : `${FILE_PATH_PREFIX}${value.replace(/^\/+/, '')}`);

interface CachedUrl {
  /** null: the session may not read it (or there is no such file). */
  url: string | null;
  /** When it stops working (ms since 1970). */
  expiresAt: number;
}

interface Waiting {
  resolve: (answer: CachedUrl) => void;
  reject: (error: unknown) => void;
}

/**
 * How long the paths asked for are gathered before they are sent: what one page renders, however
 * its parts load (a lazily loaded display resumes in a later turn of the event loop), goes in one call.
 */
export const FILE_URL_GATHER_MS = 16;

/** The paths gathered for the next call, per source. */
const batches = new WeakMap<FileUrlSource, Map<string, Waiting[]>>();

async function send(source: FileUrlSource, batch: Map<string, Waiting[]>): Promise<void> {
  const paths = [...batch.keys()];
  for (let start = 0; start < paths.length; start += FILE_URL_BATCH_MAX) {
    const chunk = paths.slice(start, start + FILE_URL_BATCH_MAX);
    try {
      const answer = await source.fetch(chunk);
      const expiresAt = Date.parse(answer.expiresAt);
      for (const path of chunk) for (const waiting of batch.get(path) ?? []) waiting.resolve({ url: answer.urls[path] ?? null, expiresAt });
    } catch (error) {
      for (const path of chunk) for (const waiting of batch.get(path) ?? []) waiting.reject(error);
    }
  }
}

/** The url of one path, asked for together with every other path asked for within FILE_URL_GATHER_MS. */
function load(source: FileUrlSource, path: string): Promise<CachedUrl> {
  let batch = batches.get(source);
  if (!batch) {
    const started = new Map<string, Waiting[]>();
    batches.set(source, started);
    batch = started;
    setTimeout(() => {
      batches.delete(source);
      void send(source, started);
    }, FILE_URL_GATHER_MS);
  }
  const waiting = batch.get(path) ?? [];
  batch.set(path, waiting);
  return new Promise<CachedUrl>((resolve, reject) => waiting.push({ resolve, reject }));
}

/** How long a url that stops working at `expiresAt` may still be used: until the renewal margin before. */
const usableFor = (expiresAt: number | undefined) => (expiresAt === undefined ? 0 : Math.max(0, expiresAt - Date.now() - FILE_URL_RENEWAL_MARGIN_MS));

/** The urls of one component's paths, and when the first of them stops working. */
interface ShownUrls {
  urls: Record<string, string | null>;
  expiresAt: number;
}

/** The cache of a host that gives no source: nothing is ever asked into it. */
let idleQueries: QueryClient | null = null;

/**
 * The urls of `values` as they may be shown: a stored path's (as the server gave it to this
 * session; undefined while it is asked for, or when the session may not read it), an https,
 * data: or blob: url as it is, any other path under the file path prefix (SPEC §7; the server
 * stores nothing there, so it answers no such url). Without a source (a host that gives none) a
 * stored path's plain url, which only a public file answers.
 *
 * Each path's url is its own query of the cache (shared by every component that shows it); a
 * component's query gathers those of its paths, which is what it follows and renews.
 */
export function useFileUrls(source: FileUrlSource | undefined, values: readonly string[]): (value: string) => string | undefined {
  const valuesKey = values.join('\n');
  const paths = useMemo(
    () => [...new Set(valuesKey.split('\n').map(storedPathOf).filter((path): path is string => path !== null))].sort(),
    [valuesKey],
  );
  const holder = source?.holder() ?? '';
  const queries = source?.queries ?? (idleQueries ??= new QueryClient());
  const shown = useQuery<ShownUrls>(
    {
      queryKey: [FILE_URL_OPERATION, { paths, holder }],
      queryFn: async () => {
        if (!source) return { urls: {}, expiresAt: 0 };
        const each = await Promise.all(
          paths.map(async (path) => {
            const cached = await queries.fetchQuery<CachedUrl>({
              queryKey: [FILE_URL_OPERATION, { path, holder }],
              queryFn: () => load(source, path),
              staleTime: (query) => usableFor(query.state.data?.expiresAt),
              // A url that cannot be had shows as a missing picture, never as a message.
              meta: { handlesErrors: true },
            });
            return [path, cached] as const;
          }),
        );
        return { urls: Object.fromEntries(each.map(([path, cached]) => [path, cached.url])), expiresAt: Math.min(...each.map(([, cached]) => cached.expiresAt)) };
      },
      enabled: source !== undefined && paths.length > 0,
      meta: { handlesErrors: true },
      staleTime: (query) => usableFor(query.state.data?.expiresAt),
      // While shown, asked for again before they stop working (not after a failed call).
      refetchInterval: (query) => (query.state.data ? Math.max(usableFor(query.state.data.expiresAt), 1000) : false),
    },
    queries,
  );
  const urls = shown.data?.urls;
  return useMemo(
    () => (value: string) => {
      if (FOREIGN_URL.test(value)) return value;
      const path = storedPathOf(value);
      if (path === null) return value ? plainUrlOf(value) : undefined;
      if (!source) return plainUrlOf(path);
      return urls?.[path] ?? undefined;
    },
    [urls, source],
  );
}
