import type { Queryable } from '../../db/database';
import { sanitizeHtml, textOfHtml } from '../../domain/html';
import { NOTIFICATION_BODY_MAX, NOTIFICATION_TITLE_MAX, saveNotification, type NotificationTab } from '../../domain/notifications';
import { organizationsWithin, tenantOf } from '../../domain/organizations';
import { workCode } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { workingOrganizations } from '../../core/access';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, schemaOf, text, timeRange, plainText, type ParamOf } from '../../core/params';
import { addTimeRange, Conditions, containing, pageOf, type Listing } from '../../core/listQuery';
import { isoOrNull } from '../../core/values';
import { organizationScope } from '../../core/scope';
import { audienceUsers, checkAudience, homeOrganization, organizationCodesSchema, requireView, roleCodesSchema, type Audience } from './audience';

/**
 * 消息维护: notifications the platform's and the tenants' administrators write for the bell of
 * the main frame: a title, an HTML body (sanitised on save), the tab it goes to (1 日常阅读,
 * 2 系统消息) and its audience (everyone under the organisation it is written under, some of its
 * organisations, or the holders of some roles). A draft is edited and deleted freely; publishing
 * delivers it once into the recipients' notification lists (the frame's own tables) and fixes it.
 */

const VIEW = 'messageMaintenance/list';
const CODE_PREFIX = 'XX';
export const EMPTY_AUDIENCE = '所选范围内没有可接收消息的用户';
export const PUBLISHED_REFUSES = '消息已发布，不能修改或删除';

const MAINTAINED_STATES = ['draft', 'published'] as const;
const MAINTAINED_AUDIENCES = ['all', 'organization', 'role'] as const;
type MaintainedState = (typeof MAINTAINED_STATES)[number];
type MaintainedAudience = (typeof MAINTAINED_AUDIENCES)[number];
/** 1 and 2, the tabs a notification is shown under. */
const tabTypeSchema = schemaOf<NotificationTab>({ type: 'integer', enum: [1, 2] });

interface MaintainedRow {
  id: number;
  code: string;
  organization_code: string;
  organization_name: string;
  tab_type: number;
  title: string;
  body_html: string;
  body_text: string;
  audience_type: MaintainedAudience;
  audience_organizations: string[];
  audience_roles: string[];
  audience_names: string | null;
  state: MaintainedState;
  notification_id: number | null;
  recipient_count: number;
  read_count: number;
  created_by: string;
  created_at: Date;
  updated_at: Date;
  published_by: string | null;
  published_at: Date | null;
}

const SELECT = `m.id, m.code, m.organization_code, o.name AS organization_name, m.tab_type, m.title, m.body_html, m.body_text, m.audience_type,
  m.audience_organizations, m.audience_roles,
  CASE m.audience_type
    WHEN 'organization' THEN (SELECT string_agg(x.name, '、' ORDER BY x.sort, x.id) FROM organization x WHERE x.code = ANY(m.audience_organizations))
    WHEN 'role' THEN (SELECT string_agg(x.name, '、' ORDER BY x.sort, x.code) FROM role x WHERE x.code = ANY(m.audience_roles))
  END AS audience_names,
  m.state, m.notification_id, m.recipient_count,
  (SELECT count(*)::int FROM notification_recipient r WHERE r.notification_id = m.notification_id AND r.read_at IS NOT NULL) AS read_count,
  m.created_by, m.created_at, m.updated_at, m.published_by, m.published_at`;
const FROM = 'maintained_notification m JOIN organization o ON o.code = m.organization_code';

function excerpt(textBody: string): string {
  const flat = textBody.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}

function maintainedRecord(row: MaintainedRow) {
  const draft = row.state === 'draft';
  return {
    id: row.id,
    code: row.code,
    title: row.title,
    tabType: row.tab_type,
    body: row.body_html,
    summary: excerpt(row.body_text),
    audienceType: row.audience_type,
    organizationCodes: row.audience_organizations,
    roleCodes: row.audience_roles,
    audienceSummary: row.audience_type === 'all' ? `全体用户（${row.organization_name}）` : (row.audience_names ?? ''),
    state: row.state,
    recipientCount: row.recipient_count,
    readCount: row.read_count,
    unreadCount: Math.max(0, row.recipient_count - row.read_count),
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    createdBy: row.created_by,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
    publishedBy: row.published_by ?? '',
    publishTime: isoOrNull(row.published_at),
    canModify: draft,
    canDelete: draft,
    canPublish: draft,
  };
}

/**
 * The notifications, newest first (maintained_notification has no tenant column: scoped by its
 * organisation); the count and the page's choice of rows read it alone.
 */
