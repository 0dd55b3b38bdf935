/**
 * The page schema language (DESIGN.md "Page schemas"), as TypeScript types. The JSON Schema
 * `schemas/page.schema.json` says the same for editors and `npm run check`.
 */

/** A Formily JSON schema (object with properties); kept open: Formily validates its own parts. */
export type FormilySchema = Record<string, unknown>;

/**
 * A value template: strings may hold `{{record.id}}`, `{{params.id | number}}`,
 * `{{selection.keys}}`… expressions (renderers/schema/template.ts) resolved against the one scope
 * (`params`, `record`, `values`, `selection`, `user`; `result` in a chain's later steps). Objects
 * and arrays are resolved recursively.
 */
export type Template = unknown;

/**
 * A `{{…}}` expression over the one scope (renderers/schema/template.ts): its value, kept as it
 * is (a condition's truth, a computed value). Reusable by every part of the page language that
 * depends on its record or its route.
 */
export type Expression = string;

/**
 * When something shows (or is disabled): an expression whose value is truthy,
 * `"{{record.status === '1' && user.roleList.includes('admin')}}"`, `"{{['paid', 'confirmed'].includes(record.state)}}"`.
 */
export type Condition = Expression;

/** The icons an action's button may show (renderers/actions/icons.tsx draws them). */
export const ACTION_ICON_NAMES = ['PlusOutlined'] as const;
export type ActionIconName = (typeof ACTION_ICON_NAMES)[number];

interface ActionBase {
  /** Button text. */
  label: string;
  /** The button's resource url: shown only when the current route's button list holds it. */
  permission?: string;
  /** The toolbar button's icon. */
  icon?: ActionIconName;
  danger?: boolean;
  /** Primary button style (toolbar). */
  primary?: boolean;
  /** Show the action only when this condition holds. */
  visibleWhen?: Condition;
  /** Show the action disabled while this condition holds. */
  disabledWhen?: Condition;
  /** Asks first with this text (a popover at the button; a dialog for a chain's step), any kind of action. */
  confirm?: string;
}

export interface NavigateAction extends ActionBase {
  type: 'navigate';
  /** Route path. */
  to: string;
  query?: Record<string, Template>;
}

export interface OpenFormAction extends ActionBase {
  type: 'openForm';
  /** The page: `<area>/<view>` under schemas/pages (a form; any kind opens, as with openPage). */
  page: string;
  container?: 'drawer' | 'modal' | 'page';
  /** Passed to the page as `params` (its load and submit templates read them). */
  params?: Record<string, Template>;
  width?: number;
}

/** Opens a page of any kind (detail, list, form, dashboard) in a drawer or a modal. */
export interface OpenPageAction extends ActionBase {
  type: 'openPage';
  /** The page: `<area>/<view>` under schemas/pages. */
  page: string;
  container?: 'drawer' | 'modal';
  /** Passed to the page as `params`. */
  params?: Record<string, Template>;
  width?: number;
}

/**
 * Shows a value in a dialog until it is closed (a secret shown once): in a chain, what the step
 * before answered, `{{result}}`.
 */
export interface ShowResultAction extends ActionBase {
  type: 'showResult';
  /** The dialog's title (the label by default). */
  title?: string;
  /** A sentence above the value (新密钥只显示这一次，请立即复制保存). */
  message?: string;
  /** What is shown (a template); `{{result}}` by default. */
  value?: Template;
  /** The value's fields, each with its display and copyable; without them the value shows as text. */
  fields?: Column[];
}

/**
 * An action of the console's own (RendererServices.actions): `name` picks it, `params` (templates
 * over the scope) are its input; what it answers is a chain's `result`.
 */
export interface CustomAction extends ActionBase {
  type: 'custom';
  name: string;
  params?: Record<string, Template>;
}

/** What a chain's step may be: any action but a chain, its label optional. */
export type ChainStep = Exclude<Action, ChainAction> extends infer A ? (A extends ActionBase ? Omit<A, 'label'> & { label?: string } : never) : never;

