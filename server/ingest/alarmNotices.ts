import type { Queryable } from '../db/database';
import { ADDRESS_OF, CHANNEL_TYPES, deliver, framedMessage, isRobot, messageTime, renderTemplate, type ChannelSettings, type ChannelType } from '../domain/notificationChannels';
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

export async function notifyAlarm(
  tx: Queryable,
  rule: { channels: readonly string[]; tenantCode: string },
  alarm: { title: string; content: string },
  now: Date,
  timeZone: string,
  log: (line: string) => void,
): Promise<number> {
  const admins = await tx.query<AdminRow>(
    `SELECT u.id, u.user_name, u.phone, u.mail, u.wechat_open_id FROM app_user u
       JOIN user_role r ON r.user_id = u.id AND r.role_code = 'TENANT_ADMIN'
       JOIN user_organization o ON o.user_id = u.id AND o.organization_code = $1
      WHERE u.status = $2 ORDER BY u.id`,
    [rule.tenantCode, USER_STATUS.active],
  );
  // The bell: a system message (系统消息) for each tenant admin, whatever the rule's channels.
  if (admins.length > 0) {
    const [message] = await tx.query<{ id: number }>(
      'INSERT INTO notification (tab_type, title, body_html, body_text, created_at) VALUES (2, $1, $2, $3, $4) RETURNING id',
      [`告警：${alarm.title}`, `<p>${escapeHtml(alarm.content)}</p>`, alarm.content, now],
    );
    await tx.query('INSERT INTO notification_recipient (notification_id, user_id) SELECT $1, unnest($2::int[])', [message.id, admins.map((admin) => admin.id)]);
  }
  const types = rule.channels.filter((channel): channel is ChannelType => (CHANNEL_TYPES as readonly string[]).includes(channel));
  if (types.length === 0) return 0;
  const channels = await tx.query<ChannelRow>(
    'SELECT channel_type, settings, template FROM notification_channel WHERE tenant_code = $1 AND enabled AND channel_type = ANY($2::text[]) ORDER BY id',
    [rule.tenantCode, types],
  );
  if (channels.length === 0) return 0;
  const values = (name: string) => ({ 标题: alarm.title, 内容: alarm.content, 时间: messageTime(now, timeZone), 姓名: name });
  let sent = 0;
  for (const channel of channels) {
    if (isRobot(channel.channel_type)) {
      if (!channel.settings.webhook) continue;
      const text = renderTemplate(channel.template, values(admins.map((admin) => admin.user_name).join('、')));
      await deliver(tx, { type: channel.channel_type, target: channel.settings.webhook, content: framedMessage(channel.channel_type, channel.settings, text), at: now, tenantCode: rule.tenantCode }, log);
      sent += 1;
      continue;
    }
    const column = ADDRESS_OF[channel.channel_type].column;
    for (const admin of admins) {
      const target = column === 'phone' ? admin.phone : column === 'mail' ? admin.mail : admin.wechat_open_id;
      if (!target) continue;
      const text = renderTemplate(channel.template, values(admin.user_name));
      await deliver(tx, { type: channel.channel_type, target, content: framedMessage(channel.channel_type, channel.settings, text), at: now, tenantCode: rule.tenantCode }, log);
      sent += 1;
    }
  }
  return sent;
}
