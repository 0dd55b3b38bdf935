import type { SqlParam } from '../../db/database';
import { fail } from '../../http/envelope';
import { spreadsheet } from '../../http/spreadsheet';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, schemaOf, text, type ParamOf, pickedRangeOf, plainText, timeRange } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../../core/listQuery';
import { actorOf, idSchema, organizationClause, organizationWithin, workScope, type WorkScope } from './workScope';

/**
 * Feedback of the app's users ("APP反馈") and from other channels ("其他反馈"), answered by the
 * staff of the organisation it came from (or by platform staff). A reply is plain text and final:
 * answered feedback is not answered again.
 */

const TYPES = ['app', 'other'] as const;
const STATES = ['pending', 'replied'] as const;
const MAX_BATCH = 200;
const CODE_PATTERN = '^FB[0-9]{8,16}$';

interface FeedbackRow {
  id: number;
  code: string;
  feedback_type: string;
  organization_code: string;
  organization_name: string;
  user_name: string;
  contact: string;
  app_version: string;
  phone_model: string;
  channel: string;
  content: string;
  images: string[];
  state: string;
  reply: string | null;
  replied_by: string | null;
  replied_at: Date | null;
  created_at: Date;
}

const COLUMNS = `f.id, f.code, f.feedback_type, f.organization_code, o.name AS organization_name, f.user_name, f.contact, f.app_version, f.phone_model,
  f.channel, f.content, f.images, f.state, f.reply, f.replied_by, f.replied_at, f.created_at`;
const FROM = 'feedback f JOIN organization o ON o.code = f.organization_code';
const SELECT = `SELECT ${COLUMNS} FROM ${FROM}`;

function toRecord(row: FeedbackRow) {
  return {
    id: row.id,
    code: row.code,
    feedbackType: row.feedback_type,
    organizationCode: row.organization_code,
    organizationName: row.organization_name,
    userName: row.user_name,
    contact: row.contact,
    appVersion: row.app_version,
    phoneModel: row.phone_model,
    channel: row.channel,
    content: row.content,
    images: row.images,
    imageCount: row.images.length,
    firstImage: row.images[0] ?? '',
    state: row.state,
    reply: row.reply ?? '',
    repliedBy: row.replied_by ?? '',
    replyTime: row.replied_at ? row.replied_at.toISOString() : '',
    createTime: row.created_at.toISOString(),
  };
}

const filterSchema = objectOf({
  feedbackType: enumOf(TYPES),
  state: enumOf(STATES),
  keyword: text(64),
  organizationCode: text(64),
  timeRange,
});
type FeedbackFilter = ParamOf<typeof filterSchema>;

/** The WHERE of the list: the scope (feedback's tenant_code is always its organisation's tenant) and the filter. */
async function where(context: OperationContext<unknown>, scope: WorkScope, filter: FeedbackFilter): Promise<Conditions> {
  const where = new Conditions().scope(scope, 'f', { tenant: 'tenant_code' });
  if (filter.feedbackType) where.add('f.feedback_type = $?', filter.feedbackType);
  if (filter.state) where.add('f.state = $?', filter.state);
  if (filter.keyword) where.add('(f.code ILIKE $? OR f.content ILIKE $? OR f.user_name ILIKE $? OR f.contact ILIKE $?)', containing(filter.keyword));
  if (filter.organizationCode) where.add('f.organization_code = ANY($?::text[])', await organizationWithin(context.db, scope, filter.organizationCode));
  if (filter.timeRange) {
    const [from, to] = pickedRangeOf(filter.timeRange, context.config.timeZone);
    where.add('f.created_at >= $?', from).add('f.created_at <= $?', to);
  }
  return where;
}

const SORTS = { createTime: 'f.created_at', replyTime: 'f.replied_at', code: 'f.code', state: 'f.state' };

/** The feedback list: counted and chosen over feedback alone, the organisation's name joined for the page's rows. */
function feedbackListing<Item>(record: (row: FeedbackRow) => Item): Listing<FeedbackRow, Item> {
  return { from: FROM, narrowFrom: 'feedback f', key: 'f.id', columns: COLUMNS, sorts: SORTS, fallback: 'f.id DESC', record };
}

async function listWhere(context: OperationContext<FeedbackFilter>): Promise<Conditions> {
  return where(context, await workScope(context), context.param);
}