/**
 * Actions one after another (`[call, navigate]`): each step sees what the step before answered
 * as `result` (a call's answer, a download's file); a step failing stops the chain.
 */
export interface ChainAction extends ActionBase {
  type: 'chain';
  steps: ChainStep[];
}

export interface CallAction extends ActionBase {
  type: 'call';
  operation: string;
  param?: Template;
  successMessage?: string;
  /**
   * Operations whose answers the call makes stale besides its own entity's (every operation
   * named like it without the verb: `device.delete` refreshes `device.page`, `device.get`…).
   */
  invalidates?: string[];
}

export interface DownloadAction extends ActionBase {
  type: 'download';
  operation: string;
  param?: Template;
}

export interface RefreshAction extends ActionBase {
  type: 'refresh';
}

export type Action = NavigateAction | OpenFormAction | OpenPageAction | CallAction | DownloadAction | RefreshAction | ShowResultAction | CustomAction | ChainAction;

export interface Column {
  field: string;
  title: string;
  /** A named display: text, dict, datetime, count, duration, phone, image, tag, link, html … */
  display?: string;
  dictType?: string;
  width?: number;
  sortable?: boolean;
  fixed?: 'left' | 'right';
  /** Cut to one line; by default only text, dict, link and html columns are. */
  ellipsis?: boolean;
  /** Hidden until the user shows it in the column settings. */
  hidden?: boolean;
  /** For display "link": the route the value links to, with `{{record.x}}` templates. */
  to?: string;
  /** Show the column (list: over `params` and `user`) or the field (detail: over its `record` too) only when this holds. */
  visibleWhen?: Condition;
}

export interface PageCommon {
  $schema?: string;
  schemaVersion: 1;
  title: string;
  description?: string;
}

export interface ListPage extends PageCommon {
  kind: 'list';
  /** The entity its fields come from (`<area>/<entity>`), applied when the page was composed (renderers/schema/entity.ts). */
  entity?: string;
  operation: string;
  rowKey?: string;
  /** Base `param` sent with every page request (templates over `params`). */
  param?: Record<string, Template>;
  /** Formily JSON schema of the filter form (an object schema). */
  filters?: FormilySchema;
  columns: Column[];
  toolbar?: Action[];
  rowActions?: Action[];
  batchActions?: Action[];
  /** Export through a blob operation with the current filters. */
  export?: { operation: string; label?: string; permission?: string };
  pageSize?: number;
  /** Virtual scrolling for long pages. */
  virtual?: boolean;
  defaultSort?: { field: string; order: 'asc' | 'desc' };
  /** Rows that the live stream brought while the page is open are marked 新 (告警记录: a raised alarm). */
  liveMark?: LiveMark;
}

/** The kinds of event the platform's live stream tells the console (src/live/liveEvents.ts). */
export const LIVE_EVENT_KINDS = ['alarm.raised', 'alarm.recovered', 'device.online', 'device.offline', 'command.updated'] as const;
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

/**
 * Marks the rows a live event announced since the page was opened: an event of `event` names a
 * row through its payload's `key` (alarm.raised's `alarmCode`), compared with the row's `field`
 * (the list's rowKey by default).
 */
export interface LiveMark {
  event: LiveEventKind | LiveEventKind[];
  key: string;
  field?: string;
}

export interface FormPage extends PageCommon {
  kind: 'form';
  /** The entity its fields come from (`<area>/<entity>`), applied when the page was composed (renderers/schema/entity.ts). */
  entity?: string;
  /** Loads the initial values (edit); its param templates read `params`. */
  load?: { operation: string; param?: Template };
  /** `createOperation` is used in create mode: when the load param has an empty value (no `params.id`). */
  submit: {
    operation: string;
    createOperation?: string;
    param?: Template;
    successMessage?: string;
    /** Operations the submit makes stale besides its own entity's (as a `call` action's). */
    invalidates?: string[];
    /**
     * After a successful submit, the answer shown in a dialog until it is closed (a secret the
     * create answers once): its templates read the answer as `result`.
     */
    showResult?: Omit<ShowResultAction, 'type' | 'label'>;
  };
  /** Formily JSON schema (an object schema). */
  schema: FormilySchema;
  layout?: { labelCol?: number; wrapperCol?: number; columns?: number };
  /** After a successful submit in a full page: go here. */
  after?: { navigate?: string };
}

