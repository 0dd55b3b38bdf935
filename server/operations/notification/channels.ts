import type { Queryable } from '../../db/database';
import { sealChannelSecrets, type SealedSecrets } from '../../domain/channelSecrets';
import {
  CHANNEL_FIELDS,
  CHANNEL_LABELS,
  CHANNEL_TYPES,
  PROVIDERS,
  PROVIDER_LABELS,
  WEBHOOK_PREFIXES,
  deliver,
  framedMessage,
  isBuiltIn,
  isRobot,
  looksMasked,
  maskSecret,
  messageTime,
  missingVariable,
  renderTemplate,
  templateVariables,
  type ChannelSecrets,
  type ChannelSettings,
  type ChannelType,
} from '../../domain/notificationChannels';
import { fail } from '../../http/envelope';
import { secretCipherKey } from '../../security/secrets';
import { MAIL_MESSAGE, MAIL_PATTERN, PHONE_MESSAGE, PHONE_PATTERN } from '../../security/verification';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { enumOf, flag, listOf, objectOf, schemaOf, text, textMatching, optionalPlainText, plainText, type ParamOf, orNull, integerIn } from '../../core/params';
import { isoOrNull } from '../../core/values';
import { Conditions, containing, exportOf, pageOf, type Listing } from '../../core/listQuery';
import { conflictOnClash } from '../../core/conflicts';
import { channelTenant, requireView } from './audience';

/**
 * 发送配置: the notification channels of a tenant (or of the platform): one configuration per
 * channel with the fields of its type (a robot's webhook and 加签 secret, an SMTP server, an SMS
 * or voice provider's AccessKey, signature and template, a WeChat official account), a message
 * template with ${变量} placeholders, and an enabled flag. Secrets are stored sealed for their channel
 * (server/domain/channelSecrets.ts) and only ever answered masked (`****1a2b`, kept beside them: no
 * screen opens one); sending the mask back keeps the stored secret. 测试发送 renders
 * the template and puts the message in the server's outbox; the delivery loop sends it through the
 * channel (server/ingest/channels/) when the server sends for real (CHANNEL_DELIVERY=send).
 */

const VIEW = 'sendConfig/list';
export const DISABLED_REFUSES = '渠道已停用，请先启用';

export interface ChannelRow {
  id: number;
  code: string;
  tenant_code: string | null;
  owner_name: string | null;
  name: string;
  channel_type: ChannelType;
  settings: ChannelSettings;
  /** Each sealed (only a transport opens them). */
  secrets: ChannelSecrets;
  /** What the console is shown of each secret. */
  secret_masks: ChannelSecrets;
  template: string;
  enabled: boolean;
  remark: string;
  last_test_at: Date | null;
  last_test_by: string | null;
  created_by: string;
  created_at: Date;
  updated_at: Date;
}

const SELECT = `c.id, c.code, c.tenant_code, t.name AS owner_name, c.name, c.channel_type, c.settings, c.secrets, c.secret_masks, c.template, c.enabled, c.remark,
  c.last_test_at, c.last_test_by, c.created_by, c.created_at, c.updated_at`;
const FROM = 'notification_channel c LEFT JOIN organization t ON t.code = c.tenant_code';

/** One line saying where a channel sends, without any secret. */
function summaryOf(type: ChannelType, settings: ChannelSettings): string {
  switch (type) {
    case 'dingtalk':
    case 'feishu': {
      const url = settings.webhook ?? '';
      const token = url.split(/[=/]/).pop() ?? '';
      return `${url ? new URL(url).host : ''} 机器人 …${token.slice(-6)}`;
    }
    case 'mail':
      return `${settings.smtpHost ?? ''}:${settings.smtpPort ?? ''}${settings.smtpTls ? '（SSL/TLS）' : ''} · ${settings.sender ?? ''}`;
    case 'sms':
      return `${settings.provider ? PROVIDER_LABELS[settings.provider] : ''} · 【${settings.signName ?? ''}】 · ${settings.templateCode ?? ''}`;
    case 'voice':
      return `${settings.provider ? PROVIDER_LABELS[settings.provider] : ''} · ${settings.templateCode ?? ''}`;
    case 'wechat':
      return `AppID ${settings.appId ?? ''} · 模板 ${settings.templateId ?? ''}`;
  }
}

