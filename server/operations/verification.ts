import type { Queryable } from '../db/database';
import { tenantOf } from '../domain/organizations';
import { findUserByContact } from '../domain/users';
import { issueCode, normalizeTarget, type Channel } from '../security/verification';
import { defineOperation, text, type OperationContext } from './define';

export const SENT_MESSAGE = '发送成功';

/** Whether a WeChat registration is under way (an unbound scan whose bind key is still live). */
async function registrationPending(db: Queryable, now: Date): Promise<boolean> {
  const rows = await db.query('SELECT 1 FROM wechat_bind_key WHERE used_at IS NULL AND expires_at > $1 LIMIT 1', [now]);
  return rows.length > 0;
}

/**
 * Answers 发送成功 whoever owns the target (no account enumeration), but a code reaches the
 * outbox only for a user's own phone or mail, a signed-in caller, or a WeChat registration in
 * progress (which has to verify a phone nobody owns yet).
 */
async function send(context: OperationContext<string>, channel: Channel): Promise<string> {
  const { db, now, caller } = context;
  const target = normalizeTarget(channel, context.param);
  const owner = await findUserByContact(db, target);
  const deliver = caller !== null || owner !== null || (await registrationPending(db, now));
  // The day's codes are charged to the caller's tenant, else to the tenant of the target's owner.
  const home = (caller ?? owner)?.organizationCodes[0];
  const tenantCode = home ? await tenantOf(db, home) : null;
  await issueCode(db, { channel, target, deliver, tenantCode, now, timeZone: context.config.timeZone }, context.log);
  return SENT_MESSAGE;
}

export const sendSms = defineOperation<string, string>('verification.sms.send', {
  paramSchema: text(32),
  handler: (context) => send(context, 'sms'),
});

export const sendVoice = defineOperation<string, string>('verification.voice.send', {
  paramSchema: text(32),
  handler: (context) => send(context, 'voice'),
});

export const sendMail = defineOperation<string, string>('verification.mail.send', {
  paramSchema: text(128),
  handler: (context) => send(context, 'mail'),
});

export const VERIFICATION_OPERATIONS = [sendSms, sendVoice, sendMail];
