import type { Database } from '../../db/database';
import { findUserById, type UserProfile } from '../../domain/users';
import { isUniqueViolation } from '../../http/constraints';
import { fail } from '../../http/envelope';
import { normalizeTarget, verifyCode, WRONG_CODE_MESSAGE } from '../../security/verification';
import type { Channel } from '../../domain/platformEvents';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation } from '../../core/operation';
import { objectOf, text } from '../../core/params';

/** How long a proof of the current phone or mail allows changing it. */
export const CONTACT_PROOF_TTL_SECONDS = 600;

type ContactKind = 'phone' | 'mail';

interface ContactRules {
  channel: Channel;
  current: (user: UserProfile) => string | null;
  /** The SPEC §5 messages. */
  sameAsCurrent: string;
  proveCurrentFirst: string;
  taken: string;
}

const RULES: Readonly<Record<ContactKind, ContactRules>> = {
  phone: {
    channel: 'sms',
    current: (user) => user.phone,
    sameAsCurrent: '请输入不同的手机号码!',
    proveCurrentFirst: '请先校验原手机号',
    taken: '该手机号已被其他账号绑定',
  },
  mail: {
    channel: 'mail',
    current: (user) => user.mail,
    sameAsCurrent: '请输入不同的邮箱!',
    proveCurrentFirst: '请先校验原邮箱',
    taken: '该邮箱已被其他账号绑定',
  },
};

async function callerProfile(context: OperationContext<unknown>): Promise<UserProfile> {
  const user = await findUserById(context.db, callerOf(context).userId);
  if (!user) throw fail.session();
  return user;
}

/**
 * The caller proves they hold their current phone or mail: the code sent to it must match. The
 * proof lets them change it within CONTACT_PROOF_TTL_SECONDS. "400" 验证码错误或已过期 for
 * anything else, including a target that is not the caller's.
 */
async function proveCurrentContact(context: OperationContext<{ uuid: string; code: string }>, kind: ContactKind): Promise<null> {
  const { db, now, param } = context;
  const rules = RULES[kind];
  const target = normalizeTarget(rules.channel, param.uuid);
  const user = await callerProfile(context);
  if (rules.current(user) !== target) throw fail.badRequest(WRONG_CODE_MESSAGE);
  await verifyCode(db, target, param.code, now);
  await db.query('INSERT INTO contact_verification (user_id, contact_kind, target, expires_at, created_at) VALUES ($1, $2, $3, $4, $5)', [
    user.id,
    kind,
    target,
    new Date(now.getTime() + CONTACT_PROOF_TTL_SECONDS * 1000),
    now,
  ]);
  return null;
}

/**
 * Sets or changes the caller's phone or mail to `rawTarget`, proven by the code sent to it. With
 * a current one, a live proof of it is needed first (and spent); the new one must differ and
 * belong to nobody else ("409").
 */
async function changeContact(context: OperationContext<unknown>, kind: ContactKind, rawTarget: string, code: string): Promise<null> {
  const { now } = context;
  const db: Database = context.db;
  const rules = RULES[kind];
  const target = normalizeTarget(rules.channel, rawTarget);
  const user = await callerProfile(context);
  const current = rules.current(user);
  if (current === target) throw fail.badRequest(rules.sameAsCurrent);
  let proofId: number | null = null;
  if (current) {
    const [proof] = await db.query<{ id: number }>(
      `SELECT id FROM contact_verification
        WHERE user_id = $1 AND contact_kind = $2 AND target = $3 AND used_at IS NULL AND expires_at > $4
        ORDER BY created_at DESC, id DESC LIMIT 1`,
      [user.id, kind, current, now],
    );
    if (!proof) throw fail.badRequest(rules.proveCurrentFirst);
    proofId = proof.id;
  }
  // The code comes first: only who receives it learns whether the target is taken.
  await verifyCode(db, target, code, now);
  const column = kind === 'phone' ? 'phone' : 'mail';
  try {
    await db.transaction(async (tx) => {
      // The proof is spent once, and the target checked where it is written.
      if (proofId !== null) {
        const spent = await tx.query('UPDATE contact_verification SET used_at = $2 WHERE id = $1 AND used_at IS NULL RETURNING id', [proofId, now]);
        if (spent.length === 0) throw fail.badRequest(rules.proveCurrentFirst);
      }
      const taken = await tx.query(`SELECT 1 FROM app_user WHERE ${column} = $1 AND id <> $2`, [target, user.id]);
      if (taken.length > 0) throw fail.conflict(rules.taken);
      await tx.query(`UPDATE app_user SET ${column} = $2 WHERE id = $1`, [user.id, target]);
    });
  } catch (error) {
    // Taken by another account meanwhile: this screen's own sentence (SPEC §5), not the central one.
    if (isUniqueViolation(error)) throw fail.conflict(rules.taken);
    throw error;
  }
  return null;
}

const proofSchema = (maxLength: number) => objectOf({ uuid: text(maxLength, 1), code: text(16, 1) }, ['uuid', 'code']);

/** Step A of SPEC §4 phone change mode 2: the code sent to the current phone. */
export const verifyPhone = defineOperation('verification.phone.verify', {
  paramSchema: proofSchema(32),
  handler: (context): Promise<null> => proveCurrentContact(context, 'phone'),
});

/** The code sent to the current mail (SPEC §4 mail change with an existing mail); a phone works too. */
export const checkCaptcha = defineOperation('verification.captcha.check', {
  paramSchema: proofSchema(128),
  handler: (context): Promise<null> => proveCurrentContact(context, context.param.uuid.includes('@') ? 'mail' : 'phone'),
});

export const modifyPhone = defineOperation('user.phone.modify', {
  paramSchema: objectOf({ phoneNumber: text(32, 1), code: text(16, 1) }, ['phoneNumber', 'code']),
  handler: (context): Promise<null> => changeContact(context, 'phone', context.param.phoneNumber, context.param.code),
});

export const modifyMail = defineOperation('user.mail.modify', {
  paramSchema: objectOf({ mail: text(128, 1), code: text(16, 1) }, ['mail', 'code']),
  handler: (context): Promise<null> => changeContact(context, 'mail', context.param.mail, context.param.code),
});

export const CONTACT_OPERATIONS = [verifyPhone, checkCaptcha, modifyPhone, modifyMail];
