/**
 * The page schema language (DESIGN.md "Page schemas"), as TypeScript types: what the renderers read
 * (a page composed: renderers/schema/compose.ts). Said once — `npm run schemas` generates
 * schemas/page.schema.json from this file and ./actionTypes.ts (scripts/pageModel.ts); what only a
 * page file may say before it is composed ($ref, $param, parameters, a column's search, Formily's
 * typed fields) is scripts/pageModelSource.ts's. README "Add a screen" → "The page language, said once".
 *
 * To add a field (or change one):
 * 1. Write the property here or in ./actionTypes.ts (a column's: `Column` there) with a JSDoc whose
 *    text is the Chinese sentence an editor shows on a page file, and tags for its constraints:
 *    `@minLength n`, `@pattern re`, `@integer`, `@minimum n`, `@maximum n`, `@minItems n`,
 *    `@uniqueItems`; `@reuse` where a page parameter ({"$param": …}) may stand; `@names x` for a
 *    name editors complete from names.schema.json; `@items d` / `@schema d` for a definition of the
 *    source layer; `@sourceOptional` when a page file may leave out what the renderer always gets.
 *    Its type says the rest: `?` optional, a literal union or `(typeof X)[number]` of an `as const`
 *    list an enum, `Condition` / `Expression` a {{…}} expression, a type tagged `@def name` a `$ref`.
 *    A shape the generator does not know stops `npm run schemas` with the type it could not write.
 * 2. `npm run schemas` (rewrites schemas/page.schema.json).
 * 3. Commit both. tests/contract/pageModel.test.ts and `npm run check` fail while the committed
 *    file is not what the model generates (a hand edit of it too).
 * `@remarks` are notes for this code and reach no schema.
 */
import type { Action, Column, DictTypeName, DisplayName, EntityRef, Invalidates, OperationName, PageRef, PermissionName, RoutePath, ShownValue, Template } from './actionTypes';

export * from './actionTypes';

/**
 * Formily JSON Schema（type 为 object，字段在 properties 中）。
 * @remarks Kept open here (Formily validates its own parts); the typed fields an editor completes are scripts/pageModelSource.ts's.
 */
export type FormilySchema = Record<string, unknown>;

/**
 * 命名校验器（SPEC §5），如 deviceCode、timeRange。
 * @names validator
 */
export type NamedValidatorName = string;

/** 命名校验器及其参数。 */
export interface NamedValidatorCall {
  name: string;
  /** 与之比较的另一字段。 */
  field?: string;
  message?: string;
}

/** 正则及其提示。 */
export interface PatternValidator {
  /** 正则表达式（值不为空时校验）。 */
  pattern: string;
  message: string;
}

// A filter's rule: a named SPEC §5 validator (`"deviceCode"`, `{ "name": …, "field": … }`) or a
// pattern with its message (no JSDoc: the union is written out where it is used, undescribed).
export type FilterValidator = NamedValidatorName | NamedValidatorCall | PatternValidator;

/**
 * What a list page's filter may hold: a control of the filter registry (FILTER_COMPONENT_KINDS in
 * renderers/list/FilterForm.tsx, each a plain antd one: the list loads no Formily); `npm run check`
 * refuses another name, and the filter says so in its place.
 * @names filterComponent
 */
export type FilterComponent = string;

/**
 * 控件属性。
 * @names componentProps
 */
export type FilterComponentProps = Record<string, unknown>;

/**
 * 列表筛选字段。
 * @remarks One filter field as a page schema writes it (Formily's field shape, limited to what filters use).
 * @def filterField
 */
export interface FilterField {
  /** 值的类型。 */
  type?: 'string' | 'number' | 'boolean' | 'array';
  /**
   * 标签，也是控件的无障碍名称。
   * @minLength 1
   */
  title: string;
  /** 可省略：筛选字段总是带标签的表单项。 */
  'x-decorator'?: 'FormItem';
  /** 筛选控件（renderers/list/FilterForm.tsx 的 FILTER_COMPONENT_KINDS）。 */
  'x-component': FilterComponent;
  /** 控件属性（placeholder、dictType、operation、showTime…）。 */
  'x-component-props'?: FilterComponentProps;
  /** 校验：命名校验器或正则。 */
  'x-validator'?: FilterValidator | FilterValidator[];
  /** Select 的选项：{ label, value } 或值。 */
  enum?: unknown[];
  /** 初始值，重置时恢复为它。 */
  default?: unknown;
  /** 字段下方的说明。 */
  description?: string;
}

