import type { Database } from '../../db/database';
import type { ChannelSecrets, ChannelSettings } from '../../domain/notificationChannels';
import { openSecret, SEAL_BINDINGS, sealSecret } from '../../security/secrets';
import type { AttemptOutcome } from '../delivery';
import { field, requestJson, textField } from './http';

/**
 * A WeChat official account's template message (模板消息), as its documents define it: an access
 * token from `GET /cgi-bin/token?grant_type=client_credential&appid=&secret=` (`{"access_token",
 * "expires_in": 7200}`), then `POST /cgi-bin/message/template/send?access_token=` with
 * `{"touser": openId, "template_id", "data": {"content": {"value": text}}}` (the template shows
 * `{{content.DATA}}`), answered `{"errcode": 0, "errmsg": "ok", "msgid"}`.
 *
 * The token is the account's, and fetching a new one voids the last: it is kept in the database
 * (channel_access_token, migration 122) for every instance, fetched by one at a time (an advisory
 * lock across instances, one fetch in flight per channel in this process) when missing or within
 * five minutes of its expiry. An answer saying the token is invalid or expired (40001, 40014,
 * 42001) forgets it, so the retry fetches another. The token is a credential: it is kept sealed
 * (server/security/secrets.ts), bound to its channel and AppID; one that does not open counts as
 * missing.
 */

export interface WechatContext {
  db: Database;
  /** The secrets key (the kept token is sealed with it). */
  cipherKey: Buffer;
  base: string;
  now: () => Date;
  signal: AbortSignal;
}

/** A token this close to its expiry is fetched again. */
const TOKEN_MARGIN_MS = 5 * 60_000;
const TOKEN_REFUSED = new Set([40001, 40014, 42001]);

/** Fetches in flight in this process, by database and channel: concurrent sends of one channel wait for one fetch. */
const fetching = new WeakMap<Database, Map<number, Promise<KeptToken | AttemptOutcome>>>();

/** A token kept for the channel and still live: the token, and the sealed value as stored. */
interface KeptToken {
  token: string;
  sealed: string;
}

async function storedToken(context: WechatContext, channelId: number, appId: string): Promise<KeptToken | null> {
  const [row] = await context.db.query<{ token: string }>('SELECT token FROM channel_access_token WHERE channel_id = $1 AND app_id = $2 AND expires_at > $3', [
    channelId,
    appId,
    new Date(context.now().getTime() + TOKEN_MARGIN_MS),
  ]);
  const token = row ? openSecret(context.cipherKey, SEAL_BINDINGS.channelToken(channelId, appId), row.token) : null;
  return row && token ? { token, sealed: row.token } : null;
}

async function fetchToken(context: WechatContext, channelId: number, appId: string, appSecret: string): Promise<KeptToken | AttemptOutcome> {
  return context.db.exclusively(`wechat-token:${channelId}`, async () => {
    const kept = await storedToken(context, channelId, appId);
    if (kept) return kept;
    const url = new URL(`${context.base}/cgi-bin/token`);
    url.search = new URLSearchParams({ grant_type: 'client_credential', appid: appId, secret: appSecret }).toString();
    const answer = await requestJson(url, { method: 'GET' }, context.signal, '微信');
    const token = textField(answer.json, 'access_token');
    const seconds = Number(field(answer.json, 'expires_in'));
    if (!token || !Number.isFinite(seconds) || seconds <= 0) {
      const code = textField(answer.json, 'errcode');
      return { ok: false, status: answer.status, error: code ? `微信获取 access_token 失败 ${code}：${textField(answer.json, 'errmsg')}` : `微信获取 access_token 失败：HTTP ${answer.status}` };
    }
    const at = context.now();
    const sealed = sealSecret(context.cipherKey, SEAL_BINDINGS.channelToken(channelId, appId), token);
    await context.db.query(
      `INSERT INTO channel_access_token (channel_id, app_id, token, expires_at, fetched_at) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (channel_id) DO UPDATE SET app_id = EXCLUDED.app_id, token = EXCLUDED.token, expires_at = EXCLUDED.expires_at, fetched_at = EXCLUDED.fetched_at`,
      [channelId, appId, sealed, new Date(at.getTime() + seconds * 1000), at],
    );
    return { token, sealed };
  });
}

/** The channel's live token: the kept one, or one fetched now. */
async function accessToken(context: WechatContext, channelId: number, appId: string, appSecret: string): Promise<KeptToken | AttemptOutcome> {
  const kept = await storedToken(context, channelId, appId);
  if (kept) return kept;
  let ofDatabase = fetching.get(context.db);
  if (!ofDatabase) fetching.set(context.db, (ofDatabase = new Map()));
  const inFlight = ofDatabase.get(channelId);
  if (inFlight) return inFlight;
  const running = ofDatabase;
  const fetch = fetchToken(context, channelId, appId, appSecret).finally(() => running.delete(channelId));
  running.set(channelId, fetch);
  return fetch;
}

export async function sendWechat(channelId: number, settings: ChannelSettings, secrets: ChannelSecrets, openId: string, text: string, context: WechatContext): Promise<AttemptOutcome> {
  if (!settings.appId || !secrets.appSecret || !settings.templateId) return { ok: false, status: null, error: '公众号的 AppID、AppSecret 或模板未配置完整', final: true };
  const kept = await accessToken(context, channelId, settings.appId, secrets.appSecret);
  if (!('token' in kept)) return kept;
  const url = new URL(`${context.base}/cgi-bin/message/template/send`);
  url.searchParams.set('access_token', kept.token);
  const body = { touser: openId, template_id: settings.templateId, data: { content: { value: text } } };
  const answer = await requestJson(url, { method: 'POST', headers: { 'content-type': 'application/json; charset=utf-8' }, body: JSON.stringify(body) }, context.signal, '微信');
  const code = field(answer.json, 'errcode');
  if (code === 0) return { ok: true, status: answer.status, error: '' };
  if (typeof code === 'number' && TOKEN_REFUSED.has(code)) {
    await context.db.query('DELETE FROM channel_access_token WHERE channel_id = $1 AND token = $2', [channelId, kept.sealed]);
  }
  if (code === undefined) return { ok: false, status: answer.status, error: `微信返回 HTTP ${answer.status}，不是接口的应答` };
  return { ok: false, status: answer.status, error: `微信返回错误 ${String(code)}：${textField(answer.json, 'errmsg')}` };
}
