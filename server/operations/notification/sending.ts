import type { Queryable } from '../../db/database';
import { parseBusinessTime } from '../../domain/businessTime';
import { ADDRESS_OF, CHANNEL_TYPES, deliver, framedMessage, isRobot, messageTime, renderTemplate, type ChannelType } from '../../domain/notificationChannels';
import { USER_STATUS } from '../../domain/users';
import { workCode } from '../../domain/workOrders';
import { fail } from '../../http/envelope';
import { TIME_PATTERN, enumOf, objectOf, schemaOf, text, plainText, integerIn, orBlank, textMatching } from '../../core/params';
import { workingOrganizations } from '../../core/access';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { containing } from '../../core/listQuery';
import { between, column, contains, custom, equals, listing, orderedRange, textColumn, timeColumn } from '../../core/listing';
import { isoOrNull } from '../../core/values';
import { organizationScope } from '../../core/scope';
import { audienceSummary, audienceUsers, channelTenant, checkAudience, homeOrganization, organizationCodesSchema, requireView, roleCodesSchema, userIdsSchema } from './audience';
import { DISABLED_REFUSES, findUsableChannel, requireVariables, variableMap, variablesSchema, type ChannelRow } from './channels';
import { EMPTY_AUDIENCE } from './maintenance';

/**
 * 消息发送: a message sent through an enabled channel to users picked one by one, by
 * organisation or by role. The channel's template is rendered for each recipient (${姓名},
 * ${标题}, ${内容}, ${时间} and the sender's own variables) and delivered to the outbox: a phone
 * for SMS and voice, a mail, a WeChat openId, or a robot's chat (one message @-mentioning the
 * recipients by phone). Each recipient is recorded with its state: pending until a scheduled
 * send is due, sent, or failed with the reason (no address to reach them, the channel disabled
 * meanwhile); a failed one can be sent again. Due scheduled sends go out at the next request to
 * this view (the reference server's scheduler).
 */

const VIEW = 'send/list';
const CODE_PREFIX = 'FS';
/** How far ahead a send may be scheduled. */
const MAX_SCHEDULE_DAYS = 30;
const DAY_MS = 86_400_000;

const SEND_STATES = ['pending', 'sent', 'failed'] as const;
type SendState = (typeof SEND_STATES)[number];

interface SendRow {
  id: number;
  code: string;
  channel_id: number | null;
  title: string;
  content: string;
  variables: Record<string, string>;
  scheduled_at: Date;
}

interface RecipientRow {
  id: number;
  user_id: number | null;
  user_name: string;
}

interface ChannelState {
  id: number;
  channel_type: ChannelType;
  enabled: boolean;
  template: string;
  settings: ChannelRow['settings'];
  /** The owning tenant (null: the platform's): the delivery log lists a tenant's own messages. */
  tenant_code: string | null;
}

interface CurrentUser {
  id: number;
  user_name: string;
  status: number;
  phone: string | null;
  mail: string | null;
  wechat_open_id: string | null;
}

export interface DeliveryOutcome {
  sent: number;
  failed: number;
  /** The reasons of the failures, by recipient row id. */
  reasons: Map<number, string>;
}

/**
 * Delivers one send to some of its recipients (pending ones, or a failed one sent again):
 * each is sent to the address their profile holds now, or failed with the reason.
 */
