import type { SqlParam } from '../../db/database';
import { businessDay, businessDaysBetween } from '../../domain/businessTime';
import { USER_STATUS } from '../../domain/users';
import { FINISHED_STATES } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import type { Queryable } from '../../db/database';
import { checkAssignment, deleteUsers, HOLDS_ROLE, insertUser, USER_LOOKUPS, userFieldsOf, writeUser } from '../../core/userAccounts';
import { requireView } from '../../core/access';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { objectOf, text, timeText, enumOf, optionalEnumOf, parseTime, type ParamOf } from '../../core/params';
import { fleetFigures, percentOf } from '../../core/fleetFigures';
import { deviceScope } from '../../core/deviceScope';
import { Conditions } from '../../core/listQuery';
import { column, contains, custom, equals, listing, textColumn, timeColumn, type ItemOf } from '../../core/listing';
import { organizationScope, scopeCondition, type OrganizationScope } from '../../core/scope';
import { workScope, workScopeClause } from '../../core/workScope';
import { dictLabel } from '../../core/values';
import { recordId } from './scope';
import { backlogOperations } from './brandBacklog';

/**
 * 品牌专区: a second set of pages for a sub-brand over the same data as the main screens — the
 * caller's backlog (brandBacklog.ts), the patrol tasks, statistics, the field staff and the
 * devices of the caller's scope. Nothing is copied: the patrol and device lists are the work and
 * device side's own operations (under the brand's names in operations/index.ts), the staff are the users of the working organisations who hold
 * a field role (written as the user administration writes them: core/userAccounts.ts), the statistics count the
 * work orders, patrol tasks and devices themselves.
 */

/** The roles of the sub-brand's staff (a tenant admin is managed in 系统管理 only). */
export const BRAND_ROLES = ['ROLE_TENANT_ORDINARY', 'ROLE_TENANT_REPAIR', 'ROLE_TENANT_PATROL', 'ROLE_REPAIR_IMPLEMENT'] as const;
const OPEN_ORDER_STATES = ['assigned', 'accepted', 'in_progress'];

/** Users of `scope` holding a field role and nothing else. */
function staffOf(scope: OrganizationScope, where = new Conditions()): Conditions {
  where.add(`EXISTS (SELECT 1 FROM user_organization uo WHERE uo.user_id = u.id AND ${scopeCondition(scope, where.params, 'uo')})`);
  return where.add(
    'EXISTS (SELECT 1 FROM user_role ur WHERE ur.user_id = u.id AND ur.role_code = ANY($?::text[])) AND NOT EXISTS (SELECT 1 FROM user_role ur WHERE ur.user_id = u.id AND NOT (ur.role_code = ANY($?::text[])))',
    [...BRAND_ROLES],
  );
}

/** The sub-brand's staff screen: the only one whose records these are. */
const STAFF_VIEW = 'brand/users';

/**
 * The staff list (app_user alone: the role, organisation and open work are looked up per row).
 * The open work is an index-only count of the open orders and tasks alone
 * (work_order_open_assignee_idx and patrol_task_open_assignee_idx, migration 093), whose
 * predicates are these states.
 */
const STAFF = listing({
  from: 'app_user u',
  scope: async (where, context) => {
    await requireView(context, STAFF_VIEW);
    staffOf(await organizationScope(context), where);
  },
  filters: {
    keyword: contains(['u.login_name', 'u.user_name', "coalesce(u.phone, '')"], text(64), { trim: true }),
    roleCode: custom(optionalEnumOf(BRAND_ROLES), (where, role) => void where.add(HOLDS_ROLE, role)),
    status: equals('u.status', optionalEnumOf(['0', '1']), Number),
  },
  columns: {
    id: column<number>('u.id'),
    loginName: column<string>('u.login_name'),
    userName: column<string>('u.user_name'),
    phoneNumber: textColumn('u.phone'),
    mail: textColumn('u.mail'),
    roleCode: column<string>(USER_LOOKUPS.roleCode),
    organizationCode: textColumn(USER_LOOKUPS.organizationCode),
    organizationName: textColumn(USER_LOOKUPS.organizationName),
    status: column('u.status', (status: number) => String(status)),
    openWorkCount: column<number>(`((SELECT count(*) FROM work_order w WHERE w.assignee_id = u.id AND w.state = ANY('{${OPEN_ORDER_STATES.join(',')}}'::text[]))
          + (SELECT count(*) FROM patrol_task t WHERE t.assignee_id = u.id AND t.state IN ('pending', 'in_progress')))::int`),
    createTime: timeColumn('u.created_at'),
  },
  sorts: { loginName: 'u.login_name', userName: 'u.user_name', createTime: 'u.created_at', openWorkCount: '"openWorkCount"' },
  fallback: 'u.id DESC',
});

/**
 * A field staff member of the organisations `scope` ("404" 用户不存在 for anyone else), read with
 * `db` — inside the transaction that acts on it, so its open work is counted where the write is.
 */