/** What every page says. */
export interface PageCommon {
  /** 本 JSON Schema 的相对路径，让编辑器补全与校验。 */
  $schema?: string;
  /** 页面模式语言的版本。 */
  schemaVersion: 1;
  /**
   * 页面标题（中文）。
   * @reuse
   * @minLength 1
   */
  title: string;
  /**
   * 页面说明。
   * @reuse
   */
  description?: string;
}

/**
 * 列表页：筛选、分页、排序、列设置、行选择与批量操作、导出。
 * @def listPage
 */
export interface ListPage extends PageCommon {
  /** 页面类型。 */
  kind: 'list';
  entity?: EntityRef;
  /**
   * 分页接口操作名（kind 为 page）。
   * @reuse
   */
  operation: OperationName;
  /** 行主键字段，默认 id。 */
  rowKey?: string;
  /** 每次分页请求附带的固定 param（取值模板，可读 params）。 */
  param?: Record<string, Template>;
  /**
   * 筛选表单（type 为 object，字段在 properties 中）。列表页用 antd 表单渲染筛选，不加载 Formily：字段只可用 filterField 列出的组件。列上写 search: true 时由列推出筛选字段，不必在此重写。
   * @schema filterForm
   */
  filters?: FormilySchema;
  /**
   * 表格列。
   * @minItems 1
   * @items entityColumnOrReuse
   */
  columns: Column[];
  /**
   * 工具栏操作。
   * @items actionOrReuse
   */
  toolbar?: Action[];
  /**
   * 行操作。
   * @items actionOrReuse
   */
  rowActions?: Action[];
  /**
   * 批量操作（作用于选中的行，模板中可用 {{selection.keys}} 与 {{selection.rows}}）。
   * @items actionOrReuse
   */
  batchActions?: Action[];
  /** 按当前筛选条件导出。 */
  export?: {
    /** 导出接口操作名（kind 为 blob）。 */
    operation: OperationName;
    /** 按钮文字，默认“导出”。 */
    label?: string;
    /** 按钮资源地址。 */
    permission?: PermissionName;
  };
  /**
   * 每页条数。
   * @integer
   * @minimum 1
   * @maximum 1000
   */
  pageSize?: number;
  /** 启用虚拟滚动（长列表）。 */
  virtual?: boolean;
  /** 默认排序。 */
  defaultSort?: {
    /** 字段。 */
    field: string;
    /** 方向。 */
    order: 'asc' | 'desc';
  };
  /** 页面打开后经实时推送到达的行标记为“新”（标签加渐隐的底色）：告警记录、监控告警。 */
  liveMark?: LiveMark;
}

/** The kinds of event the platform's live stream tells the console (src/live/liveEvents.ts). */
export const LIVE_EVENT_KINDS = ['alarm.raised', 'alarm.recovered', 'device.online', 'device.offline', 'command.updated'] as const;
/**
 * 实时推送的事件类型（GET /api/live/events）。
 * @def liveEventKind
 */
export type LiveEventKind = (typeof LIVE_EVENT_KINDS)[number];

/** Marks the rows a live event announced since the page was opened. */
export interface LiveMark {
  /**
   * 带来新行的实时事件（如 alarm.raised），一个或几个。
   * @minItems 1
   */
  event: LiveEventKind | LiveEventKind[];
  /**
   * 事件 payload 中指明行的字段（告警的 alarmCode）。
   * @minLength 1
   */
  key: string;
  /**
   * 与之比较的行字段，默认 rowKey。
   * @minLength 1
   */
  field?: string;
}

/**
 * 表单页：新增与编辑，在抽屉、弹窗或整页中。
 * @def formPage
 */
