import type { Row } from '../db/bulk';
import { addDays, businessDay, startOfDay } from '../domain/businessTime';
import { ADDRESS_OF, framedMessage, isRobot, messageTime, renderTemplate } from '../domain/notificationChannels';
import { PLATFORM_CODE } from '../domain/organizations';
import { workCode } from '../domain/workOrders';
import { FAIL_REASONS, SEND_PLANS, SEND_ROLES, SEND_TEXTS } from './fixtures/notices';
import { ORGANIZATIONS, reach, SEND_HISTORY_DAYS, type NoticeWorld, type SeedChannel, type SeedUser } from './noticeWorld';
import { HOUR_MS } from './clock';

/**
 * Two months of messages sent through the demo world's channels: to people, a place or a role,
 * per recipient sent, failed with the provider's reason or for want of an address, and a few
 * scheduled for tomorrow that are still pending.
 */

const deviceCodeOf = (world: NoticeWorld) => `${'WMNB01'}${String(world.random.int(0, 999_999)).padStart(6, '0')}`;

type Place = (typeof ORGANIZATIONS)[number];

interface Audience {
  audienceType: 'user' | 'organization' | 'role';
  chosen: SeedUser[];
  summary: string;
}

/** Whom a send went to: a few people (always so on the platform), a place, or a role (a single person when neither reaches anyone). */
function sendAudience(world: NoticeWorld, owner: string, people: readonly SeedUser[], places: readonly Place[]): Audience {
  const { random, users } = world;
  const kind = random.next();
  const fallback = (): Audience => {
    const chosen = [random.pick(people)];
    return { audienceType: 'user', chosen, summary: chosen[0].userName };
  };
  if (kind < 0.5 || owner === PLATFORM_CODE) {
    const wanted = random.int(1, 4);
    const picked = new Map<number, SeedUser>();
    for (let k = 0; k < wanted; k += 1) {
      const person = random.pick(people);
      picked.set(person.id, person);
    }
    const chosen = [...picked.values()].sort((a, b) => a.id - b.id);
    const names = chosen.map((user) => user.userName);
    return { audienceType: 'user', chosen, summary: names.length > 3 ? `${names.slice(0, 3).join('、')} 等 ${names.length} 人` : names.join('、') };
  }
  if (kind < 0.8) {
    const place = random.pick(places.filter((org) => org.code.length <= 8));
    const chosen = reach(users, owner, { organizations: [place.code] });
    return chosen.length === 0 ? fallback() : { audienceType: 'organization', chosen, summary: place.name };
  }
  const role = random.pick(['ROLE_TENANT_REPAIR', 'ROLE_REPAIR_IMPLEMENT', 'TENANT_ADMIN']);
  const chosen = reach(users, owner, { roles: [role] });
  return chosen.length === 0 ? fallback() : { audienceType: 'role', chosen, summary: SEND_ROLES[role] ?? role };
}

interface SendOf {
  id: number;
  channel: SeedChannel;
  scheduled: boolean;
  created: Date;
  scheduledAt: Date;
  values: Record<string, string>;
}

/** What became of a send for each of its recipients. */
function sendRecipients(world: NoticeWorld, send: SendOf, chosen: readonly SeedUser[], rows: Row[]): void {
  const { random } = world;
  const { channel, created, scheduledAt } = send;
  const reachable = chosen.filter((user) => ({ phone: user.phone, mail: user.mail, wechat_open_id: user.wechatOpenId })[ADDRESS_OF[channel.type].column]);
  const robotText = renderTemplate(channel.template, { ...send.values, 姓名: reachable.map((user) => user.userName).join('、') });
  const robotMessage = `${robotText}\n${reachable.map((user) => `@${user.phone ?? ''}`).join(' ')}`;
  for (const user of chosen) {
    const address = { phone: user.phone, mail: user.mail, wechat_open_id: user.wechatOpenId }[ADDRESS_OF[channel.type].column];
    const message = isRobot(channel.type) ? robotMessage : framedMessage(channel.type, channel.settings, renderTemplate(channel.template, { ...send.values, 姓名: user.userName }));
    const base = { id: rows.length + 1, send_id: send.id, user_id: user.id, user_name: user.userName };
    const sentAt = new Date(scheduledAt.getTime() + random.int(1, 20) * 1000);
    if (send.scheduled) {
      rows.push({ ...base, address: '', message: '', state: 'pending', fail_reason: '', attempts: 0, sent_at: null, updated_at: created.toISOString() });
    } else if (!address) {
      rows.push({ ...base, address: '', message: '', state: 'failed', fail_reason: ADDRESS_OF[channel.type].missing, attempts: 1, sent_at: null, updated_at: sentAt.toISOString() });
    } else if (random.next() < 0.1) {
      rows.push({ ...base, address, message: '', state: 'failed', fail_reason: random.pick(FAIL_REASONS[channel.type]), attempts: random.int(1, 2), sent_at: null, updated_at: sentAt.toISOString() });
    } else {
      const attempts = random.next() < 0.05 ? 2 : 1;
      rows.push({
        ...base,
        address,
        message,
        state: 'sent',
        fail_reason: '',
        attempts,
        sent_at: new Date(sentAt.getTime() + (attempts - 1) * random.int(5, 60) * 60_000).toISOString(),
        updated_at: sentAt.toISOString(),
      });
    }
  }
}

