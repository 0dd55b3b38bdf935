/**
 * The page language's names, conditions and actions (renderers/schema/types.ts says the pages).
 * Written once: `npm run schemas` (scripts/pageModel.ts) generates schemas/page.schema.json from
 * these declarations — each JSDoc text is the description an editor shows, its tags are the JSON
 * Schema's constraints (`@pattern`, `@minimum`, `@names` for a list of names.schema.json, `@reuse`
 * where a page parameter may stand, `@def` for a definition of its own). How a field is added:
 * ./types.ts's header (write it here with its JSDoc, `npm run schemas`, commit both); why the
 * model is TypeScript: README "Add a screen" → "The page language, said once".
 */

/**
 * 取值模板：{{…}} 中是表达式（如 {{record.id}}、{{params.id | number}}、{{selection.keys | join(',')}}），在运行时按作用域求值：params（路由参数）、record（行或详情记录）、values（表单值或列表筛选）、selection（选中的行 keys、rows）、user（当前用户）；动作链中后续步骤还可读 result。整段模板保留值的类型，嵌在文字中的模板替换为文字；对象与数组逐项替换。过滤器：number、string、boolean、join、default。
 * @remarks Strings may hold `{{…}}` expressions (renderers/schema/template.ts) resolved against the one scope; objects and arrays are resolved recursively.
 */
export type Template = unknown;

/**
 * 一个 {{…}} 表达式，按作用域求值（作用域同取值模板），保留值的类型。
 * @remarks Reusable by every part of the page language that depends on its record or its route (conditions; row rules to come).
 * @pattern ^\{\{[\s\S]*\}\}$
 * @def expression
 */
export type Expression = string;

/**
 * 条件：一个 {{…}} 表达式，值为真时成立，如 {{record.state === 'created'}}、{{['paid', 'confirmed'].includes(record.state)}}、{{record.status === '1' && user.roleList.includes('admin')}}；作用域同取值模板。
 * @remarks The only form of a condition since issue 33; a comparison of paths and literals is evaluated without jsep (renderers/schema/simpleExpression.ts).
 * @def condition
 */
export type Condition = Expression;

/**
 * 颜色，按含义命名：success（正常、完成）、processing（进行中）、warning（需留意）、error（异常、待处理）、default（中性）。同一状态在每个页面（含大屏）同一颜色，标签文字始终显示，不单靠颜色表达。
 * @remarks Issue 34: a dictionary item carries its colour (schemas/dictionaries.json); renderers/displays map a meaning to antd's status colours.
 * @def stateColour
 */
export type StateColour = 'success' | 'processing' | 'warning' | 'error' | 'default';

/**
 * 接口操作名（schemas/operations.json）。
 * @pattern ^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$
 * @names operation
 */
export type OperationName = string;

/**
 * 按钮资源地址（通常是接口操作名）：只有当前路由的按钮列表包含它时才显示。
 * @minLength 1
 * @names permission
 */
export type PermissionName = string;

/**
 * 页面：schemas/pages 下的 <area>/<view>，可带页面参数（?名称=取值）。
 * @names page
 */
export type PageRef = string;

/**
 * 路由路径。
 * @pattern ^/
 * @names route
 */
export type RoutePath = string;

/**
 * 命名的展示方式：text、dict、datetime、date、number（千分位的确切数值，列表、详情与统计卡用）、count（SPEC §9 的角标计数：1000+、1.2万+）、duration、phone、image、tag、link、html、boolean、money、percent。
 * @names display
 */
export type DisplayName = string;

/**
 * 字典类型（schemas/dictionaries.json）。
 * @names dictType
 */
export type DictTypeName = string;

/**
 * 本页的实体（schemas/entities 下的 <area>/<entity>）：表单字段、列表列与详情字段只写字段名，标题、规则、组件、展示方式与字典取自实体的字段（写出的属性覆盖它们），服务端的参数校验也取自同一字段。
 * @names entity
 */
export type EntityRef = string;

/**
 * 成功后除本实体（操作名去掉最后一段：device.delete → device.*）的查询外，还要刷新的接口操作（schemas/operations.json 中登记的名字）：所有打开的页签中显示它们的列表、详情、图表随之重新加载。
 * @remarks Operations whose answers a change makes stale besides its own entity's (every operation named like it without the verb).
 * @uniqueItems
 * @def invalidates
 */
export type Invalidates = OperationName[];

/** The icons an action's button may show (renderers/actions/icons.tsx draws them). */
export const ACTION_ICON_NAMES = ['PlusOutlined'] as const;
/** 工具栏按钮的图标（@ant-design/icons 名称，渲染器登记的这几个：renderers/actions/icons.tsx）。 */
export type ActionIconName = (typeof ACTION_ICON_NAMES)[number];

