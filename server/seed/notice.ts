import type { JsonObject, Row } from '../db/bulk';
import { notificationContent } from '../domain/notifications';
import { CHANNEL_FIELDS, type ChannelSecrets, type ChannelSettings, type ChannelType } from '../domain/notificationChannels';
import { PLATFORM_CODE } from '../domain/organizations';
import { workCode } from '../domain/workOrders';
import { CHANNEL_PLANS } from './fixtures/channels';
import { NOTICE_OWNERS, TENANT_ROLES, type NoticeText } from './fixtures/notices';
import { ORGANIZATIONS, reach, seedUsers, type NoticeWorld, type SeedChannel } from './noticeWorld';
import { noticeSends } from './noticeSends';
import type { Random } from './prng';
import { alnum, hex } from './randomText';
import type { UserTables } from './users';
import { HOUR_MS, DAY_MS } from './clock';

/**
 * The demo world's notification side (issue 6): every channel type configured for each tenant
 * (some enabled, some not) and a few of the platform's own; notifications the administrators
 * maintain, drafts and published ones (a published one delivered into its recipients' bells,
 * most of them read); and two months of messages sent through the channels (./noticeSends.ts).
 * The channels are ./fixtures/channels.ts, the texts ./fixtures/notices.ts.
 */

export { SEND_HISTORY_DAYS } from './noticeWorld';

function secretsFor(random: Random, type: ChannelType, settings: ChannelSettings): ChannelSecrets {
  switch (type) {
    case 'dingtalk':
      return { secret: `SEC${hex(random, 64)}` };
    case 'feishu':
      return { secret: alnum(random, 22) };
    case 'mail':
      return { mailPassword: alnum(random, 16, 'abcdefghijklmnopqrstuvwxyz') };
    case 'sms':
    case 'voice':
      return { accessKeySecret: settings.provider === 'tencent' ? alnum(random, 32) : alnum(random, 30) };
    case 'wechat':
      return { appSecret: hex(random, 32) };
  }
}

/** The channels' rows (secrets in the clear: they are sealed as they are loaded) and what the sends need of them. */
function channelTables(world: NoticeWorld): { channels: SeedChannel[]; rows: Row[] } {
  const { random, now } = world;
  const channels: SeedChannel[] = [];
  const rows: Row[] = CHANNEL_PLANS.map((plan, index) => {
    const id = index + 1;
    const settings = plan.settings(random);
    const secrets = secretsFor(random, plan.type, settings);
    const created = world.past(180, 24 * 60);
    const updated = new Date(created.getTime() + random.int(0, 40) * DAY_MS);
    const tested = random.next() < 0.7 ? new Date(Math.min(updated.getTime() + random.int(1, 72) * HOUR_MS, now.getTime() - HOUR_MS)) : null;
    const admin = plan.tenant === 'T0001' ? 'tadmin' : plan.tenant === 'T0002' ? 'badmin' : 'admin';
    channels.push({ id, code: `QD${String(id).padStart(6, '0')}`, tenant: plan.tenant, name: plan.name, type: plan.type, enabled: plan.enabled, template: plan.template, settings });
    return {
      id,
      code: `QD${String(id).padStart(6, '0')}`,
      tenant_code: plan.tenant,
      name: plan.name,
      channel_type: plan.type,
      settings: settings as unknown as JsonObject,
      secrets: secrets as unknown as JsonObject,
      template: plan.template,
      enabled: plan.enabled,
      remark: plan.remark,
      last_test_at: tested ? tested.toISOString() : null,
      last_test_by: tested ? admin : null,
      created_by: admin,
      created_at: created.toISOString(),
      updated_at: updated.toISOString(),
    };
  });
  // Every type's fields are all there (a test reads them through the operations).
  for (const channel of channels) {
    for (const name of CHANNEL_FIELDS[channel.type].settings) if (channel.settings[name] === undefined) throw new Error(`seed channel ${channel.name} lacks ${name}`);
  }
  return { channels, rows };
}

interface MaintainedTables {
  notifications: Row[];
  recipients: Row[];
  maintained: Row[];
  /** The id the next published notification takes. */
  nextNotificationId: number;
}