export interface FormPage extends PageCommon {
  /** 页面类型。 */
  kind: 'form';
  entity?: EntityRef;
  /**
   * 加载初始值的接口操作与参数（编辑）。参数中有空值时（如没有 params.id）不加载，表单处于新增模式。
   * @reuse
   */
  load?: {
    /** 接口操作名。 */
    operation: OperationName;
    param?: Template;
  };
  /**
   * 提交的接口操作。param 缺省时提交表单值。
   * @reuse
   */
  submit: {
    /** 接口操作名。 */
    operation: OperationName;
    /** 新增时的接口操作：当 load 的参数为空（如没有 params.id）时表单处于新增模式，提交到此操作；缺省时新增也用 operation。 */
    createOperation?: OperationName;
    param?: Template;
    /** 成功提示，缺省为“设置成功！”。 */
    successMessage?: string;
    invalidates?: Invalidates;
    /** 提交成功后在对话框中显示应答，直到关闭（如新增时只返回一次的密钥）；模板以 result 读应答。 */
    showResult?: ShownValue;
  };
  /**
   * Formily JSON Schema（type 为 object，字段在 properties 中；x-component 为已注册组件，x-validator 可引用命名校验器）。
   * @schema formSchema
   */
  schema: FormilySchema;
  /** 表单布局。 */
  layout?: {
    /**
     * 标签栅格宽。
     * @integer
     * @minimum 1
     * @maximum 24
     */
    labelCol?: number;
    /**
     * 控件栅格宽。
     * @integer
     * @minimum 1
     * @maximum 24
     */
    wrapperCol?: number;
    /**
     * 每行字段数。
     * @integer
     * @minimum 1
     * @maximum 4
     */
    columns?: number;
  };
  /** 整页表单提交成功后。 */
  after?: {
    /** 跳转到的路由。 */
    navigate?: RoutePath;
  };
}

/**
 * 详情页区块。
 * @def section
 */
export interface DetailSection {
  /**
   * 区块标题。
   * @minLength 1
   */
  title: string;
  /** descriptions：字段描述；table：子表格；list：嵌入一个列表页；series：按所选时间范围画出接口应答的各指标曲线（应答 {series: [{key, title, unit, points: [{time, avg, min, max, count}], latest}]}；近1小时/近24小时/近7天时参数加 lastMinutes，自定义时加 startTime、endTime）。 */
  type: 'descriptions' | 'table' | 'list' | 'series';
  /** 区块单独加载时的接口操作（参数模板读 params 与页面的 record）；缺省时读页面主数据。 */
  operation?: OperationName;
  param?: Template;
  /** 从页面主数据中读取的字段（点号路径）。 */
  source?: string;
  /**
   * descriptions 的字段。
   * @items entityColumnOrReuse
   */
  fields?: Column[];
  /**
   * table 的列。
   * @items entityColumnOrReuse
   */
  columns?: Column[];
  /** list 区块嵌入的列表页 <area>/<view>。 */
  page?: PageRef;
  /**
   * descriptions 每行字段数。
   * @integer
   * @minimum 1
   * @maximum 4
   */
  column?: number;
  /** series 区块的时间范围。 */
  timeRange?: SeriesTimeRange;
  /** 随实时推送刷新本区块。 */
  live?: LiveRefresh;
}

/** The ranges a `series` section offers: the last hour, day or week up to now, or one the user picks. */
export const SERIES_RANGES = ['lastHour', 'last24Hours', 'last7days', 'custom'] as const;
export type SeriesRangeName = (typeof SERIES_RANGES)[number];

export interface SeriesTimeRange {
  /** 初始范围：近1小时（默认）、近24小时、近7天。 */
  default?: Exclude<SeriesRangeName, 'custom'>;
  /**
   * 自定义范围最长的天数，默认 31（接口应答的范围）。
   * @integer
   * @minimum 1
   * @maximum 31
   */
  maxDays?: number;
}

export interface LiveRefresh {
  /**
   * 收到这些实时事件时重新加载本区块（几秒内至多一次）。
   * @minItems 1
   */
  events: LiveEventKind[];
  /** 只认 payload 中这些字段取这些值的事件，如 {"deviceCode": "{{params.code}}"}（取值模板，读 params 与页面的 record）。 */
  match?: Record<string, Template>;
  /**
   * 范围截至当前时间时，另外每隔这些秒重新加载（不改变状态的上报没有事件）。
   * @integer
   * @minimum 10
   * @maximum 3600
   */
  everySeconds?: number;
}