/** What every action says. */
export interface ActionBase {
  /**
   * 按钮文字（中文）。
   * @reuse
   * @minLength 1
   * @sourceOptional a chain's step may leave it out; the `action` definition requires it
   */
  label: string;
  /**
   * 按钮资源地址（通常是接口操作名）：只有当前路由的按钮列表包含它时才显示；须是打开本页的菜单授予的按钮。
   * @reuse
   */
  permission?: PermissionName;
  /** 工具栏按钮的图标（@ant-design/icons 名称，渲染器登记的这几个：renderers/actions/icons.tsx）。 */
  icon?: ActionIconName;
  /** 危险操作样式（红色）。 */
  danger?: boolean;
  /** 主按钮样式。 */
  primary?: boolean;
  /** 条件成立时才显示该操作。 */
  visibleWhen?: Condition;
  /** 条件成立时操作显示为禁用。 */
  disabledWhen?: Condition;
  /**
   * 执行前的确认文字（任何操作都可以先确认；动作链的步骤以对话框确认，取消则整条链停止）。
   * @reuse
   * @minLength 1
   */
  confirm?: string;
}

/**
 * 跳转到一个路由。
 * @def navigateAction
 */
export interface NavigateAction extends ActionBase {
  /** 操作类型。 */
  type: 'navigate';
  /** 目标路由路径。 */
  to: RoutePath;
  /** 查询参数（取值模板）。 */
  query?: Record<string, Template>;
}

/**
 * 在抽屉、弹窗或整页中打开一个表单页面。
 * @def openFormAction
 */
export interface OpenFormAction extends ActionBase {
  /** 操作类型。 */
  type: 'openForm';
  /**
   * 表单页面：schemas/pages 下的 <area>/<view>，可带页面参数（?名称=取值）。
   * @pattern ^[a-z][A-Za-z0-9]*(/[a-z][A-Za-z0-9]*)+(\?[A-Za-z0-9_=&-]+)?$
   */
  page: PageRef;
  /** 打开方式。 */
  container?: 'drawer' | 'modal' | 'page';
  /** 传给表单的 params（取值模板）：表单的加载与提交模板读取它们。 */
  params?: Record<string, Template>;
  /**
   * 抽屉或弹窗宽度（像素）。
   * @integer
   * @minimum 320
   * @maximum 1600
   */
  width?: number;
}

/**
 * 在抽屉或弹窗中打开任意类型的页面。
 * @def openPageAction
 */
export interface OpenPageAction extends ActionBase {
  /** 操作类型。 */
  type: 'openPage';
  /**
   * 打开的页面 <area>/<view>（详情、列表、表单或仪表盘）。
   * @minLength 1
   */
  page: PageRef;
  /** 在抽屉（默认）或弹窗中打开。 */
  container?: 'drawer' | 'modal';
  /** 作为 params 传给页面（取值模板）。 */
  params?: Record<string, Template>;
  /**
   * 抽屉或弹窗宽度（像素）。
   * @integer
   * @minimum 240
   * @maximum 1600
   */
  width?: number;
}

/** What a dialog showing a value says (a showResult action, a form's submit.showResult). */
export interface ShownValue {
  /**
   * 对话框标题，缺省为按钮文字（表单为表单标题）。
   * @minLength 1
   */
  title?: string;
  /** 值上方的说明（如：新密钥只显示这一次，请立即复制保存）。 */
  message?: string;
  /** 显示的值（取值模板），缺省为 {{result}}：动作链中上一步的应答（表单为提交的应答）。 */
  value?: Template;
  /** 值的字段（可复制）；缺省时整个值显示为文字。 */
  fields?: Column[];
}

/**
 * 在对话框中显示一个值，直到关闭（如只显示一次的密钥）。
 * @def showResultAction
 */
export interface ShowResultAction extends ActionBase, ShownValue {
  /** 操作类型。 */
  type: 'showResult';
}

/**
 * 控制台注册的操作名：带点号（如 map.locate），与内置类型（不带点号）不会重名；npm run check 只认 src/renderer/actions.ts 注册的名称。
 * @pattern ^[a-z][a-zA-Z0-9]*(\.[a-z][a-zA-Z0-9]*)+$
 * @names consoleAction
 */
export type ConsoleActionName = `${string}.${string}`;

/**
 * 控制台注册的操作（RendererServices.actions，src/renderer/actions.ts），与内置操作一样按 type 选择：params（取值模板）是它的输入，它的应答是动作链中的 result。
 * @def consoleAction
 */
