import type { Queryable } from '../db/database';
import { ADDRESS_OF, CHANNEL_TYPES, deliverAll, framedMessage, isRobot, messageTime, renderTemplate, type ChannelSettings, type ChannelType, type OutboxMessage } from '../domain/notificationChannels';
import { USER_STATUS } from '../domain/users';

const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (character) => `&#${character.charCodeAt(0)};`);

/**
 * A raised alarm goes to the bell of the tenant's admins (a 系统消息) and through its rule's
 * channels (告警配置's 通知方式): for each channel type the
 * rule names, every enabled channel of that type the tenant configured in 发送配置 renders its
 * template (${标题}, ${内容}, ${时间}, ${姓名}) and delivers to the outbox, in the transaction that
 * raised the alarm: a robot (DingTalk, Feishu) once to its chat, a person channel (SMS, voice, mail,
 * WeChat) to each active tenant admin with that address. The outbox is sent after the transaction
 * commits (server/ingest/outboxDelivery.ts), so a channel can never slow or fail the report that
 * raised the alarm.
 */

interface ChannelRow {
  id: number;
  channel_type: ChannelType;
  settings: ChannelSettings;
  template: string;
}

interface AdminRow {
  id: number;
  user_name: string;
  phone: string | null;
  mail: string | null;
  wechat_open_id: string | null;
}

/** A raised alarm to be told: its rule's channels and tenant, and its text. */
export interface AlarmNotice {
  channels: readonly string[];
  tenantCode: string;
  title: string;
  content: string;
  /** When it was raised. */
  at: Date;
}

/**
 * Tells the raised alarms of one transaction (a batch of device reports, a sweep), in a few
 * statements whatever their number: the tenants' admins and channels read once, every bell
 * message, recipient and outbox row written in one statement each. Answers how many channel
 * messages went to the outbox.
 */
export async function notifyAlarms(tx: Queryable, alarms: readonly AlarmNotice[], timeZone: string, log: (line: string) => void): Promise<number> {
  if (alarms.length === 0) return 0;
  const tenants = [...new Set(alarms.map((alarm) => alarm.tenantCode))].sort();
  const adminRows = await tx.query<AdminRow & { tenant_code: string }>(
    `SELECT u.id, u.user_name, u.phone, u.mail, u.wechat_open_id, o.organization_code AS tenant_code FROM app_user u
       JOIN user_role r ON r.user_id = u.id AND r.role_code = 'TENANT_ADMIN'
       JOIN user_organization o ON o.user_id = u.id AND o.organization_code = ANY($1::text[])
      WHERE u.status = $2 ORDER BY u.id`,
    [tenants, USER_STATUS.active],
  );
  const adminsOf = (tenant: string) => adminRows.filter((admin) => admin.tenant_code === tenant);
  // The bell: a system message (系统消息) for each tenant admin, whatever the rule's channels.
  const belled = alarms.filter((alarm) => adminsOf(alarm.tenantCode).length > 0);
  if (belled.length > 0) {
    // The messages' ids taken first, so that each one's recipients can be written with it.
    const ids = await tx.query<{ id: number }>("SELECT nextval(pg_get_serial_sequence('notification', 'id'))::int AS id FROM generate_series(1, $1::int)", [belled.length]);
    await tx.query(
      `INSERT INTO notification (id, tab_type, title, body_html, body_text, created_at)
       SELECT id, 2, title, body_html, body_text, created_at FROM jsonb_to_recordset($1::jsonb) AS v(id int, title text, body_html text, body_text text, created_at timestamptz)`,
      [
        JSON.stringify(
          belled.map((alarm, index) => ({ id: ids[index].id, title: `告警：${alarm.title}`, body_html: `<p>${escapeHtml(alarm.content)}</p>`, body_text: alarm.content, created_at: alarm.at.toISOString() })),
        ),
      ],
    );
    await tx.query('INSERT INTO notification_recipient (notification_id, user_id) SELECT * FROM unnest($1::int[], $2::int[])', [
      belled.flatMap((alarm, index) => adminsOf(alarm.tenantCode).map(() => ids[index].id)),
      belled.flatMap((alarm) => adminsOf(alarm.tenantCode).map((admin) => admin.id)),
    ]);
  }
  const typesOf = (alarm: AlarmNotice) => alarm.channels.filter((channel): channel is ChannelType => (CHANNEL_TYPES as readonly string[]).includes(channel));
  const types = [...new Set(alarms.flatMap(typesOf))].sort();
  if (types.length === 0) return 0;
  const channels = await tx.query<ChannelRow & { tenant_code: string }>(
    'SELECT id, channel_type, settings, template, tenant_code FROM notification_channel WHERE tenant_code = ANY($1::text[]) AND enabled AND channel_type = ANY($2::text[]) ORDER BY id',
    [tenants, types],
  );
  const messages: OutboxMessage[] = [];
  for (const alarm of alarms) {
    const admins = adminsOf(alarm.tenantCode);
    const wanted = typesOf(alarm);
    const values = (name: string) => ({ 标题: alarm.title, 内容: alarm.content, 时间: messageTime(alarm.at, timeZone), 姓名: name });
    for (const channel of channels) {
      if (channel.tenant_code !== alarm.tenantCode || !wanted.includes(channel.channel_type)) continue;
      const message = (target: string, name: string): OutboxMessage => ({
        type: channel.channel_type,
        target,
        content: framedMessage(channel.channel_type, channel.settings, renderTemplate(channel.template, values(name))),
        at: alarm.at,
        tenantCode: alarm.tenantCode,
        channelId: channel.id,
      });
      // A robot (DingTalk, Feishu) once to its chat; a person channel to each admin with that address.
      if (isRobot(channel.channel_type)) {
        if (channel.settings.webhook) messages.push(message(channel.settings.webhook, admins.map((admin) => admin.user_name).join('、')));
        continue;
      }
      const column = ADDRESS_OF[channel.channel_type].column;
      for (const admin of admins) {
        const target = column === 'phone' ? admin.phone : column === 'mail' ? admin.mail : admin.wechat_open_id;
        if (target) messages.push(message(target, admin.user_name));
      }
    }
  }
  await deliverAll(tx, messages, log);
  return messages.length;
}