/** One maintained notification of `owner`; when published, delivered into its audience's bells. */
function maintainedNotification(world: NoticeWorld, tables: MaintainedTables, owner: { owner: string; admins: string[]; text: NoticeText; draft: boolean }): void {
  const { random, now, timeZone, users } = world;
  const { text } = owner;
  const places = ORGANIZATIONS.filter((org) => org.parentCode === owner.owner && !org.code.includes('V'));
  const id = tables.maintained.length + 1;
  // Within the bells' two months (the frame's notifications span 60 days).
  const created = world.past(55, 3);
  // The newest few are still drafts; about one in five of the older ones too.
  const draft = owner.draft || random.next() < 0.2;
  const kind = random.next();
  const audience: { type: 'all' | 'organization' | 'role'; organizations: string[]; roles: string[] } =
    kind < 0.5
      ? { type: 'all', organizations: [], roles: [] }
      : kind < 0.75
        ? { type: 'organization', organizations: [...new Set([random.pick(places).code, random.pick(places).code])], roles: [] }
        : { type: 'role', organizations: [], roles: owner.owner === PLATFORM_CODE ? ['TENANT_ADMIN'] : [...new Set([random.pick(TENANT_ROLES), 'TENANT_ADMIN'])] };
  const reached = reach(users, owner.owner, {
    organizations: audience.type === 'organization' ? audience.organizations : undefined,
    roles: audience.type === 'role' ? audience.roles : undefined,
  });
  const content = notificationContent(text.title, text.body);
  const author = random.pick(owner.admins);
  let linked: number | null = null;
  let publishedAt: Date | null = null;
  if (!draft && reached.length > 0) {
    // Before the frame's newest seeded item (an hour before the clock), never level with it.
    publishedAt = new Date(Math.min(created.getTime() + random.int(1, 30) * HOUR_MS, now.getTime() - 2 * HOUR_MS));
    linked = tables.nextNotificationId;
    tables.nextNotificationId += 1;
    tables.notifications.push({ id: linked, tab_type: text.tab, ...content, created_at: publishedAt.toISOString() });
    for (const user of reached) {
      const read = random.next() < 0.65;
      tables.recipients.push({
        notification_id: linked,
        user_id: user.id,
        read_at: read ? new Date(Math.min(publishedAt.getTime() + random.int(1, 96) * HOUR_MS, now.getTime())).toISOString() : null,
      });
    }
  }
  tables.maintained.push({
    id,
    code: workCode('XX', id, created, timeZone),
    organization_code: owner.owner,
    tab_type: text.tab,
    title: content.title,
    body_html: content.body_html,
    body_text: content.body_text,
    audience_type: audience.type,
    audience_organizations: audience.organizations,
    audience_roles: audience.roles,
    state: linked === null ? 'draft' : 'published',
    notification_id: linked,
    recipient_count: linked === null ? 0 : reached.length,
    created_by: author,
    created_at: created.toISOString(),
    updated_at: (publishedAt ?? created).toISOString(),
    published_by: linked === null ? null : author,
    published_at: publishedAt ? publishedAt.toISOString() : null,
  });
}

export interface NoticeSeed {
  /** The id the first notification of this generator takes (after the frame's own). */
  firstNotificationId: number;
  /** The world's clock (the start of the current hour). */
  now: Date;
  /** The business zone: the dates in codes, message times and "tomorrow morning". */
  timeZone: string;
}

/** The rows of the notification side, table by table in insertion order. */
export function noticeTables(random: Random, userTables: UserTables, options: NoticeSeed): Array<{ table: string; rows: Row[] }> {
  const { now, timeZone } = options;
  const world: NoticeWorld = {
    random,
    users: seedUsers(userTables),
    now,
    timeZone,
    past: (maxDays, minHours = 1) => new Date(now.getTime() - random.int(minHours * HOUR_MS, maxDays * DAY_MS)),
  };
  const { channels, rows: channelRows } = channelTables(world);
  const maintained: MaintainedTables = { notifications: [], recipients: [], maintained: [], nextNotificationId: options.firstNotificationId };
  for (const { owner, admins, notices, count } of NOTICE_OWNERS(PLATFORM_CODE)) {
    for (let n = 0; n < count; n += 1) maintainedNotification(world, maintained, { owner, admins, text: notices[n % notices.length], draft: n >= count - 3 });
  }
  const sends = noticeSends(world, channels);
  return [
    { table: 'notification_channel', rows: channelRows },
    { table: 'notification', rows: maintained.notifications },
    { table: 'notification_recipient', rows: maintained.recipients },
    { table: 'maintained_notification', rows: maintained.maintained },
    { table: 'notification_send', rows: sends.sends },
    { table: 'notification_send_recipient', rows: sends.recipients },
  ];
}
