import { fail } from '../../http/envelope';
import { defineOperation } from '../../core/operation';
import { enumOf, flag, integerIn, objectOf, schemaOf, text, optionalPlainText, plainText, type ParamOf, orNull, orBlank, matching, deviceCode } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions } from '../../core/listQuery';
import { column, contains, custom, derived, listing, timeColumn, type ItemOf } from '../../core/listing';
import { conflictOnClash } from '../../core/conflicts';
import { tenantOf } from '../../domain/organizations';
import { findScopedDevices } from '../../core/deviceScope';
import { actorOf, idSchema, nextId, organizationClause, organizationWithin, workScope, type WorkScope } from './workScope';

/**
 * Online configuration screens ("在线组态"): a canvas of widgets (values, gauges, trends, tanks,
 * status lights, switches, pipes and text) placed on a fixed-size stage, each data widget bound to a
 * device of the scope and one of its metrics. The console edits the canvas as data; the big screen
 * and the app draw it.
 */

const WIDGET_TYPES = ['text', 'value', 'gauge', 'trend', 'tank', 'indicator', 'switch', 'pipe'] as const;
/** Widgets that only decorate: everything else shows a device's metric. */
const DECORATIONS = new Set<string>(['text', 'pipe']);
const METRIC_PATTERN = '^[a-z][a-z_]{0,31}$';
const MAX_WIDGETS = 200;

const coordinate = (max: number) => orNull(integerIn(0, max));

const widgetSchema = objectOf(
  {
    id: orNull(matching('^[A-Za-z0-9_-]{1,32}$')),
    type: enumOf(WIDGET_TYPES),
    title: orNull(optionalPlainText(32)),
    deviceCode: orBlank(deviceCode),
    metric: orBlank(matching(METRIC_PATTERN)),
    unit: orNull(optionalPlainText(16)),
    x: coordinate(7680),
    y: coordinate(4320),
    width: coordinate(7680),
    height: coordinate(4320),
  },
  ['type'],
);
type Widget = ParamOf<typeof widgetSchema>;

const canvasSchema = objectOf(
  {
    width: integerIn(320, 7680),
    height: integerIn(240, 4320),
    background: orNull(matching('^(#[0-9A-Fa-f]{6})?$')),
    widgets: orNull(schemaOf<Widget[]>({ type: 'array', maxItems: MAX_WIDGETS, items: widgetSchema })),
  },
  ['width', 'height'],
);
type Canvas = ParamOf<typeof canvasSchema>;

const configurationFields = objectOf(
  {
    name: plainText(64),
    organizationCode: text(64, 1),
    description: orNull(optionalPlainText(500)),
    published: orNull(flag),
    canvas: canvasSchema,
  },
  ['name', 'organizationCode', 'canvas'],
);

interface StoredWidget {
  id: string;
  type: string;
  title: string;
  deviceCode: string | null;
  metric: string | null;
  unit: string;
  x: number;
  y: number;
  width: number;
  height: number;
}

interface StoredCanvas {
  width: number;
  height: number;
  background: string;
  widgets: StoredWidget[];
}

/** The widgets of a stored canvas (none when it holds no list). */
const widgetsOf = (canvas: StoredCanvas): StoredWidget[] => (Array.isArray(canvas.widgets) ? canvas.widgets : []);

/** The list: counted and chosen over the configurations alone, the organisation's name joined for the page's rows. */
const CONFIGURATIONS = listing({
  from: 'online_configuration c JOIN organization o ON o.code = c.organization_code',
  narrowFrom: 'online_configuration c',
  key: 'c.id',
  // tenant_code is always the tenant of the organisation (written so on insert and modify).
  scope: async (where, context) => where.scope(await workScope(context), 'c', { tenant: 'tenant_code' }),
  filters: {
    keyword: contains(['c.code', 'c.name', 'c.description'], text(64)),
    published: custom(enumOf(['0', '1']), (where, published) => void where.add(published === '1' ? 'c.published' : 'NOT c.published')),
    organizationCode: custom(text(64), async (where, code, context) => void where.add('c.organization_code = ANY($?::text[])', await organizationWithin(context.db, await workScope(context), code))),
  },
  columns: {
    id: column<number>('c.id'),
    code: column<string>('c.code'),
    name: column<string>('c.name'),
    organizationCode: column<string>('c.organization_code'),
    organizationName: column<string>('o.name'),
    description: column<string>('c.description'),
    canvas: column<StoredCanvas>('c.canvas'),
    widgetCount: derived((row) => widgetsOf(row.canvas as StoredCanvas).length),
    deviceCount: derived((row) => new Set(widgetsOf(row.canvas as StoredCanvas).map((widget) => widget.deviceCode).filter((code) => code)).size),
    published: column<boolean>('c.published'),
    publishState: derived((row): string => (row.published ? '1' : '0')),
    createdBy: column<string>('c.created_by'),
    createTime: timeColumn('c.created_at'),
    updatedBy: column<string>('c.updated_by'),
    updateTime: timeColumn('c.updated_at'),
  },
  sorts: { updateTime: 'c.updated_at', createTime: 'c.created_at', name: 'c.name', code: 'c.code' },
  fallback: 'c.id DESC',
});

