import { fail } from '../../http/envelope';
import { exportFile } from '../../core/exports';
import { defineOperation } from '../../core/operation';
import { enumOf, objectOf, schemaOf, text, plainText } from '../../core/params';
import type { OperationContext } from '../../core/context';
import { Conditions } from '../../core/listQuery';
import { between, column, contains, custom, derived, equals, listing, pickedRange, textColumn, timeColumn, type ItemOf } from '../../core/listing';
import { actorOf, idSchema, organizationClause, organizationWithin, timeCell, workScope } from './workScope';

/**
 * Feedback of the app's users ("APP反馈") and from other channels ("其他反馈"), answered by the
 * staff of the organisation it came from (or by platform staff). A reply is plain text and final:
 * answered feedback is not answered again.
 */

const TYPES = ['app', 'other'] as const;
const STATES = ['pending', 'replied'] as const;
const MAX_BATCH = 200;
const CODE_PATTERN = '^FB[0-9]{8,16}$';

/** The feedback list: counted and chosen over feedback alone, the organisation's name joined for the page's rows. */
const FEEDBACK = listing({
  from: 'feedback f JOIN organization o ON o.code = f.organization_code',
  narrowFrom: 'feedback f',
  key: 'f.id',
  // feedback's tenant_code is always its organisation's tenant.
  scope: async (where, context) => where.scope(await workScope(context), 'f', { tenant: 'tenant_code' }),
  filters: {
    feedbackType: equals('f.feedback_type', enumOf(TYPES)),
    state: equals('f.state', enumOf(STATES)),
    keyword: contains(['f.code', 'f.content', 'f.user_name', 'f.contact'], text(64)),
    organizationCode: custom(text(64), async (where, code, context) => void where.add('f.organization_code = ANY($?::text[])', await organizationWithin(context.db, await workScope(context), code))),
    timeRange: between('f.created_at', pickedRange),
  },
  columns: {
    id: column<number>('f.id'),
    code: column<string>('f.code'),
    feedbackType: column<string>('f.feedback_type'),
    organizationCode: column<string>('f.organization_code'),
    organizationName: column<string>('o.name'),
    userName: column<string>('f.user_name'),
    contact: column<string>('f.contact'),
    appVersion: column<string>('f.app_version'),
    phoneModel: column<string>('f.phone_model'),
    channel: column<string>('f.channel'),
    content: column<string>('f.content'),
    images: column<string[]>('f.images'),
    imageCount: derived((row) => (row.images as string[]).length),
    firstImage: derived((row) => (row.images as string[])[0] ?? ''),
    state: column<string>('f.state'),
    reply: textColumn('f.reply'),
    repliedBy: textColumn('f.replied_by'),
    replyTime: timeColumn('f.replied_at'),
    createTime: timeColumn('f.created_at'),
  },
  sorts: { createTime: 'f.created_at', replyTime: 'f.replied_at', code: 'f.code', state: 'f.state' },
  fallback: 'f.id DESC',
});

/** The feedback items with these ids or codes within the scope ("404" 反馈不存在 when any is not). */
async function findFeedback(context: OperationContext<unknown>, key: { ids: readonly number[] } | { codes: readonly string[] }) {
  const where = 'ids' in key ? new Conditions().add('f.id = ANY($?::int[])', [...key.ids]) : new Conditions().add('f.code = ANY($?::text[])', [...key.codes]);
  where.add(organizationClause(await workScope(context), where.params, 'f'));
  const rows = await FEEDBACK.findAll(context, where);
  if (rows.length !== ('ids' in key ? key.ids.length : key.codes.length)) throw fail.notFound('反馈不存在');
  return rows;
}

type FeedbackRecord = ItemOf<typeof FEEDBACK>;

const replySchema = plainText(500);

export const feedbackOperations = [
  defineOperation('device.feedback.page', {
    paramSchema: FEEDBACK.paramSchema,
    handler: (context) => FEEDBACK.page(context),
  }),

  defineOperation('device.feedback.detail', {
    paramSchema: objectOf({ id: idSchema }, ['id']),
    handler: async (context) => (await findFeedback(context, { ids: [context.param.id] }))[0],
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
    paramSchema: FEEDBACK.paramSchema,
    handler: async (context) => {
      const rows = await FEEDBACK.rows(context);
      const title = context.param.feedbackType === 'app' ? 'APP反馈' : context.param.feedbackType === 'other' ? '其他反馈' : '意见反馈';
      return exportFile(
        context,
        title,
        [
          { title: '反馈编号', value: (r: FeedbackRecord) => r.code, width: 20 },
          { title: '反馈类型', value: (r) => (r.feedbackType === 'app' ? 'APP反馈' : '其他反馈') },
          { title: '反馈人', value: (r) => r.userName },
          { title: '联系方式', value: (r) => r.contact },
          { title: '所属组织', value: (r) => r.organizationName, width: 24 },
          { title: 'APP版本', value: (r) => r.appVersion },
          { title: '手机型号', value: (r) => r.phoneModel },
          { title: '来源渠道', value: (r) => r.channel },
          { title: '反馈内容', value: (r) => r.content, width: 48 },
          { title: '状态', value: (r) => (r.state === 'replied' ? '已回复' : '待回复') },
          { title: '回复内容', value: (r) => r.reply, width: 48 },
          { title: '回复人', value: (r) => r.repliedBy },
          { title: '回复时间', value: (r) => timeCell(r.replyTime) },
          { title: '反馈时间', value: (r) => timeCell(r.createTime) },
        ],
        rows,
      );
    },
  }),
];
