import { tenantOf } from '../domain/organizations';
import { findUserByContact } from '../domain/users';
import { BIND_KEY_TTL_SECONDS, openIdOfBindKey } from '../domain/wechat';
import { ApiFailure, fail } from '../http/envelope';
import { CAPTCHA_REQUIRED, createCaptcha, spendCaptcha, type Captcha } from '../security/captcha';
import { countHit } from '../security/rateLimit';
import { sha256 } from '../security/tokens';
import { issueCode, normalizeTarget } from '../security/verification';
import type { Channel } from '../domain/platformEvents';
import { callerOf, type OperationContext } from '../core/context';
import { defineOperation } from '../core/operation';
import { objectOf, schemaOf, text } from '../core/params';

export const SENT_MESSAGE = '发送成功';
/** Codes one WeChat registration (one bind key) may have sent, to any numbers. */
export const CODES_PER_BIND_KEY = 5;

/**
 * The target and, for a caller without a session, what ties them to a flow: the image captcha
 * they solved (forgot password) or the bind key of their WeChat scan (registration). A signed-in
 * caller sends the target alone, as a string (SPEC §7: param = phone).
 */
interface SendRequest {
  target: string;
  captchaUuid?: string;
  captchaCode?: string;
  bindKey?: string;
}

const sendSchema = (maxLength: number) =>
  schemaOf<string | SendRequest>({
    anyOf: [
      text(maxLength),
      objectOf({ target: text(maxLength), captchaUuid: text(64, 1), captchaCode: text(8, 1), bindKey: text(64, 1) }, ['target']),
    ],
  });

/**
 * A signed-in caller's code (issue 30): to their own phone or mail (proving it before a change),
 * or to the one number or mail they are binding. Either way it is counted against the caller
 * (CODES_PER_USER_PER_HOUR, DAILY_CODES_PER_USER) and charged to their tenant; a code to a target
 * other than their own is their pending binding of that kind and voids the one before. So no user
 * can send codes to numbers of their choice faster than a phone change needs, nor spend the
 * tenant's day for everyone. The mobile app's phone codes (notification.phoneCode.*) come here too.
 */
async function sendCallerCode(context: OperationContext<unknown>, channel: Channel, rawTarget: string): Promise<string> {
  const caller = callerOf(context);
  const target = normalizeTarget(channel, rawTarget);
  const own = channel === 'mail' ? caller.profile.mail : caller.profile.phone;
  const home = caller.organizationCodes[0];
  const tenantCode = home ? await tenantOf(context.db, home) : null;
  await issueCode(
    context.db,
    { channel, target, deliver: true, tenantCode, requestedBy: caller.userId, binding: target !== own, now: context.now, timeZone: context.config.timeZone },
    context.log,
    context.events,
  );
  return SENT_MESSAGE;
}

/**
 * Answers 发送成功 whoever owns the target (no account enumeration). A signed-in caller's code goes
 * by sendCallerCode. Without a session the caller must first give a solved captcha (spent by this
 * call, whatever follows), and then a code goes out only to a user's own phone or mail; or the bind
 * key of a live WeChat registration (SMS and voice only, CODES_PER_BIND_KEY codes per key), and
 * then it goes to the number being registered. Nothing else is sent, nor counted against anyone's quota.
 */
async function send(context: OperationContext<string | SendRequest>, channel: Channel): Promise<string> {
  const { db, now, caller } = context;
  const request: SendRequest = typeof context.param === 'string' ? { target: context.param } : context.param;
  if (caller) return sendCallerCode(context, channel, request.target);
  const target = normalizeTarget(channel, request.target);
  const owner = await findUserByContact(db, target);
  let deliver = true;
  if (request.bindKey) {
    if (channel === 'mail') throw fail.badField('bindKey');
    await openIdOfBindKey(db, request.bindKey, now);
    const hit = await countHit(db, 'bind-key-codes', sha256(request.bindKey), CODES_PER_BIND_KEY, BIND_KEY_TTL_SECONDS, now);
    if (!hit.allowed) {
      context.events.codeRequested(channel, 'bind key spent');
      throw new ApiFailure('429', '验证码发送次数过多，请重新扫码');
    }
  } else if (request.captchaUuid && request.captchaCode) {
    await spendCaptcha(db, request.captchaUuid, request.captchaCode, now);
    deliver = owner !== null;
  } else {
    throw fail.badRequest(CAPTCHA_REQUIRED);
  }
  // The day's codes are charged to the tenant of the target's owner.
  const home = owner?.organizationCodes[0];
  const tenantCode = home ? await tenantOf(db, home) : null;
  await issueCode(db, { channel, target, deliver, tenantCode, now, timeZone: context.config.timeZone }, context.log, context.events);
  return SENT_MESSAGE;
}

export const sendSms = defineOperation('verification.sms.send', {
  paramSchema: sendSchema(32),
  handler: (context): Promise<string> => send(context, 'sms'),
});

export const sendVoice = defineOperation('verification.voice.send', {
  paramSchema: sendSchema(32),
  handler: (context): Promise<string> => send(context, 'voice'),
});

export const sendMail = defineOperation('verification.mail.send', {
  paramSchema: sendSchema(128),
  handler: (context): Promise<string> => send(context, 'mail'),
});

/** An image captcha for the anonymous code requests (forgot password). */
export const getCaptcha = defineOperation('verification.captcha.get', {
  handler: ({ db, client, now }): Promise<Captcha> => createCaptcha(db, client.ip, now),
});

/**
 * The mobile app's phone codes (SPEC §7 "Notification"): a code for the signed-in caller's phone
 * (the app's own phone checks) or the number they are binding, by SMS or by voice call, under the
 * signed-in caller's code rules (sendCallerCode).
 */
export const phoneCodeSms = defineOperation('notification.phoneCode.sms', {
  paramSchema: text(32),
  handler: (context): Promise<string> => sendCallerCode(context, 'sms', context.param),
});

export const phoneCodeCall = defineOperation('notification.phoneCode.call', {
  paramSchema: text(32),
  handler: (context): Promise<string> => sendCallerCode(context, 'voice', context.param),
});

export const VERIFICATION_OPERATIONS = [sendSms, sendVoice, sendMail, getCaptcha, phoneCodeSms, phoneCodeCall];