const LISTING: Listing<MaintainedRow, ReturnType<typeof maintainedRecord>> = {
  from: FROM,
  narrowFrom: 'maintained_notification m',
  key: 'm.id',
  columns: SELECT,
  sorts: { createTime: 'm.created_at', updateTime: 'm.updated_at', publishTime: 'm.published_at', title: 'm.title', recipientCount: 'm.recipient_count' },
  fallback: 'm.created_at DESC, m.id DESC',
  record: maintainedRecord,
};

/** The notification `code` within the working organisations; "404" 消息不存在 otherwise. */
async function findMaintained(db: Queryable, organizations: readonly string[], code: string, lock = false): Promise<MaintainedRow> {
  const clause = new Conditions().add('m.code = $?', code).add('m.organization_code = ANY($?::text[])', [...organizations]);
  const [row] = await db.query<MaintainedRow>(`SELECT ${SELECT} FROM ${FROM} WHERE ${clause.sql}${lock ? ' FOR UPDATE OF m' : ''}`, clause.params);
  if (!row) throw fail.notFound('消息不存在');
  return row;
}

const codeSchema = schemaOf<string>({ type: 'string', pattern: '^XX[0-9]{13,16}$' });
const fieldsSchema = objectOf(
  {
    title: plainText(NOTIFICATION_TITLE_MAX),
    tabType: tabTypeSchema,
    audienceType: enumOf(MAINTAINED_AUDIENCES),
    organizationCodes: organizationCodesSchema,
    roleCodes: roleCodesSchema,
    body: text(NOTIFICATION_BODY_MAX, 1),
  },
  ['title', 'tabType', 'audienceType', 'body'],
);
type MaintainedFields = ParamOf<typeof fieldsSchema>;

interface CheckedFields {
  title: string;
  tabType: NotificationTab;
  audience: Audience;
  bodyHtml: string;
  bodyText: string;
}

/** The organisations a notification written under `owner` may reach: that organisation and below. */
async function reachOf(db: Queryable, owner: string): Promise<string[]> {
  return (await organizationsWithin(db, [owner])).map((org) => org.code);
}

/**
 * The fields cleaned and checked: the body sanitised (and not empty once it is), the audience
 * within the owner organisation and reaching somebody ("409" otherwise).
 */
async function checkFields(db: Queryable, owner: string, fields: MaintainedFields): Promise<CheckedFields> {
  const bodyHtml = sanitizeHtml(fields.body);
  const bodyText = textOfHtml(bodyHtml);
  if (!bodyText.trim() && !/<img\b/i.test(bodyHtml)) throw fail.badRequest('参数错误：body（内容不能为空）');
  const within = await reachOf(db, owner);
  const audience = await checkAudience(
    db,
    within,
    { type: fields.audienceType, organizationCodes: fields.organizationCodes, roleCodes: fields.roleCodes },
    await tenantOf(db, owner),
  );
  if ((await audienceUsers(db, within, audience)).length === 0) throw fail.conflict(EMPTY_AUDIENCE);
  return { title: fields.title.trim(), tabType: fields.tabType, audience, bodyHtml, bodyText };
}

async function scopeOf(context: OperationContext<unknown>): Promise<string[]> {
  await requireView(context, VIEW);
  return workingOrganizations(context);
}

const codeParam = objectOf({ code: codeSchema }, ['code']);