export interface ConsoleAction extends ActionBase {
  /** 控制台注册的操作名（带点号）。 */
  type: ConsoleActionName;
  /** 操作的输入（取值模板）。 */
  params?: Record<string, Template>;
}

/** A chain's step: the action with its label optional. */
export type StepOf<A extends ActionBase> = Omit<A, 'label'> & { label?: string };

/**
 * 动作链的一步：除 chain 外的任何操作，label 可省略。
 * @def chainStep
 * @discriminator type
 * @discriminatorText 操作类型
 */
export type ChainStep =
  | StepOf<NavigateAction>
  | StepOf<OpenFormAction>
  | StepOf<OpenPageAction>
  | StepOf<CallAction>
  | StepOf<DownloadAction>
  | StepOf<RefreshAction>
  | StepOf<ShowResultAction>
  | StepOf<ConsoleAction>;

/**
 * 依次执行的几步操作（如 [call, showResult]）：每一步读取上一步的应答 result（调用的应答、下载的文件）；某一步失败则整条链停止。
 * @def chainAction
 */
export interface ChainAction extends ActionBase {
  /** 操作类型。 */
  type: 'chain';
  /**
   * 各步。
   * @minItems 1
   */
  steps: ChainStep[];
}

/**
 * 调用一个 call 类接口操作，可先确认。
 * @def callAction
 */
export interface CallAction extends ActionBase {
  /** 操作类型。 */
  type: 'call';
  /** 接口操作名（schemas/operations.json）。 */
  operation: OperationName;
  param?: Template;
  /** 成功后的提示。 */
  successMessage?: string;
  invalidates?: Invalidates;
}

/**
 * 通过 blob 类接口操作下载文件。
 * @def downloadAction
 */
export interface DownloadAction extends ActionBase {
  /** 操作类型。 */
  type: 'download';
  /** 接口操作名（blob）。 */
  operation: OperationName;
  param?: Template;
}

/**
 * 刷新当前页面的数据。
 * @def refreshAction
 */
export interface RefreshAction extends ActionBase {
  /** 操作类型。 */
  type: 'refresh';
}

/**
 * 一个按钮操作。
 * @def action
 * @discriminator type
 * @discriminatorText 操作类型
 * @required label
 */
export type Action = NavigateAction | OpenFormAction | OpenPageAction | CallAction | DownloadAction | RefreshAction | ShowResultAction | ConsoleAction | ChainAction;

/**
 * 表格列或描述字段。
 * @def column
 */
export interface Column {
  /**
   * 记录中的字段名（可用点号取嵌套字段）。
   * @minLength 1
   */
  field: string;
  /**
   * 列标题（中文）。
   * @reuse
   * @minLength 1
   * @sourceOptional a page naming an entity takes it from the entity's field
   */
  title: string;
  /** 命名的展示方式：text、dict、datetime、date、number（千分位的确切数值，列表、详情与统计卡用）、count（SPEC §9 的角标计数：1000+、1.2万+）、duration、phone、image、tag、link、html、boolean、money、percent。 */
  display?: DisplayName;
  /** display 为 dict 或 tag 时使用的字典类型。 */
  dictType?: DictTypeName;
  /**
   * 列宽（像素）。
   * @integer
   * @minimum 40
   * @maximum 800
   */
  width?: number;
  /** 允许服务端排序。 */
  sortable?: boolean;
  /** 固定在左侧或右侧。 */
  fixed?: 'left' | 'right';
  /** 超长省略。默认：文本、字典、链接与 HTML 列省略，数字、时间、标签等格式列完整显示。 */
  ellipsis?: boolean;
  /** 默认隐藏，可在列设置中显示。 */
  hidden?: boolean;
  /** display 为 link 时的目标路由（取值模板，如 /device/detail?code={{record.code}}）。 */
  to?: string;
  /** 条件成立时才显示：列表列按 params、user 判断，详情字段还可读 record。 */
  visibleWhen?: Condition;
  /**
   * 行规则：该格的值，可含 {{…}}，按行求值（可读 record、user），如 {{record.stock - record.warnAt}}、库存不足；写了它就不再读 field（field 仍是列的键）。
   * @minLength 1
   */
  value?: string;
  /** 行规则：display 为 tag 时标签的颜色，按含义命名的颜色或行的表达式，如 {{record.stock < record.warnAt ? 'error' : 'default'}}；不写时取字典项的颜色（dictType），没有则为 default。 */
  color?: StateColour | Expression;
  /** 行规则：逐行判断的条件（可读 record、user），不成立的行该格留空，如 {{record.stock < record.warnAt}}；列表、卡片与详情都适用。 */
  cellVisibleWhen?: Condition;
}