async function deliverSend(db: Queryable, send: SendRow, recipients: readonly RecipientRow[], now: Date, timeZone: string, log: (line: string) => void): Promise<DeliveryOutcome> {
  const outcome: DeliveryOutcome = { sent: 0, failed: 0, reasons: new Map() };
  const failRow = async (row: RecipientRow, reason: string) => {
    await db.query(`UPDATE notification_send_recipient SET state = 'failed', fail_reason = $2, attempts = attempts + 1, updated_at = $3 WHERE id = $1`, [row.id, reason, now]);
    outcome.failed += 1;
    outcome.reasons.set(row.id, reason);
  };
  const [channel] = send.channel_id === null ? [] : await db.query<ChannelState>('SELECT id, channel_type, enabled, template, settings, tenant_code FROM notification_channel WHERE id = $1', [send.channel_id]);
  if (!channel || !channel.enabled) {
    for (const row of recipients) await failRow(row, channel ? '发送时渠道已停用' : '通知渠道已删除');
    return outcome;
  }
  const ids = recipients.flatMap((row) => (row.user_id === null ? [] : [row.user_id]));
  const users = new Map((await db.query<CurrentUser>('SELECT id, user_name, status, phone, mail, wechat_open_id FROM app_user WHERE id = ANY($1::int[])', [ids])).map((user) => [user.id, user]));
  const type = channel.channel_type;
  const values = { ...send.variables, 标题: send.title, 内容: send.content, 时间: messageTime(send.scheduled_at > now ? send.scheduled_at : now, timeZone) };
  const reached: Array<{ row: RecipientRow; user: CurrentUser; address: string }> = [];
  for (const row of recipients) {
    const user = row.user_id === null ? undefined : users.get(row.user_id);
    if (!user || user.status !== USER_STATUS.active) {
      await failRow(row, '接收人已停用或已删除');
      continue;
    }
    const address = user[ADDRESS_OF[type].column];
    if (!address) await failRow(row, ADDRESS_OF[type].missing);
    else reached.push({ row, user, address });
  }
  if (reached.length === 0) return outcome;
  const markSent = async (row: RecipientRow, address: string, message: string) => {
    await db.query(`UPDATE notification_send_recipient SET state = 'sent', fail_reason = '', address = $2, message = $3, attempts = attempts + 1, sent_at = $4, updated_at = $4 WHERE id = $1`, [
      row.id,
      address,
      message,
      now,
    ]);
    outcome.sent += 1;
  };
  if (isRobot(type)) {
    // One message in the robot's chat, @-mentioning everyone it is for by phone.
    const text = renderTemplate(channel.template, { ...values, 姓名: reached.map((r) => r.user.user_name).join('、') });
    const message = `${text}\n${reached.map((r) => `@${r.address}`).join(' ')}`;
    await deliver(db, { type, target: channel.settings.webhook ?? '', content: message, at: now, tenantCode: channel.tenant_code, channelId: channel.id }, log);
    for (const { row, address } of reached) await markSent(row, address, message);
    return outcome;
  }
  for (const { row, user, address } of reached) {
    const message = framedMessage(type, channel.settings, renderTemplate(channel.template, { ...values, 姓名: user.user_name }));
    await deliver(db, { type, target: address, content: message, at: now, tenantCode: channel.tenant_code, channelId: channel.id }, log);
    await markSent(row, address, message);
  }
  return outcome;
}

/** Sends every scheduled message that has come due (the scheduler, run at each request here). */
export async function dispatchDue(db: Queryable, now: Date, timeZone: string, log: (line: string) => void): Promise<void> {
  const due = await db.query<SendRow>(
    `SELECT s.id, s.code, s.channel_id, s.title, s.content, s.variables, s.scheduled_at FROM notification_send s
      WHERE s.scheduled_at <= $1 AND EXISTS (SELECT 1 FROM notification_send_recipient r WHERE r.send_id = s.id AND r.state = 'pending')
      ORDER BY s.scheduled_at, s.id`,
    [now],
  );
  for (const send of due) {
    // Locked, and those another request is sending right now skipped: each recipient is sent to once.
    const recipients = await db.query<RecipientRow>(
      `SELECT id, user_id, user_name FROM notification_send_recipient WHERE send_id = $1 AND state = 'pending' ORDER BY id FOR UPDATE SKIP LOCKED`,
      [send.id],
    );
    if (recipients.length === 0) continue;
    await deliverSend(db, send, recipients, now, timeZone, log);
  }
}

async function scopeOf(context: OperationContext<unknown>): Promise<string[]> {
  await requireView(context, VIEW);
  const organizations = await workingOrganizations(context);
  await context.db.transaction((tx) => dispatchDue(tx, context.now, context.config.timeZone, context.log));
  return organizations;
}

/**
 * One row per recipient of the sends (notification_send has no tenant column: scoped by its
 * organisation); the count and the page's choice of rows leave out the channel (its code is shown).
 * Due scheduled sends go out first.
 */