/**
 * 详情页：描述区、子表格与标签页。
 * @def detailPage
 */
export interface DetailPage extends PageCommon {
  /** 页面类型。 */
  kind: 'detail';
  entity?: EntityRef;
  /** 加载数据的接口操作与参数。 */
  load: {
    /** 接口操作名。 */
    operation: OperationName;
    param?: Template;
  };
  /**
   * 各区块。
   * @minItems 1
   * @items sectionOrReuse
   */
  sections: DetailSection[];
  /** 以标签页展示区块。 */
  tabs?: boolean;
  /**
   * 页面操作。
   * @items actionOrReuse
   */
  actions?: Action[];
}

/**
 * 仪表盘组件类型：statistic 统计卡片；line、bar、pie、gauge 图表；table 表格；或注册的组件类型（renderers/dashboard/widgetKinds.tsx 的 WIDGET_KINDS，控制台的 src/renderer/widgets.tsx），npm run check 校验名称。
 * The names are the widget registry's (WIDGET_KINDS), not a list of the page language's own.
 * @pattern ^[a-z][a-zA-Z0-9]*$
 * @names widget
 */
export type WidgetTypeName = string;

/**
 * 仪表盘组件。
 * @def widget
 */
export interface DashboardWidget {
  /** statistic 统计卡片；line、bar、pie、gauge 图表；table 表格；或注册的组件类型（WIDGET_KINDS、src/renderer/widgets.tsx，npm run check 校验名称）。 */
  type: WidgetTypeName;
  /**
   * 标题。
   * @minLength 1
   */
  title: string;
  /** 数据接口操作。 */
  operation: OperationName;
  /** 参数（取值模板，读路由的 params 与 user）。 */
  param?: Template;
  /**
   * 栅格宽度（共 24）。
   * @integer
   * @minimum 1
   * @maximum 24
   */
  span?: number;
  /** statistic/gauge 的取值字段；statistic 可用点号取嵌套字段（如 pool.total），取不到值时显示 -。 */
  valueField?: string;
  /** table 与 line、bar、pie 的数据行所在字段（可用点号取嵌套字段）；省略时为应答本身（数组）或其 records。 */
  rowsField?: string;
  /** statistic 的展示方式（如 number：千分位的确切数值）。 */
  display?: DisplayName;
  /** line/bar 的类目字段。 */
  x?: string;
  /**
   * line/bar 的数值字段（一个或多个）。
   * @minItems 1
   */
  y?: string | string[];
  /** pie 的名称字段。 */
  name?: string;
  /** 数值字段的中文名。 */
  seriesNames?: Record<string, string>;
  /** line/bar 的系列按含义着色：dictType 与每个数值字段对应的字典值（如 level1 → 1），系列颜色取该字典项的颜色（同一状态在每个页面含大屏同一颜色），未写 seriesNames 时系列名取其标签。 */
  seriesDict?: {
    /** 系列对应的字典类型。 */
    dictType: DictTypeName;
    /** 数值字段 → 字典值。 */
    values: Record<string, string>;
  };
  /** gauge 的最大值。 */
  max?: number;
  /** 数值后缀。 */
  suffix?: string;
  /**
   * table 的列。
   * @items columnOrReuse
   */
  columns?: Column[];
  /**
   * 图表高度（像素）。
   * @integer
   * @minimum 120
   * @maximum 800
   */
  height?: number;
}

/**
 * 仪表盘：统计卡片与图表的响应式网格。
 * @def dashboardPage
 */
export interface DashboardPage extends PageCommon {
  /** 页面类型。 */
  kind: 'dashboard';
  /** 时间范围筛选：作为 param.startTime 与 param.endTime 传给每个组件；起止必须不同。 */
  timeRange?: {
    /** 默认范围。 */
    default?: 'today' | 'last7days' | 'last30days' | 'last90days';
  };
  /**
   * 组件。
   * @minItems 1
   * @items widgetOrReuse
   */
  widgets: DashboardWidget[];
}

/**
 * 控制台的一个菜单视图：列表、表单、详情或仪表盘，由通用渲染器渲染并连接到命名的接口操作。
 * @discriminator kind
 */
export type PageSchema = ListPage | FormPage | DetailPage | DashboardPage;
export type PageKind = PageSchema['kind'];