async function staffMember(context: OperationContext<unknown>, scope: OrganizationScope, id: number, db: Queryable = context.db): Promise<ItemOf<typeof STAFF>> {
  const member = await STAFF.find(context, staffOf(scope).add('u.id = $?', id), '', db);
  if (!member) throw fail.notFound('用户不存在');
  return member;
}

/** The user administration's fields, the role narrowed to the field roles. */
const staffFields = userFieldsOf(enumOf(BRAND_ROLES));

const staffOperations = [
  defineOperation('brand.user.page', {
    paramSchema: STAFF.paramSchema,
    handler: (context) => STAFF.page(context),
  }),

  /** A new field staff member (initial password Welcome@2026, changed at first login). */
  defineOperation('brand.user.insert', {
    paramSchema: objectOf({ user: staffFields }, ['user']),
    handler: async (context) => {
      await checkAssignment(context, context.param.user);
      return insertUser(context.db, context.param.user);
    },
  }),

  defineOperation('brand.user.modify', {
    paramSchema: objectOf({ id: recordId, user: staffFields }, ['id', 'user']),
    handler: async (context) => {
      const { id, user: fields } = context.param;
      const scope = await organizationScope(context);
      await staffMember(context, scope, id);
      await checkAssignment(context, fields);
      // "No open work" is read in the transaction that disables: work assigned meanwhile is seen
      // (or the transaction is run again), never a disabled member holding open work.
      await context.db.transaction(async (tx) => {
        const member = await staffMember(context, scope, id, tx);
        if (fields.status === '0' && member.openWorkCount > 0) throw fail.conflict('该人员还有未完成的工作，请先转派后再停用');
        await writeUser(tx, id, fields);
      });
      return null;
    },
  }),

  /** "409" while the member still has open work (assigned orders or patrol tasks). */
  defineOperation('brand.user.delete', {
    paramSchema: objectOf({ id: recordId }, ['id']),
    handler: async (context) => {
      const { id } = context.param;
      const scope = await organizationScope(context);
      // Checked and deleted in one transaction: work assigned at the same time keeps the member.
      await context.db.transaction(async (tx) => {
        const member = await staffMember(context, scope, id, tx);
        if (member.id === callerOf(context).userId) throw fail.conflict('不能删除自己的账号');
        if (member.openWorkCount > 0) throw fail.conflict('该人员还有未完成的工作，请先转派后再删除');
        await deleteUsers(tx, scope, [member.id]);
      });
      return null;
    },
  }),
];

const DAY_MS = 86_400_000;
const WORK_TYPES = ['repair', 'maintenance', 'construction', 'exploration'] as const;
const METRICS = ['summary', 'workType', 'daily', 'deviceState', 'assignee'] as const;

const overviewSchema = objectOf({ metric: enumOf(METRICS), startTime: timeText, endTime: timeText });
type OverviewParam = ParamOf<typeof overviewSchema>;

const ratio = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 1000) / 1000);

/**
 * 品牌统计: devices, work and patrol of the scope; counts of a period are of [startTime, endTime] (the
 * last 30 days by default). The devices are counted as everywhere else: the fleet's figures now.
 */