export function channelRecord(row: ChannelRow) {
  // Typed by name (Object.fromEntries answers a Record, whose names a spread drops): the answer's
  // type, and so its generated contract (issue 23), names each setting and secret it may hold.
  const masked = Object.fromEntries(CHANNEL_FIELDS[row.channel_type].secrets.map((name) => [name, row.secret_masks[name] ?? maskSecret('')])) as { [K in keyof ChannelSecrets]?: string };
  const settings = Object.fromEntries(CHANNEL_FIELDS[row.channel_type].settings.map((name) => [name, row.settings[name] ?? null])) as { [K in keyof ChannelSettings]?: ChannelSettings[K] | null };
  const variables = templateVariables(row.template);
  return {
    id: row.id,
    code: row.code,
    name: row.name,
    channelType: row.channel_type,
    channelTypeName: CHANNEL_LABELS[row.channel_type],
    ...settings,
    ...masked,
    template: row.template,
    templateVariables: variables,
    /** The template's own variables (not the built-in ones), for a test send to fill in. */
    variables: variables.filter((name) => !isBuiltIn(name)).map((name) => ({ name, value: '' })),
    summary: summaryOf(row.channel_type, row.settings),
    enabled: row.enabled ? '1' : '0',
    remark: row.remark,
    ownerName: row.owner_name ?? '平台',
    lastTestTime: isoOrNull(row.last_test_at),
    lastTestBy: row.last_test_by ?? '',
    createdBy: row.created_by,
    createTime: row.created_at.toISOString(),
    updateTime: row.updated_at.toISOString(),
  };
}

/**
 * The channels by type (notification_channel.tenant_code is the owning tenant, null for the
 * platform's own: no organisation column, scoped by the tenant); the count and the page's choice
 * of rows read it alone.
 */
const LISTING: Listing<ChannelRow, ChannelRow> = {
  from: FROM,
  narrowFrom: 'notification_channel c',
  key: 'c.id',
  columns: SELECT,
  sorts: { name: 'c.name', channelType: 'c.channel_type', createTime: 'c.created_at', updateTime: 'c.updated_at', lastTestTime: 'c.last_test_at' },
  fallback: 'c.channel_type, c.code',
  record: (row) => row,
};

/** Channels the caller sees: the tenant's; every channel for platform staff above the tenants. */
function visibleClause(tenantCode: string | null): Conditions {
  return tenantCode === null ? new Conditions() : new Conditions().add('c.tenant_code = $?', tenantCode);
}

/** The channel `code` the caller sees; "404" 通知渠道不存在 otherwise. */
async function findChannel(db: Queryable, tenantCode: string | null, code: string, lock = false): Promise<ChannelRow> {
  const clause = visibleClause(tenantCode).add('c.code = $?', code);
  const [row] = await db.query<ChannelRow>(`SELECT ${SELECT} FROM ${FROM} WHERE ${clause.sql}${lock ? ' FOR UPDATE OF c' : ''}`, clause.params);
  if (!row) throw fail.notFound('通知渠道不存在');
  return row;
}

/**
 * The channels a send may use: the tenant's own, or the platform's own for platform staff above
 * the tenants (a tenant's channel sends for the tenant).
 */
export function usableClause(tenantCode: string | null, clause = new Conditions()): Conditions {
  return tenantCode === null ? clause.add('c.tenant_code IS NULL') : clause.add('c.tenant_code = $?', tenantCode);
}

export async function findUsableChannel(db: Queryable, tenantCode: string | null, code: string): Promise<ChannelRow> {
  const clause = usableClause(tenantCode).add('c.code = $?', code);
  const [row] = await db.query<ChannelRow>(`SELECT ${SELECT} FROM ${FROM} WHERE ${clause.sql}`, clause.params);
  if (!row) throw fail.notFound('通知渠道不存在');
  return row;
}

async function scopeOf(context: OperationContext<unknown>): Promise<string | null> {
  await requireView(context, VIEW);
  return channelTenant(context);
}

const secretSchema = textMatching(128, '^[\\x21-\\x7e]*$');
const identifier = (maxLength: number) => textMatching(maxLength, '^[A-Za-z0-9_-]*$');