export interface DetailSection {
  title: string;
  /** `series`: the operation's metrics as curves over a time range the user picks (its answer: `{series: [{key, title, unit, points: [{time, avg, min, max, count}], latest}]}`). */
  type: 'descriptions' | 'table' | 'list' | 'series';
  /** Loaded by this operation (param templates read `params` and the page's `record`), or read from the page's main load by `source` field. */
  operation?: string;
  param?: Template;
  source?: string;
  fields?: Column[];
  columns?: Column[];
  /** For `list`: a list page rendered as a child table. */
  page?: string;
  column?: number;
  /** For `series`: the range first shown (近1小时 by default) and the longest a chosen one may be. */
  timeRange?: SeriesTimeRange;
  /** Loads the section again (at most once every few seconds) when the live stream tells of these events. */
  live?: LiveRefresh;
}

/** The ranges a `series` section offers: the last hour, day or week up to now, or one the user picks. */
export const SERIES_RANGES = ['lastHour', 'last24Hours', 'last7days', 'custom'] as const;
export type SeriesRangeName = (typeof SERIES_RANGES)[number];

export interface SeriesTimeRange {
  default?: Exclude<SeriesRangeName, 'custom'>;
  /** The longest range the user may pick, in days (31 by default: what the operation answers). */
  maxDays?: number;
}

export interface LiveRefresh {
  events: LiveEventKind[];
  /** Only events whose payload holds these values (templates over `params` and the page's `record`): `{"deviceCode": "{{params.code}}"}`. */
  match?: Record<string, Template>;
  /** While the range runs up to now, also every this many seconds (a reading that changes no state is told by no event). */
  everySeconds?: number;
}

export interface DetailPage extends PageCommon {
  kind: 'detail';
  /** The entity its fields come from (`<area>/<entity>`), applied when the page was composed (renderers/schema/entity.ts). */
  entity?: string;
  load: { operation: string; param?: Template };
  sections: DetailSection[];
  /** Show sections as tabs instead of stacked cards. */
  tabs?: boolean;
  actions?: Action[];
}

/** The renderer's own widget types; the console may register more (RendererServices.widgets). */
export const BUILTIN_WIDGET_TYPES = ['statistic', 'line', 'bar', 'pie', 'gauge', 'table'] as const;
export type BuiltinWidgetType = (typeof BUILTIN_WIDGET_TYPES)[number];

export interface DashboardWidget {
  /** A built-in type, or one the console registers. */
  type: BuiltinWidgetType | (string & NonNullable<unknown>);
  title: string;
  operation: string;
  /** Templates over the route's `params` and the `user`. */
  param?: Template;
  /** Grid span out of 24. */
  span?: number;
  /** statistic: the field holding the value (a dotted path; none there shows "-"); gauge: its field. */
  valueField?: string;
  /** table and line/bar/pie: the field holding the rows (a dotted path); the answer itself or its records when absent. */
  rowsField?: string;
  display?: string;
  x?: string;
  y?: string | string[];
  name?: string;
  seriesNames?: Record<string, string>;
  max?: number;
  suffix?: string;
  columns?: Column[];
  height?: number;
}

export interface DashboardPage extends PageCommon {
  kind: 'dashboard';
  /** A start/end time range filter passed to every widget as param.startTime / param.endTime. */
  timeRange?: { default?: 'today' | 'last7days' | 'last30days' | 'last90days' };
  widgets: DashboardWidget[];
}

export type PageSchema = ListPage | FormPage | DetailPage | DashboardPage;
export type PageKind = PageSchema['kind'];