/** The feedback items with these ids or codes within the scope ("404" 反馈不存在 when any is not). */
async function findFeedback(context: OperationContext<unknown>, key: { ids: readonly number[] } | { codes: readonly string[] }): Promise<FeedbackRow[]> {
  const params: SqlParam[] = ['ids' in key ? [...key.ids] : [...key.codes]];
  const match = 'ids' in key ? 'f.id = ANY($1::int[])' : 'f.code = ANY($1::text[])';
  const rows = await context.db.query<FeedbackRow>(`${SELECT} WHERE ${match} AND ${organizationClause(await workScope(context), params, 'f')}`, params);
  if (rows.length !== ('ids' in key ? key.ids.length : key.codes.length)) throw fail.notFound('反馈不存在');
  return rows;
}

const replySchema = plainText(500);

export const feedbackOperations = [
  defineOperation('device.feedback.page', {
    paramSchema: filterSchema,
    handler: async (context) => pageOf(context, feedbackListing(toRecord), await listWhere(context)),
  }),

  defineOperation('device.feedback.detail', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => toRecord((await findFeedback(context, { ids: [context.param.id] }))[0]),
  }),

  defineOperation('device.feedback.reply', {
    paramSchema: objectOf({ id: idSchema, reply: replySchema }, ['id', 'reply']),
    handler: async (context) => {
      const [row] = await findFeedback(context, { ids: [context.param.id] });
      if (row.state === 'replied') throw fail.conflict('该反馈已回复');
      const updated = await context.db.query<{ id: number }>(
        "UPDATE feedback SET state = 'replied', reply = $2, replied_by = $3, replied_at = $4 WHERE id = $1 AND state = 'pending' RETURNING id",
        [row.id, context.param.reply.trim(), actorOf(context), context.now],
      );
      if (updated.length === 0) throw fail.conflict('该反馈已回复');
      return null;
    },
  }),

  // By code: the list selects rows by their feedback code.
  defineOperation('device.feedback.batchReply', {
    paramSchema: objectOf({ codes: schemaOf<string[]>({ type: 'array', minItems: 1, maxItems: MAX_BATCH, uniqueItems: true, items: { type: 'string', pattern: CODE_PATTERN } }), reply: replySchema }, ['codes', 'reply']),
    handler: async (context) => {
      const rows = await findFeedback(context, { codes: context.param.codes });
      const pending = rows.filter((row) => row.state === 'pending').map((row) => row.id);
      if (pending.length === 0) throw fail.conflict('所选反馈均已回复');
      const updated = await context.db.query<{ id: number }>(
        "UPDATE feedback SET state = 'replied', reply = $2, replied_by = $3, replied_at = $4 WHERE id = ANY($1::int[]) AND state = 'pending' RETURNING id",
        [pending, context.param.reply.trim(), actorOf(context), context.now],
      );
      // What was really replied to counts: a reply at the same time may have taken some.
      if (updated.length === 0) throw fail.conflict('所选反馈均已回复');
      return { replied: updated.length, skipped: rows.length - updated.length };
    },
  }),

  defineOperation('device.feedback.export', {
    paramSchema: filterSchema,
    handler: async (context) => {
      const rows = await exportOf(context, feedbackListing((row) => row), await listWhere(context));
      const title = context.param.feedbackType === 'app' ? 'APP反馈' : context.param.feedbackType === 'other' ? '其他反馈' : '意见反馈';
      return spreadsheet(
        title,
        [
          { title: '反馈编号', value: (r: FeedbackRow) => r.code, width: 20 },
          { title: '反馈类型', value: (r) => (r.feedback_type === 'app' ? 'APP反馈' : '其他反馈') },
          { title: '反馈人', value: (r) => r.user_name },
          { title: '联系方式', value: (r) => r.contact },
          { title: '所属组织', value: (r) => r.organization_name, width: 24 },
          { title: 'APP版本', value: (r) => r.app_version },
          { title: '手机型号', value: (r) => r.phone_model },
          { title: '来源渠道', value: (r) => r.channel },
          { title: '反馈内容', value: (r) => r.content, width: 48 },
          { title: '状态', value: (r) => (r.state === 'replied' ? '已回复' : '待回复') },
          { title: '回复内容', value: (r) => r.reply ?? '', width: 48 },
          { title: '回复人', value: (r) => r.replied_by ?? '' },
          { title: '回复时间', value: (r) => r.replied_at },
          { title: '反馈时间', value: (r) => r.created_at },
        ],
        rows,
        context.now,
        context.config.timeZone,
      );
    },
  }),
];