async function overview(context: OperationContext<OverviewParam>) {
  const scope = await workScope(context);
  const end = context.param.endTime ? parseTime(context.param.endTime, 'endTime', context.config.timeZone) : context.now;
  const start = context.param.startTime ? parseTime(context.param.startTime, 'startTime', context.config.timeZone) : new Date(end.getTime() - 30 * DAY_MS);
  if (start.getTime() >= end.getTime()) throw fail.badRequest('请输入不同的时间');
  if (end.getTime() - start.getTime() > 400 * DAY_MS) throw fail.badRequest('统计时间范围不能超过400天');
  // Each query has its own parameters: $1 now, $2–$3 the period, $4 the finished states, then its scope.
  const base = (): SqlParam[] => [context.now, start, end, [...FINISHED_STATES]];
  const typed = '$1::timestamptz IS NOT NULL AND $2::timestamptz IS NOT NULL AND $3::timestamptz IS NOT NULL AND $4::text[] IS NOT NULL';
  const orderParams = base();
  const orders = `${typed} AND ${workScopeClause(scope, orderParams, 'o')}`;
  const taskParams = base();
  const tasks = `${typed} AND ${workScopeClause(scope, taskParams, 't')}`;
  // The devices' figures are the fleet's own (core/fleetFigures.ts), as 设备看板 and 工作台 show them.
  switch (context.param.metric ?? 'summary') {
    case 'summary': {
      const [work] = await context.db.query<{ open: number; overdue: number; created: number; completed: number }>(
        `SELECT count(*) FILTER (WHERE NOT (o.state = ANY($4::text[])))::int AS open,
                count(*) FILTER (WHERE NOT (o.state = ANY($4::text[])) AND o.deadline_at < $1)::int AS overdue,
                count(*) FILTER (WHERE o.created_at BETWEEN $2 AND $3)::int AS created,
                count(*) FILTER (WHERE o.completed_at BETWEEN $2 AND $3)::int AS completed
           FROM work_order o WHERE ${orders}`,
        orderParams,
      );
      const [patrol] = await context.db.query<{ open: number; overdue: number; planned: number; completed: number }>(
        `SELECT count(*) FILTER (WHERE t.state IN ('pending', 'in_progress'))::int AS open,
                count(*) FILTER (WHERE t.state IN ('pending', 'in_progress') AND t.plan_end_at < $1)::int AS overdue,
                count(*) FILTER (WHERE t.plan_start_at BETWEEN $2 AND $3)::int AS planned,
                count(*) FILTER (WHERE t.plan_start_at BETWEEN $2 AND $3 AND t.state = 'completed')::int AS completed
           FROM patrol_task t WHERE ${tasks}`,
        taskParams,
      );
      const fleet = await fleetFigures(context.db, await deviceScope(context));
      return {
        deviceCount: fleet.total,
        onlineCount: fleet.online,
        onlineRate: fleet.onlineRate,
        onlinePercent: percentOf(fleet.onlineRate),
        faultyCount: fleet.faulty,
        openWorkCount: work.open + patrol.open,
        overdueWorkCount: work.overdue + patrol.overdue,
        createdCount: work.created,
        completedCount: work.completed,
        patrolTaskCount: patrol.planned,
        patrolCompletionPercent: Math.round(ratio(patrol.completed, patrol.planned) * 1000) / 10,
      };
    }
    case 'workType': {
      const rows = await context.db.query<{ type: string; created: number; completed: number; open: number }>(
        `SELECT o.type, count(*) FILTER (WHERE o.created_at BETWEEN $2 AND $3)::int AS created,
                count(*) FILTER (WHERE o.completed_at BETWEEN $2 AND $3)::int AS completed,
                count(*) FILTER (WHERE NOT (o.state = ANY($4::text[])))::int AS open
           FROM work_order o WHERE ${orders} GROUP BY o.type`,
        orderParams,
      );
      const [patrol] = await context.db.query<{ created: number; completed: number; open: number }>(
        `SELECT count(*) FILTER (WHERE t.plan_start_at BETWEEN $2 AND $3)::int AS created,
                count(*) FILTER (WHERE t.completed_at BETWEEN $2 AND $3)::int AS completed,
                count(*) FILTER (WHERE t.state IN ('pending', 'in_progress'))::int AS open
           FROM patrol_task t WHERE ${tasks}`,
        taskParams,
      );
      return [
        ...WORK_TYPES.map((type) => {
          const row = rows.find((r) => r.type === type);
          return { type, name: dictLabel('work_order_type', type), created: row?.created ?? 0, completed: row?.completed ?? 0, open: row?.open ?? 0 };
        }),
        { type: 'patrol', name: dictLabel('work_order_type', 'patrol'), ...patrol },
      ];
    }
    case 'daily': {
      const rows = await context.db.query<{ created_at: Date; completed_at: Date | null }>(
        `SELECT o.created_at, o.completed_at FROM work_order o WHERE ${orders} AND (o.created_at BETWEEN $2 AND $3 OR o.completed_at BETWEEN $2 AND $3)`,
        orderParams,
      );
      const byDay = new Map<string, { created: number; completed: number }>();
      const count = (time: Date | null, key: 'created' | 'completed') => {
        if (!time || time < start || time > end) return;
        const dayKey = businessDay(time, context.config.timeZone);
        const day = byDay.get(dayKey) ?? { created: 0, completed: 0 };
        day[key] += 1;
        byDay.set(dayKey, day);
      };
      for (const row of rows) {
        count(row.created_at, 'created');
        count(row.completed_at, 'completed');
      }
      const days: Array<{ day: string; created: number; completed: number }> = [];
      for (const day of businessDaysBetween(start, end, context.config.timeZone)) {
        days.push({ day: day.slice(5), created: byDay.get(day)?.created ?? 0, completed: byDay.get(day)?.completed ?? 0 });
      }
      return days;
    }
    case 'deviceState': {
      const fleet = await fleetFigures(context.db, await deviceScope(context));
      return (['online', 'offline', 'inactive'] as const).map((state) => ({ state, name: dictLabel('device_online_state', state), count: fleet[state] }));
    }
    case 'assignee': {
      return context.db.query<{ name: string; total: number; completed: number }>(
        `SELECT au.user_name AS name, count(*)::int AS total, count(*) FILTER (WHERE o.state = ANY($4::text[]))::int AS completed
           FROM work_order o JOIN app_user au ON au.id = o.assignee_id
          WHERE ${orders} AND o.created_at BETWEEN $2 AND $3 AND au.status = ${USER_STATUS.active}
          GROUP BY au.id, au.user_name ORDER BY total DESC, name LIMIT 10`,
        orderParams,
      );
    }
  }
}

export const brandOperations: OperationDefinition[] = [
  ...backlogOperations,
  defineOperation('brand.statistics.overview', {
    paramSchema: overviewSchema,
    handler: overview,
  }),
  ...staffOperations,
];