/** The sends of each owner through its own channels, and their recipients. */
export function noticeSends(world: NoticeWorld, channels: readonly SeedChannel[]): { sends: Row[]; recipients: Row[] } {
  const { random, now, timeZone, users } = world;
  const sends: Row[] = [];
  const recipients: Row[] = [];
  for (const { owner, admin, count } of SEND_PLANS(PLATFORM_CODE)) {
    const tenant = owner === PLATFORM_CODE ? null : owner;
    const usable = channels.filter((channel) => channel.tenant === tenant);
    const places = ORGANIZATIONS.filter((org) => (tenant === null || org.code.startsWith(owner)) && org.code.length > 5 && !org.code.includes('V'));
    const texts = SEND_TEXTS(
      () => random.pick(places).name,
      () => deviceCodeOf(world),
      () => workCode('WX', random.int(1, 800), world.past(10), timeZone),
    );
    const people = owner === PLATFORM_CODE ? reach(users, PLATFORM_CODE, { roles: ['TENANT_ADMIN'] }) : reach(users, owner, {});
    for (let n = 0; n < count; n += 1) {
      const id = sends.length + 1;
      // The last few of each tenant are scheduled for tomorrow morning and wait.
      const scheduled = n >= count - 3 && tenant !== null;
      const created = scheduled ? new Date(now.getTime() - random.int(1, 20) * HOUR_MS) : world.past(SEND_HISTORY_DAYS);
      const tomorrow = startOfDay(addDays(businessDay(now, timeZone), 1), timeZone).getTime();
      const scheduledAt = scheduled ? new Date(tomorrow + (8 + random.pick([0.5, 1, 1.5])) * HOUR_MS) : created;
      let text = random.pick(texts)();
      let candidates = usable.filter((channel) => (scheduled || channel.enabled || random.next() < 0.3) && text.types.includes(channel.type));
      for (let tries = 0; candidates.length === 0 && tries < 20; tries += 1) {
        text = random.pick(texts)();
        candidates = usable.filter((channel) => channel.enabled && text.types.includes(channel.type));
      }
      if (candidates.length === 0) candidates = usable.filter((channel) => channel.enabled);
      const channel = random.pick(candidates);
      const { audienceType, chosen, summary } = sendAudience(world, owner, people, places);
      const variables: Record<string, string> = channel.template.includes('${设备名称}') ? { 设备名称: `${deviceCodeOf(world)}（${random.pick(places).name}）` } : {};
      const values = { ...variables, 标题: text.title, 内容: text.content, 时间: messageTime(scheduledAt, timeZone) };
      sends.push({
        id,
        code: workCode('FS', id, created, timeZone),
        organization_code: owner,
        channel_id: channel.id,
        channel_type: channel.type,
        channel_name: channel.name,
        title: text.title,
        content: text.content,
        variables,
        audience_type: audienceType,
        audience_summary: summary,
        scheduled_at: scheduledAt.toISOString(),
        created_by: admin,
        created_at: created.toISOString(),
      });
      sendRecipients(world, { id, channel, scheduled, created, scheduledAt, values }, chosen, recipients);
    }
  }
  return { sends, recipients };
}
