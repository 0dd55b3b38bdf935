import type { QueryClient } from '@tanstack/react-query';
import { createContext, useContext, type ComponentType } from 'react';
import type { FileUrlSource } from './data/filePaths';
import type { DashboardWidget } from './schema/types';
import type { StateColour } from './schema/actionTypes';

/**
 * What the renderer needs from the console, as small typed interfaces (react-admin's providers):
 * the console shell (src/) implements them; the renderer never imports the shell.
 */
export interface PageRequest {
  pageNumber: number;
  pageSize: number;
}

export interface SortParam {
  field: string;
  order: 'asc' | 'desc';
}

export interface PageResult<T> {
  records: T[];
  /** The rows of the whole list; an estimate when `totalAtLeast` is given. */
  total: number;
  pageNumber: number;
  pageSize: number;
  /**
   * A list longer than the server counts exactly: the rows it counted (shown as 共 10,000+ 条),
   * while `total`, the database's estimate, sizes the pager.
   */
  totalAtLeast?: number;
}

export interface TransferOptions {
  signal?: AbortSignal;
  onProgress?: (fraction: number | null, loadedBytes: number) => void;
}

export interface DataProvider {
  call<T = unknown>(operation: string, param?: unknown, options?: { signal?: AbortSignal }): Promise<T>;
  page<T = unknown>(operation: string, pageParam: PageRequest, param?: unknown, sort?: SortParam[], options?: { signal?: AbortSignal }): Promise<PageResult<T>>;
  download(operation: string, param?: unknown, options?: TransferOptions): Promise<{ fileName: string; size: number }>;
  upload<T = unknown>(operation: string, file: Blob, fileName: string, options?: TransferOptions): Promise<T>;
}

export interface DictionaryProvider {
  /** The label of a value, 未知 when the dictionary does not know it. */
  label(dictType: string, value: unknown): string;
  /** The colour the value's dictionary item carries (schemas/dictionaries.json), `default` when it carries none (or the provider knows no colours). */
  colour?(dictType: string, value: unknown): StateColour;
  options(dictType: string): Array<{ value: string; label: string }>;
}

export interface NotificationProvider {
  success(text: string): void;
  error(text: string): void;
  warning(text: string): void;
  info(text: string): void;
}

/** What a dashboard widget the console registers is given: its schema entry and its operation's answer. */
export interface DashboardWidgetProps {
  widget: DashboardWidget;
  /** The answer of the widget's operation (loading and failure are the card's). */
  data: unknown;
  /** The route's params. */
  params: Readonly<Record<string, unknown>>;
}

/** What an action of the console's own gets: its params resolved, and where it runs. */
export interface ActionContext {
  /** The scope the action ran in (params, record, values, selection, user; result in a chain). */
  scope: Readonly<Record<string, unknown>>;
  services: RendererServices;
  /** Reloads the page's data. */
  refresh: () => void;
}

/** An action of the console's own; its answer (or what it resolves to) is a chain's `result`. */
export type ActionHandler = (params: Record<string, unknown>, context: ActionContext) => unknown;

/** An event of the platform's live stream, as the renderer sees it (src/live/liveEvents.ts). */
export interface LiveNotice {
  id: string;
  kind: string;
  payload: Readonly<Record<string, unknown>>;
  at: string;
}

/** The console's live stream: subscribe answers the unsubscribe. */
export interface LiveFeed {
  subscribe(listener: (event: LiveNotice) => void): () => void;
}

/** A named validator: an error message, or undefined when the value is valid. */
export type NamedValidator = (value: unknown, values: Record<string, unknown>) => string | undefined;

export interface RendererServices {
  /**
   * Calls made outside the cache (an action's call, a form's submit, a download, an upload): a
   * failure is told to the user by the provider (the console gives its client through
   * renderers/data/policy.ts `reportingProvider`).
   */
  data: DataProvider;
  /**
   * The platform's calls as they are, telling nobody: what the data layer's queries and mutations
   * call, whose cache's `onError` tells (renderers/data/queryClient.ts). Without it they call `data`.
   */
  transport?: DataProvider;
  dictionaries: DictionaryProvider;
  notify: NotificationProvider;
  /** The current route's button list (resource urls); embedded routes pass their normal route's. */
  buttons: readonly string[];
  navigate(to: string): void;
  validators: Readonly<Record<string, NamedValidator>>;
  /** Named text formats: count, duration, phone, datetime, date, money, percent (SPEC §5, §9). */
  formats: Readonly<Record<string, (value: unknown) => string>>;
  /**
   * Where the urls of the platform's stored files come from (renderers/data/fileUrls.ts): the
   * server serves a stored file only at a url it gave the session for it. A host that gives none
   * (the benchmark pages) shows stored files at their plain url, which only a public file answers.
   */
  files?: FileUrlSource;
  /**
   * Subscribes to the platform coming back after the network was lost (answers the unsubscribe):
   * a page whose load failed meanwhile loads again.
   */
  reconnected?(listener: () => void): () => void;
  /**
   * The cache of the platform's answers (TanStack Query), one for the whole console: a change made
   * on one page tab refreshes what every other open tab shows of it. A host that gives none (the
   * benchmark pages) gets one per data provider (renderers/data/queryClient.ts).
   */
  queries?: QueryClient;
  /**
   * Dashboard widget types the console adds to the renderer's own (statistic, line, bar, pie,
   * gauge, table): a page's widget `type` names one, the card loads its operation and hands it the
   * answer. `npm run check` knows them through src/renderer/widgets.tsx.
   */
  widgets?: Readonly<Record<string, ComponentType<DashboardWidgetProps>>>;
  /**
   * Actions the console adds (`{"type": "map.locate", "params": …}`: a name with a dot): what a page's button or chain step
   * runs besides the renderer's own kinds. `npm run check` knows them through src/renderer/actions.ts.
   */
  actions?: Readonly<Record<string, ActionHandler>>;
  /**
   * The platform's live stream while a session is open (none in the benchmark pages and the
   * playground): lists mark the rows it brought (`liveMark`), sections load again (`live`).
   */
  live?: LiveFeed;
  /** The signed-in user, `user` in templates and conditions (`{{user.loginUserCode}}`). */
  user?: Readonly<Record<string, unknown>>;
}

export const RendererContext = createContext<RendererServices | null>(null);

export function useRenderer(): RendererServices {
  const services = useContext(RendererContext);
  if (!services) throw new Error('RendererContext 未提供：页面渲染器需要在控制台中使用');
  return services;
}

/** SPEC §6: a button is permitted when the route's button list holds its resource url. */
export function permitted(buttons: readonly string[], permission: string | undefined): boolean {
  return !permission || buttons.includes(permission);
}