const fieldsSchema = objectOf(
  {
    name: plainText(64),
    channelType: enumOf(CHANNEL_TYPES),
    template: plainText(1000),
    remark: optionalPlainText(200),
    /** On insert only: whether the new channel starts enabled (the default); modify leaves it to enable. */
    enabled: flag,
    webhook: textMatching(255, '^(https://[\\x21-\\x7e]+)?$'),
    secret: secretSchema,
    smtpHost: textMatching(128, '^([A-Za-z0-9-]+(\\.[A-Za-z0-9-]+)*)?$'),
    smtpPort: orNull(integerIn(1, 65535)),
    smtpTls: flag,
    mailAccount: textMatching(128, '^[^\\s<>]*$'),
    mailPassword: secretSchema,
    sender: textMatching(128, '^[^\\s<>]*$'),
    provider: enumOf(['', ...PROVIDERS] as const),
    accessKeyId: identifier(64),
    accessKeySecret: secretSchema,
    signName: textMatching(32, '^[^<>【】\\s]*$'),
    templateCode: identifier(64),
    appId: textMatching(18, '^(wx[0-9a-f]{16})?$'),
    appSecret: secretSchema,
    templateId: identifier(64),
  },
  ['name', 'channelType', 'template'],
);
/** A channel as the console saves it: its type's settings and secrets among every type's fields. */
type ChannelFields = ParamOf<typeof fieldsSchema>;

const present = (value: unknown): boolean => value !== undefined && value !== null && value !== '';

/**
 * The settings of the chosen type, each required (fields of other types are left out), with
 * the checks a form cannot make: a robot's webhook must be that platform's robot endpoint, a
 * sender must be a mail address.
 */
function settingsOf(fields: ChannelFields): ChannelSettings {
  const type = fields.channelType;
  const settings: Record<string, unknown> = {};
  for (const name of CHANNEL_FIELDS[type].settings) {
    const value = name === 'smtpTls' ? (fields.smtpTls ?? false) : fields[name];
    if (!present(value)) throw fail.badRequest(`参数错误：${name}（不能为空）`);
    settings[name] = typeof value === 'string' ? value.trim() : value;
  }
  if (type === 'dingtalk' || type === 'feishu') {
    const webhook = String(settings.webhook);
    if (!WEBHOOK_PREFIXES[type].some((prefix) => webhook.startsWith(prefix) && webhook.length > prefix.length)) {
      throw fail.badRequest(`参数错误：webhook（请填写${CHANNEL_LABELS[type]}机器人的 Webhook 地址）`);
    }
  }
  if (type === 'mail' && !MAIL_PATTERN.test(String(settings.sender))) throw fail.badRequest('参数错误：sender（请输入正确的邮箱格式）');
  return settings as ChannelSettings;
}

/**
 * The secrets of the chosen type: a new value replaces the stored one (`given`, to be sealed for
 * the channel); the mask of the stored one (what the console was shown) keeps it as it is sealed;
 * another mask, or nothing, is refused.
 */
function secretsOf(fields: ChannelFields, stored: SealedSecrets): { kept: SealedSecrets; given: ChannelSecrets } {
  const chosen = { kept: { secrets: {}, masks: {} } as SealedSecrets, given: {} as ChannelSecrets };
  for (const name of CHANNEL_FIELDS[fields.channelType].secrets) {
    const value = (fields[name] ?? '').trim();
    const [kept, mask] = [stored.secrets[name], stored.masks[name]];
    if (kept && mask && value === mask) [chosen.kept.secrets[name], chosen.kept.masks[name]] = [kept, mask];
    else if (!value) throw fail.badRequest(`参数错误：${name}（不能为空）`);
    else if (looksMasked(value)) throw fail.badRequest(`参数错误：${name}（请输入完整的密钥）`);
    else chosen.given[name] = value;
  }
  return chosen;
}

/** The test-send recipient of a channel type: none for a robot (its chat), an address otherwise. */
function testTarget(type: ChannelType, settings: ChannelSettings, target: string | undefined): string {
  const value = target?.trim() ?? '';
  if (isRobot(type)) return settings.webhook ?? '';
  if (!value) throw fail.badRequest('参数错误：target（不能为空）');
  if (type === 'mail' && !MAIL_PATTERN.test(value)) throw fail.badRequest(MAIL_MESSAGE);
  if ((type === 'sms' || type === 'voice') && !PHONE_PATTERN.test(value)) throw fail.badRequest(PHONE_MESSAGE);
  if (type === 'wechat' && !/^[A-Za-z0-9_-]{6,64}$/.test(value)) throw fail.badRequest('请输入正确的微信 OpenID');
  return type === 'mail' ? value.toLowerCase() : value;
}

/** Values the caller gives a template's own ${变量}, as a test send and a send take them. */
export const variablesSchema = listOf(20, objectOf({ name: text(32, 1), value: textMatching(200, '^[^<>]*$') }, ['name']));
export type VariableValue = ParamOf<typeof variablesSchema>[number];