const SENDS = listing({
  from: 'notification_send_recipient r JOIN notification_send s ON s.id = r.send_id LEFT JOIN notification_channel c ON c.id = s.channel_id',
  narrowFrom: 'notification_send_recipient r JOIN notification_send s ON s.id = r.send_id',
  key: 'r.id',
  scope: async (where, context) => {
    await scopeOf(context);
    where.scope(await organizationScope(context), 's');
  },
  filters: {
    keyword: contains(['s.title', 's.content', 'r.user_name', 'r.address', 's.code'], text(64), { trim: true }),
    state: equals('r.state', enumOf(SEND_STATES)),
    channelType: equals('s.channel_type', enumOf(CHANNEL_TYPES)),
    sendCode: custom(text(32), (where, code) => void where.when(code.trim(), 's.code = $?')),
    createTime: between('s.created_at', orderedRange),
  },
  columns: {
    id: column<number>('r.id'),
    sendCode: column<string>('s.code'),
    channelCode: textColumn('c.code'),
    channelType: column<ChannelType>('s.channel_type'),
    channelName: column<string>('s.channel_name'),
    title: column<string>('s.title'),
    content: column<string>('s.content'),
    message: column<string>('r.message'),
    audienceType: column<string>('s.audience_type'),
    audienceSummary: column<string>('s.audience_summary'),
    userId: column<number | null>('r.user_id'),
    recipientName: column<string>('r.user_name'),
    address: column<string>('r.address'),
    state: column<SendState>('r.state'),
    failReason: column<string>('r.fail_reason'),
    attempts: column<number>('r.attempts'),
    scheduledTime: timeColumn('s.scheduled_at'),
    sentTime: column('r.sent_at', isoOrNull),
    createdBy: column<string>('s.created_by'),
    createTime: timeColumn('s.created_at'),
    updateTime: timeColumn('r.updated_at'),
    canResend: column('r.state', (state: SendState) => state === 'failed'),
  },
  sorts: { createTime: 's.created_at', scheduledTime: 's.scheduled_at', sentTime: 'r.sent_at', recipientName: 'r.user_name', attempts: 'r.attempts' },
  fallback: 's.created_at DESC, r.id',
});

const sendFieldsSchema = objectOf(
  {
    channelCode: schemaOf<string>({ type: 'string', pattern: '^QD[0-9]{6,10}$' }),
    title: plainText(64),
    content: plainText(500),
    audienceType: enumOf(['user', 'organization', 'role']),
    userIds: userIdsSchema,
    organizationCodes: organizationCodesSchema,
    roleCodes: roleCodesSchema,
    variables: variablesSchema,
    sendTime: orBlank(textMatching(32, TIME_PATTERN)),
  },
  ['channelCode', 'title', 'content', 'audienceType'],
);

/** When a send goes out: now, or a later time within MAX_SCHEDULE_DAYS ("400" otherwise). */
function scheduleOf(sendTime: string | null | undefined, now: Date, timeZone: string): Date {
  if (!sendTime) return now;
  const at = parseBusinessTime(sendTime, timeZone);
  if (Number.isNaN(at.getTime())) throw fail.badField('sendTime');
  // A minute's grace: the time picked in the form may just have passed.
  if (at.getTime() < now.getTime() - 60_000) throw fail.badRequest('参数错误：sendTime（定时发送时间不能早于当前时间）');
  if (at.getTime() > now.getTime() + MAX_SCHEDULE_DAYS * DAY_MS) throw fail.badRequest(`参数错误：sendTime（最多提前 ${MAX_SCHEDULE_DAYS} 天定时发送）`);
  return at < now ? now : at;
}

