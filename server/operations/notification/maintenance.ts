import type { Queryable } from '../../db/database';
import { sanitizeHtml, textOfHtml } from '../../domain/html';
import { NOTIFICATION_BODY_MAX, NOTIFICATION_TITLE_MAX, saveNotification, type NotificationTab } from '../../domain/notifications';
import { organizationsWithin, tenantOf } from '../../domain/organizations';
import { workCode } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { workingOrganizations } from '../../core/access';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, schemaOf, text, plainText, type ParamOf } from '../../core/params';
import { Conditions } from '../../core/listQuery';
import { between, column, contains, derived, equals, listing, orderedRange, textColumn, timeColumn, type ItemOf } from '../../core/listing';
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

function excerpt(textBody: string): string {
  const flat = textBody.replace(/\s+/g, ' ').trim();
  return flat.length > 80 ? `${flat.slice(0, 80)}…` : flat;
}

/** A draft is edited, deleted and published; a published notification is fixed. */
const whileDraft = derived((row) => row.state === 'draft');

/**
 * The notifications, newest first (maintained_notification has no tenant column: scoped by its
 * organisation); the count and the page's choice of rows read it alone.
 */
const MAINTAINED = listing({
  from: 'maintained_notification m JOIN organization o ON o.code = m.organization_code',
  narrowFrom: 'maintained_notification m',
  key: 'm.id',
  scope: async (where, context) => {
    await scopeOf(context);
    where.scope(await organizationScope(context), 'm');
  },
  filters: {
    keyword: contains(['m.title', 'm.body_text', 'm.code'], text(64), { trim: true }),
    state: equals('m.state', enumOf(MAINTAINED_STATES)),
    tabType: equals('m.tab_type', tabTypeSchema),
    audienceType: equals('m.audience_type', enumOf(MAINTAINED_AUDIENCES)),
    createTime: between('m.created_at', orderedRange),
  },
  columns: {
    id: column<number>('m.id'),
    code: column<string>('m.code'),
    title: column<string>('m.title'),
    tabType: column<number>('m.tab_type'),
    body: column<string>('m.body_html'),
    summary: column('m.body_text', excerpt),
    audienceType: column<MaintainedAudience>('m.audience_type'),
    organizationCodes: column<string[]>('m.audience_organizations'),
    roleCodes: column<string[]>('m.audience_roles'),
    audienceSummary: textColumn(`CASE m.audience_type
      WHEN 'all' THEN '全体用户（' || o.name || '）'
      WHEN 'organization' THEN (SELECT string_agg(x.name, '、' ORDER BY x.sort, x.id) FROM organization x WHERE x.code = ANY(m.audience_organizations))
      WHEN 'role' THEN (SELECT string_agg(x.name, '、' ORDER BY x.sort, x.code) FROM role x WHERE x.code = ANY(m.audience_roles))
    END`),
    state: column<MaintainedState>('m.state'),
    recipientCount: column<number>('m.recipient_count'),
    readCount: column<number>('(SELECT count(*)::int FROM notification_recipient r WHERE r.notification_id = m.notification_id AND r.read_at IS NOT NULL)'),
    unreadCount: derived((row) => Math.max(0, (row.recipientCount as number) - (row.readCount as number))),
    organizationCode: column<string>('m.organization_code'),
    organizationName: column<string>('o.name'),
    createdBy: column<string>('m.created_by'),
    createTime: timeColumn('m.created_at'),
    updateTime: timeColumn('m.updated_at'),
    publishedBy: textColumn('m.published_by'),
    publishTime: column('m.published_at', isoOrNull),
    canModify: whileDraft,
    canDelete: whileDraft,
    canPublish: whileDraft,
  },
  sorts: ['createTime', 'updateTime', 'publishTime', 'title', 'recipientCount'],
  fallback: 'm.created_at DESC, m.id DESC',
});
type MaintainedRecord = ItemOf<typeof MAINTAINED>;

/** The notification `code` within the working organisations; "404" 消息不存在 otherwise (locked in `db`'s transaction when asked). */
async function findMaintained(context: OperationContext<unknown>, organizations: readonly string[], code: string, db: Queryable = context.db, lock = false): Promise<MaintainedRecord> {
  const clause = new Conditions().add('m.code = $?', code).add('m.organization_code = ANY($?::text[])', [...organizations]);
  const found = await MAINTAINED.find(context, clause, lock ? ' FOR UPDATE OF m' : '', db);
  if (!found) throw fail.notFound('消息不存在');
  return found;
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

/** The checked fields as stored: tab_type, title, body_html, body_text, audience_type, audience_organizations, audience_roles. */
const storedFields = (fields: CheckedFields) => [
  fields.tabType,
  fields.title,
  fields.bodyHtml,
  fields.bodyText,
  fields.audience.type,
  [...(fields.audience.organizationCodes ?? [])],
  [...(fields.audience.roleCodes ?? [])],
];

async function scopeOf(context: OperationContext<unknown>): Promise<string[]> {
  await requireView(context, VIEW);
  return workingOrganizations(context);
}

const codeParam = objectOf({ code: codeSchema }, ['code']);

export const maintenanceOperations = [
  defineOperation('notification.maintenance.page', { paramSchema: MAINTAINED.paramSchema, handler: (context) => MAINTAINED.page(context) }),

  defineOperation('notification.maintenance.detail', {
    paramSchema: codeParam,
    handler: async (context) => {
      const record = await findMaintained(context, await scopeOf(context), context.param.code);
      if (record.state === 'published') return record;
      // A draft shows whom it would reach if it were published now.
      const within = await reachOf(context.db, record.organizationCode);
      const reach = await audienceUsers(context.db, within, { type: record.audienceType, organizationCodes: record.organizationCodes, roleCodes: record.roleCodes });
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
          [id, code, owner, ...storedFields(fields), caller.loginName, context.now],
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
        const row = await findMaintained(context, organizations, context.param.code, tx, true);
        if (row.state !== 'draft') throw fail.conflict(PUBLISHED_REFUSES);
        const fields = await checkFields(tx, row.organizationCode, context.param.notification);
        await tx.query(
          `UPDATE maintained_notification SET tab_type = $2, title = $3, body_html = $4, body_text = $5, audience_type = $6, audience_organizations = $7,
                  audience_roles = $8, updated_at = $9
            WHERE id = $1`,
          [row.id, ...storedFields(fields), context.now],
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
        const row = await findMaintained(context, organizations, context.param.code, tx, true);
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
        const row = await findMaintained(context, organizations, context.param.code, tx, true);
        if (row.state !== 'draft') throw fail.conflict('消息已发布，不能重复发布');
        const within = await reachOf(tx, row.organizationCode);
        const recipients = await audienceUsers(tx, within, { type: row.audienceType, organizationCodes: row.organizationCodes, roleCodes: row.roleCodes });
        if (recipients.length === 0) throw fail.conflict(EMPTY_AUDIENCE);
        const notificationId = await saveNotification(tx, {
          tabType: row.tabType === 2 ? 2 : 1,
          title: row.title,
          bodyHtml: row.body,
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