type Configuration = ItemOf<typeof CONFIGURATIONS>;

async function findConfiguration(context: OperationContext<unknown>, scope: WorkScope, id: number): Promise<Configuration> {
  const where = new Conditions().add('c.id = $?', id);
  where.add(organizationClause(scope, where.params, 'c'));
  const configuration = await CONFIGURATIONS.find(context, where);
  if (!configuration) throw fail.notFound('组态不存在');
  return configuration;
}

/**
 * The canvas as stored: widgets get ids and a place, data widgets must name a device of the scope
 * and a metric ("400" naming the widget), decorations keep no binding.
 */
async function storedCanvas(context: OperationContext<unknown>, scope: WorkScope, canvas: Canvas): Promise<StoredCanvas> {
  const widgets = canvas.widgets ?? [];
  const taken = new Set(widgets.map((widget) => widget.id).filter((id): id is string => Boolean(id)));
  if (taken.size !== widgets.filter((widget) => widget.id).length) throw fail.badRequest('参数错误：canvas.widgets（组件标识重复）');
  let next = 1;
  const stored = widgets.map((widget, index): StoredWidget => {
    const decoration = DECORATIONS.has(widget.type);
    if (!decoration && !widget.deviceCode) throw fail.badRequest(`参数错误：canvas.widgets[${index}].deviceCode（第 ${index + 1} 个组件请绑定设备）`);
    if (!decoration && !widget.metric) throw fail.badRequest(`参数错误：canvas.widgets[${index}].metric（第 ${index + 1} 个组件请选择指标）`);
    let id = widget.id ?? '';
    while (!id || (taken.has(id) && id !== widget.id)) {
      id = `w${next}`;
      next += 1;
    }
    taken.add(id);
    const width = widget.width || 320;
    const height = widget.height || 240;
    return {
      id,
      type: widget.type,
      title: widget.title?.trim() ?? '',
      deviceCode: decoration ? null : (widget.deviceCode ?? null),
      metric: decoration ? null : (widget.metric ?? null),
      unit: widget.unit?.trim() ?? '',
      x: Math.min(widget.x ?? 0, Math.max(0, canvas.width - width)),
      y: Math.min(widget.y ?? 0, Math.max(0, canvas.height - height)),
      width: Math.min(width, canvas.width),
      height: Math.min(height, canvas.height),
    };
  });
  const bound = [...new Set(stored.map((widget) => widget.deviceCode).filter((code): code is string => code !== null))];
  if (bound.length) await findScopedDevices(context.db, { organizationCodes: scope.organizationCodes }, bound);
  return { width: canvas.width, height: canvas.height, background: canvas.background || '#0b1d33', widgets: stored };
}

const CLASH = { unique: '组态编码已存在' };

export const onlineConfigurationOperations = [
  defineOperation('onlineConfiguration.page', {
    paramSchema: CONFIGURATIONS.paramSchema,
    handler: (context) => CONFIGURATIONS.page(context),
  }),

  defineOperation('onlineConfiguration.detail', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => findConfiguration(context, await workScope(context), context.param.id),
  }),

  defineOperation('onlineConfiguration.insert', {
    paramSchema: objectOf({ configuration: configurationFields }, ['configuration']),
    handler: async (context) => {
      const fields = context.param.configuration;
      const scope = await workScope(context);
      await organizationWithin(context.db, scope, fields.organizationCode);
      const canvas = await storedCanvas(context, scope, fields.canvas);
      const tenantCode = await tenantOf(context.db, fields.organizationCode);
      return context.db.transaction(async (tx) => {
        const id = await nextId(tx, 'online_configuration');
        const code = `ZT${String(id).padStart(5, '0')}`;
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO online_configuration (id, code, name, tenant_code, organization_code, description, canvas, published, created_by, created_at, updated_by, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $9, $10)`,
              [id, code, fields.name, tenantCode, fields.organizationCode, fields.description ?? '', JSON.stringify(canvas), fields.published ?? false, actorOf(context), context.now],
            ),
          CLASH,
        );
        return { id, code };
      });
    },
  }),

  defineOperation('onlineConfiguration.modify', {
    paramSchema: objectOf({ id: idSchema, configuration: configurationFields }, ['id', 'configuration']),
    handler: async (context) => {
      const fields = context.param.configuration;
      const scope = await workScope(context);
      const row = await findConfiguration(context, scope, context.param.id);
      await organizationWithin(context.db, scope, fields.organizationCode);
      const canvas = await storedCanvas(context, scope, fields.canvas);
      await context.db.query(
        `UPDATE online_configuration SET name = $2, tenant_code = $3, organization_code = $4, description = $5, canvas = $6::jsonb, published = $7,
                updated_by = $8, updated_at = $9
          WHERE id = $1`,
        [row.id, fields.name, await tenantOf(context.db, fields.organizationCode), fields.organizationCode, fields.description ?? '', JSON.stringify(canvas), fields.published ?? row.published, actorOf(context), context.now],
      );
      return null;
    },
  }),

  defineOperation('onlineConfiguration.delete', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => {
      const row = await findConfiguration(context, await workScope(context), context.param.id);
      await context.db.query('DELETE FROM online_configuration WHERE id = $1', [row.id]);
      return null;
    },
  }),
];
