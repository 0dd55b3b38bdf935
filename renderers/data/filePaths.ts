import type { QueryClient } from '@tanstack/react-query';

/**
 * Where the platform's stored files are served and where their urls come from (renderers/data/fileUrls.ts
 * asks for them): constants and types only, so that the console's first paint can name a source
 * without downloading the code that asks.
 */

/** Where the platform serves its stored files (SPEC §7: when the url lacks https). */
export const FILE_PATH_PREFIX = '/files/';
/** The operation that answers the urls of stored paths. */
export const FILE_URL_OPERATION = 'system.file.ticket';
/** The most paths one call takes (server/operations/frame/files.ts FILE_URL_BATCH_MAX). */
export const FILE_URL_BATCH_MAX = 200;

/** What system.file.ticket answers. */
export interface FileUrlAnswer {
  /** The url of each path the session may read; the others are left out. */
  urls: Partial<Record<string, string>>;
  /** When the urls stop working (ISO 8601). */
  expiresAt: string;
}

/** Where the console gets file urls from (src/format/fileTicket.ts). */
export interface FileUrlSource {
  /** The cache the urls are kept in (the console's one). */
  queries: QueryClient;
  /** The urls of stored paths, in one call for all of them. */
  fetch(paths: string[]): Promise<FileUrlAnswer>;
  /** Whose urls they are (the session: its access token): another holder asks again. */
  holder(): string;
}