/** The given variables as a map (built-in names cannot be overridden: they are the message's own). */
export function variableMap(variables: readonly VariableValue[] | undefined): Record<string, string> {
  return Object.fromEntries((variables ?? []).filter((entry) => !isBuiltIn(entry.name.trim())).map((entry) => [entry.name.trim(), (entry.value ?? '').trim()]));
}

/** "400" naming the first template variable without a value. */
export function requireVariables(template: string, values: Readonly<Record<string, string>>): void {
  const missing = missingVariable(template, values);
  if (missing) throw fail.badRequest(`参数错误：variables（模板变量“${missing}”未填写）`);
}

const codeSchema = schemaOf<string>({ type: 'string', pattern: '^QD[0-9]{6,10}$' });
const codeParam = objectOf({ code: codeSchema }, ['code']);

export const channelOperations = [
  defineOperation('notification.channel.page', {
    paramSchema: objectOf({ keyword: text(64), channelType: enumOf(CHANNEL_TYPES), enabled: enumOf(['0', '1']) }),
    handler: async (context) => {
      const { keyword, channelType, enabled } = context.param;
      const where = visibleClause(await scopeOf(context))
        .when(keyword?.trim(), '(c.name ILIKE $? OR c.code ILIKE $? OR c.template ILIKE $?)', (text) => containing(String(text)))
        .when(channelType, 'c.channel_type = $?')
        .when(enabled, 'c.enabled = $?', (value) => value === '1');
      const page = await pageOf(context, LISTING, where);
      return { ...page, records: page.records.map(channelRecord) };
    },
  }),

  defineOperation('notification.channel.detail', {
    paramSchema: codeParam,
    handler: async (context) => channelRecord(await findChannel(context.db, await scopeOf(context), context.param.code)),
  }),

  /** The enabled channels a message may be sent through (the send form's choice). */
  defineOperation('notification.channel.list', {
    paramSchema: objectOf({ channelType: enumOf(CHANNEL_TYPES) }),
    handler: async (context) => {
      await requireView(context, 'send/list');
      const where = usableClause(await channelTenant(context)).add('c.enabled').when(context.param.channelType, 'c.channel_type = $?');
      // The page's order (a list takes no sort); a tenant's channels are a handful, far below the export limit.
      const rows = await exportOf(context, LISTING, where);
      return rows.map((row) => ({
        code: row.code,
        name: row.name,
        channelType: row.channel_type,
        label: `${CHANNEL_LABELS[row.channel_type]} · ${row.name}`,
        template: row.template,
        templateVariables: templateVariables(row.template),
      }));
    },
  }),

  defineOperation('notification.channel.insert', {
    paramSchema: objectOf({ channel: fieldsSchema }, ['channel']),
    handler: async (context) => {
      const tenantCode = await scopeOf(context);
      const fields = context.param.channel;
      const settings = settingsOf(fields);
      const chosen = secretsOf(fields, { secrets: {}, masks: {} });
      const caller = callerOf(context);
      const cipherKey = await secretCipherKey(context.db);
      return context.db.transaction(async (tx) => {
        const [{ id }] = await tx.query<{ id: number }>("SELECT nextval(pg_get_serial_sequence('notification_channel', 'id'))::int AS id");
        const code = `QD${String(id).padStart(6, '0')}`;
        const { secrets, masks } = sealChannelSecrets(cipherKey, id, chosen.given, chosen.kept);
        await conflictOnClash(
          () =>
            tx.query(
              `INSERT INTO notification_channel (id, code, tenant_code, name, channel_type, settings, secrets, secret_masks, secrets_sealed, template, enabled, remark, created_by, created_at, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7::jsonb, $8::jsonb, true, $9, $10, $11, $12, $13, $13)`,
              [id, code, tenantCode, fields.name.trim(), fields.channelType, JSON.stringify(settings), JSON.stringify(secrets), JSON.stringify(masks), fields.template.trim(), fields.enabled ?? true, fields.remark?.trim() ?? '', caller.loginName, context.now],
            ),
          { unique: '渠道名称已存在' },
        );
        return { code };
      });
    },
  }),

  defineOperation('notification.channel.modify', {
    paramSchema: objectOf({ code: codeSchema, channel: fieldsSchema }, ['code', 'channel']),
    handler: async (context) => {
      const tenantCode = await scopeOf(context);
      const fields = context.param.channel;
      const cipherKey = await secretCipherKey(context.db);
      return context.db.transaction(async (tx) => {
        const row = await findChannel(tx, tenantCode, context.param.code, true);
        if (row.channel_type !== fields.channelType) throw fail.conflict('渠道类型保存后不能修改，请新建一个渠道');
        const settings = settingsOf(fields);
        const chosen = secretsOf(fields, { secrets: row.secrets, masks: row.secret_masks });
        const { secrets, masks } = sealChannelSecrets(cipherKey, row.id, chosen.given, chosen.kept);
        await conflictOnClash(
          () =>
            tx.query(
              `UPDATE notification_channel SET name = $2, settings = $3::jsonb, secrets = $4::jsonb, secret_masks = $5::jsonb, secrets_sealed = true, template = $6, remark = $7, updated_at = $8
                WHERE id = $1`,
              [row.id, fields.name.trim(), JSON.stringify(settings), JSON.stringify(secrets), JSON.stringify(masks), fields.template.trim(), fields.remark?.trim() ?? '', context.now],
            ),
          { unique: '渠道名称已存在' },
        );
        return { code: row.code };
      });
    },
  }),

  defineOperation('notification.channel.delete', {
    paramSchema: codeParam,
    handler: async (context) => {
      const tenantCode = await scopeOf(context);
      return context.db.transaction(async (tx) => {
        const row = await findChannel(tx, tenantCode, context.param.code, true);
        if (row.enabled) throw fail.conflict('请先停用该渠道再删除');
        const [pending] = await tx.query(
          `SELECT 1 FROM notification_send s JOIN notification_send_recipient r ON r.send_id = s.id WHERE s.channel_id = $1 AND r.state = 'pending' LIMIT 1`,
          [row.id],
        );
        if (pending) throw fail.conflict('该渠道还有待发送的消息，不能删除');
        await tx.query('DELETE FROM notification_channel WHERE id = $1', [row.id]);
        return { code: row.code };
      });
    },
  }),

  defineOperation('notification.channel.enable', {
    paramSchema: objectOf({ code: codeSchema, enabled: flag }, ['code', 'enabled']),
    handler: async (context) => {
      const tenantCode = await scopeOf(context);
      return context.db.transaction(async (tx) => {
        const row = await findChannel(tx, tenantCode, context.param.code, true);
        if (row.enabled === context.param.enabled) throw fail.conflict(row.enabled ? '该渠道已是启用状态' : '该渠道已是停用状态');
        const moved = await tx.query<{ id: number }>('UPDATE notification_channel SET enabled = $2, updated_at = $3 WHERE id = $1 AND enabled <> $2 RETURNING id', [
          row.id,
          context.param.enabled,
          context.now,
        ]);
        if (moved.length === 0) throw fail.conflict(context.param.enabled ? '该渠道已是启用状态' : '该渠道已是停用状态');
        return { code: row.code, enabled: context.param.enabled ? '1' : '0' };
      });
    },
  }),

  defineOperation('notification.channel.test', {
    paramSchema: objectOf({ code: codeSchema, target: text(128), variables: variablesSchema }, ['code']),
    handler: async (context) => {
      const tenantCode = await scopeOf(context);
      const caller = callerOf(context);
      return context.db.transaction(async (tx) => {
        const row = await findChannel(tx, tenantCode, context.param.code, true);
        if (!row.enabled) throw fail.conflict(DISABLED_REFUSES);
        const target = testTarget(row.channel_type, row.settings, context.param.target);
        const [{ user_name: userName }] = await tx.query<{ user_name: string }>('SELECT user_name FROM app_user WHERE id = $1', [caller.userId]);
        const [title, body] = ['测试消息', `这是一条来自“${row.name}”的测试消息，收到即表示渠道配置正确。`];
        const values: Record<string, string> = { ...variableMap(context.param.variables), 姓名: userName, 标题: title, 内容: body, 时间: messageTime(context.now, context.config.timeZone) };
        requireVariables(row.template, values);
        const content = framedMessage(row.channel_type, row.settings, renderTemplate(row.template, values));
        await deliver(tx, { type: row.channel_type, target, content, at: context.now, tenantCode: row.tenant_code, channelId: row.id }, context.log);
        await tx.query('UPDATE notification_channel SET last_test_at = $2, last_test_by = $3 WHERE id = $1', [row.id, context.now, caller.loginName]);
        return { code: row.code, channelType: row.channel_type, target, content };
      });
    },
  }),
];