export const maintenanceOperations = [
  defineOperation('notification.maintenance.page', {
    paramSchema: objectOf({
      keyword: text(64),
      state: enumOf(MAINTAINED_STATES),
      tabType: tabTypeSchema,
      audienceType: enumOf(MAINTAINED_AUDIENCES),
      createTime: timeRange,
    }),
    handler: async (context) => {
      await scopeOf(context);
      const filter = context.param;
      const where = new Conditions()
        .scope(await organizationScope(context), 'm')
        .when(filter.keyword?.trim(), '(m.title ILIKE $? OR m.body_text ILIKE $? OR m.code ILIKE $?)', (keyword) => containing(String(keyword)))
        .when(filter.state, 'm.state = $?')
        .when(filter.tabType, 'm.tab_type = $?')
        .when(filter.audienceType, 'm.audience_type = $?');
      addTimeRange(where, 'm.created_at', filter.createTime, 'createTime', context.config.timeZone);
      return pageOf(context, LISTING, where);
    },
  }),

  defineOperation('notification.maintenance.detail', {
    paramSchema: codeParam,
    handler: async (context) => {
      const row = await findMaintained(context.db, await scopeOf(context), context.param.code);
      const record = maintainedRecord(row);
      if (row.state === 'published') return record;
      // A draft shows whom it would reach if it were published now.
      const within = await reachOf(context.db, row.organization_code);
      const reach = await audienceUsers(context.db, within, { type: row.audience_type, organizationCodes: row.audience_organizations, roleCodes: row.audience_roles });
      return { ...record, recipientCount: reach.length };
    },
  }),

  defineOperation('notification.maintenance.insert', {
    paramSchema: objectOf({ notification: fieldsSchema }, ['notification']),
    handler: async (context) => {
      const organizations = await scopeOf(context);
      const owner = homeOrganization(context);
      if (!organizations.includes(owner)) throw fail.forbidden();
      const fields = await checkFields(context.db, owner, context.param.notification);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const [{ id }] = await tx.query<{ id: number }>("SELECT nextval(pg_get_serial_sequence('maintained_notification', 'id'))::int AS id");
        const code = workCode(CODE_PREFIX, id, context.now, context.config.timeZone);
        await tx.query(
          `INSERT INTO maintained_notification (id, code, organization_code, tab_type, title, body_html, body_text, audience_type, audience_organizations,
                                                audience_roles, state, created_by, created_at, updated_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, 'draft', $11, $12, $12)`,
          [
            id,
            code,
            owner,
            fields.tabType,
            fields.title,
            fields.bodyHtml,
            fields.bodyText,
            fields.audience.type,
            [...(fields.audience.organizationCodes ?? [])],
            [...(fields.audience.roleCodes ?? [])],
            caller.loginName,
            context.now,
          ],
        );
        return { code };
      });
    },
  }),

  defineOperation('notification.maintenance.modify', {
    paramSchema: objectOf({ code: codeSchema, notification: fieldsSchema }, ['code', 'notification']),
    handler: async (context) => {
      const organizations = await scopeOf(context);
      return context.db.transaction(async (tx) => {
        const row = await findMaintained(tx, organizations, context.param.code, true);
        if (row.state !== 'draft') throw fail.conflict(PUBLISHED_REFUSES);
        const fields = await checkFields(tx, row.organization_code, context.param.notification);
        await tx.query(
          `UPDATE maintained_notification SET tab_type = $2, title = $3, body_html = $4, body_text = $5, audience_type = $6, audience_organizations = $7,
                  audience_roles = $8, updated_at = $9
            WHERE id = $1`,
          [
            row.id,
            fields.tabType,
            fields.title,
            fields.bodyHtml,
            fields.bodyText,
            fields.audience.type,
            [...(fields.audience.organizationCodes ?? [])],
            [...(fields.audience.roleCodes ?? [])],
            context.now,
          ],
        );
        return { code: row.code };
      });
    },
  }),

  defineOperation('notification.maintenance.delete', {
    paramSchema: codeParam,
    handler: async (context) => {
      const organizations = await scopeOf(context);
      return context.db.transaction(async (tx) => {
        const row = await findMaintained(tx, organizations, context.param.code, true);
        if (row.state !== 'draft') throw fail.conflict(PUBLISHED_REFUSES);
        await tx.query('DELETE FROM maintained_notification WHERE id = $1', [row.id]);
        return { code: row.code };
      });
    },
  }),

  defineOperation('notification.maintenance.publish', {
    paramSchema: codeParam,
    handler: async (context) => {
      const organizations = await scopeOf(context);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const row = await findMaintained(tx, organizations, context.param.code, true);
        if (row.state !== 'draft') throw fail.conflict('消息已发布，不能重复发布');
        const within = await reachOf(tx, row.organization_code);
        const recipients = await audienceUsers(tx, within, { type: row.audience_type, organizationCodes: row.audience_organizations, roleCodes: row.audience_roles });
        if (recipients.length === 0) throw fail.conflict(EMPTY_AUDIENCE);
        const notificationId = await saveNotification(tx, {
          tabType: row.tab_type === 2 ? 2 : 1,
          title: row.title,
          bodyHtml: row.body_html,
          recipientUserIds: recipients.map((user) => user.id),
          createdAt: context.now,
        });
        const published = await tx.query<{ id: number }>(
          `UPDATE maintained_notification SET state = 'published', notification_id = $2, recipient_count = $3, published_by = $4, published_at = $5, updated_at = $5
            WHERE id = $1 AND state = 'draft' RETURNING id`,
          [row.id, notificationId, recipients.length, caller.loginName, context.now],
        );
        if (published.length === 0) throw fail.conflict('消息已发布，不能重复发布');
        return { code: row.code, recipientCount: recipients.length };
      });
    },
  }),
];