export const sendingOperations = [
  defineOperation('notification.send.page', {
    paramSchema: SENDS.paramSchema,
    handler: (context) => SENDS.page(context),
  }),

  /** The users a message may be sent to: the active users of the working organisations. */
  defineOperation('notification.recipient.list', {
    paramSchema: objectOf({ keyword: text(64) }),
    handler: async (context) => {
      await requireView(context, VIEW);
      const organizations = await workingOrganizations(context);
      const keyword = context.param.keyword?.trim();
      const rows = await context.db.query<{ id: number; user_name: string; login_name: string; organization_name: string; phone: string | null; mail: string | null; wechat_open_id: string | null }>(
        `SELECT u.id, u.user_name, u.login_name, min(o.name) AS organization_name, u.phone, u.mail, u.wechat_open_id
           FROM app_user u JOIN user_organization uo ON uo.user_id = u.id JOIN organization o ON o.code = uo.organization_code
          WHERE u.status = $1 AND uo.organization_code = ANY($2::text[]) AND ($3::text IS NULL OR u.user_name ILIKE $3 OR u.login_name ILIKE $3)
          GROUP BY u.id ORDER BY u.id LIMIT 500`,
        [USER_STATUS.active, organizations, keyword ? containing(keyword) : null],
      );
      return rows.map((row) => ({
        id: row.id,
        name: `${row.user_name}（${row.login_name}）`,
        userName: row.user_name,
        organizationName: row.organization_name,
        hasPhone: row.phone !== null,
        hasMail: row.mail !== null,
        hasWechat: row.wechat_open_id !== null,
      }));
    },
  }),

  defineOperation('notification.send.insert', {
    paramSchema: objectOf({ send: sendFieldsSchema }, ['send']),
    handler: async (context) => {
      const organizations = await scopeOf(context);
      const owner = homeOrganization(context);
      const tenantCode = await channelTenant(context);
      const fields = context.param.send;
      const scheduledAt = scheduleOf(fields.sendTime, context.now, context.config.timeZone);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const channel = await findUsableChannel(tx, tenantCode, fields.channelCode);
        if (!channel.enabled) throw fail.conflict(DISABLED_REFUSES);
        const variables = variableMap(fields.variables);
        requireVariables(channel.template, { ...variables, 姓名: '-', 标题: fields.title, 内容: fields.content, 时间: '-' });
        const audience = await checkAudience(tx, organizations, { type: fields.audienceType, userIds: fields.userIds, organizationCodes: fields.organizationCodes, roleCodes: fields.roleCodes }, tenantCode);
        const users = await audienceUsers(tx, organizations, audience);
        if (users.length === 0) throw fail.conflict(EMPTY_AUDIENCE);
        const [{ id }] = await tx.query<{ id: number }>("SELECT nextval(pg_get_serial_sequence('notification_send', 'id'))::int AS id");
        const code = workCode(CODE_PREFIX, id, context.now, context.config.timeZone);
        const send: SendRow = { id, code, channel_id: channel.id, title: fields.title.trim(), content: fields.content.trim(), variables, scheduled_at: scheduledAt };
        await tx.query(
          `INSERT INTO notification_send (id, code, organization_code, channel_id, channel_type, channel_name, title, content, variables, audience_type, audience_summary,
                                          scheduled_at, created_by, created_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9::jsonb, $10, $11, $12, $13, $14)`,
          [id, code, owner, channel.id, channel.channel_type, channel.name, send.title, send.content, JSON.stringify(variables), audience.type, await audienceSummary(tx, audience), scheduledAt, caller.loginName, context.now],
        );
        const recipients = await tx.query<RecipientRow>(
          `INSERT INTO notification_send_recipient (send_id, user_id, user_name, updated_at)
           SELECT $1, u.id, u.user_name, $3 FROM app_user u WHERE u.id = ANY($2::int[]) ORDER BY u.id
           RETURNING id, user_id, user_name`,
          [id, users.map((user) => user.id), context.now],
        );
        if (scheduledAt > context.now) return { code, total: recipients.length, sent: 0, failed: 0, pending: recipients.length };
        const outcome = await deliverSend(tx, send, recipients, context.now, context.config.timeZone, context.log);
        return { code, total: recipients.length, sent: outcome.sent, failed: outcome.failed, pending: 0 };
      });
    },
  }),

  defineOperation('notification.send.resend', {
    paramSchema: objectOf({ id: integerIn(1, 2_147_483_647) }, ['id']),
    handler: async (context) => {
      const organizations = await scopeOf(context);
      const outcome = await context.db.transaction(async (tx) => {
        const [row] = await tx.query<RecipientRow & { state: SendState; send_id: number }>(
          `SELECT r.id, r.user_id, r.user_name, r.state, r.send_id FROM notification_send_recipient r JOIN notification_send s ON s.id = r.send_id
            WHERE r.id = $1 AND s.organization_code = ANY($2::text[]) FOR UPDATE OF r`,
          [context.param.id, organizations],
        );
        if (!row) throw fail.notFound('发送记录不存在');
        if (row.state !== 'failed') throw fail.conflict('只有发送失败的消息可以重新发送');
        const [send] = await tx.query<SendRow>('SELECT id, code, channel_id, title, content, variables, scheduled_at FROM notification_send WHERE id = $1', [row.send_id]);
        const [channel] = send.channel_id === null ? [] : await tx.query<{ enabled: boolean }>('SELECT enabled FROM notification_channel WHERE id = $1', [send.channel_id]);
        if (!channel) throw fail.conflict('通知渠道已删除，无法重新发送');
        if (!channel.enabled) throw fail.conflict(DISABLED_REFUSES);
        return { id: row.id, result: await deliverSend(tx, send, [row], context.now, context.config.timeZone, context.log) };
      });
      // The attempt is recorded either way; a recipient still out of reach is told why.
      const reason = outcome.result.reasons.get(outcome.id);
      if (reason) throw fail.conflict(`重新发送失败：${reason}`);
      return { id: outcome.id, state: 'sent' };
    },
  }),
];
