import { SYSTEM_ERROR_MESSAGE } from '../../api/messages';
import { readSessionNote, writeSessionNote } from '../../session/storage';

/**
 * What /login tells after a refused sign-in (issue 21). The platform (server/security/loginGuard)
 * counts wrong passwords per login name and address: after LOGIN_ATTEMPTS_BEFORE_LOCK of them
 * within LOCK_MINUTES it refuses that name from that address with "429" 登录失败次数过多，请 N 分钟后再试
 * (the last wrong password itself is answered so), and past an account-wide ceiling over every
 * address it refuses the name everywhere for a growing while.
 * Its "401" says only 用户名或密码错误, so the page counts the wrong passwords it has seen in this
 * tab itself, to warn before the attempt that locks. The lock message stays on the page.
 */
export const LOGIN_ATTEMPTS_BEFORE_LOCK = 5;
export const LOCK_MINUTES = 15;
/** From this many wrong passwords in a row the page says how many attempts remain. */
export const WARN_FROM_FAILURES = 2;
export const WRONG_CREDENTIALS_CODE = '401';
export const LOCKED_CODE = '429';
/** The lock may be of this name from this address, or of the name from everywhere (the account-wide ceiling): said of the account. */
export const LOCKED_HELP = '为保护账号安全，该账号的登录已暂停。请稍后再试，或通过“忘记密码”重设密码后立即登录。';

/** The warning under 用户名或密码错误 once `failures` wrong passwords were given (none before WARN_FROM_FAILURES). */
export function attemptsWarning(failures: number): string | null {
  const remaining = LOGIN_ATTEMPTS_BEFORE_LOCK - failures;
  if (failures < WARN_FROM_FAILURES || remaining < 1) return null;
  if (remaining === 1) return `再输错 1 次，该账号将被锁定 ${LOCK_MINUTES} 分钟，请确认密码后再试。`;
  return `还可尝试 ${remaining} 次，连续输错 ${LOGIN_ATTEMPTS_BEFORE_LOCK} 次账号将被锁定 ${LOCK_MINUTES} 分钟。`;
}

/** What the sign-in form shows inline after a refusal (an Alert that stays until the next attempt). */
export interface LoginFeedback {
  type: 'error' | 'warning';
  message: string;
  description?: string;
  /** The account is locked from here for a while. */
  locked: boolean;
}

/** A refusal as the http client rejects it (ApiError's code and message). */
export interface LoginRefusal {
  code: string | null;
  message: string;
}

/** The inline feedback for a refusal, given the wrong passwords counted so far (this one included). */
export function loginFeedback(refusal: LoginRefusal, failures: number): LoginFeedback {
  const message = refusal.message || SYSTEM_ERROR_MESSAGE;
  if (refusal.code === LOCKED_CODE) return { type: 'error', message, description: LOCKED_HELP, locked: true };
  if (refusal.code === WRONG_CREDENTIALS_CODE) {
    const warning = attemptsWarning(failures);
    return warning ? { type: 'warning', message, description: warning, locked: false } : { type: 'error', message, locked: false };
  }
  return { type: 'error', message, locked: false };
}

interface FailureRecord {
  failures: number;
  /** When the last wrong password was given (ms since the epoch). */
  at: number;
}

type FailureBook = Record<string, FailureRecord>;

function book(): FailureBook {
  try {
    const stored = JSON.parse(readSessionNote('loginFailures') ?? '{}') as unknown;
    return stored && typeof stored === 'object' ? (stored as FailureBook) : {};
  } catch (error) {
    // A note that is not JSON, or storage refused: no failures counted.
    if (!(error instanceof SyntaxError || error instanceof DOMException)) throw error;
    return {};
  }
}

/** Counts a wrong password for the login name (forgotten LOCK_MINUTES after the last, as the platform does); answers the count. */
export function countWrongPassword(loginName: string, now = Date.now()): number {
  const failures = book();
  const previous = failures[loginName];
  const fresh = previous && now - previous.at < LOCK_MINUTES * 60_000 ? previous.failures : 0;
  const next = Math.min(fresh + 1, LOGIN_ATTEMPTS_BEFORE_LOCK);
  writeSessionNote('loginFailures', JSON.stringify({ ...failures, [loginName]: { failures: next, at: now } }));
  return next;
}

/** The wrong passwords counted for the login name so far. */
export function wrongPasswords(loginName: string, now = Date.now()): number {
  const record = book()[loginName];
  return record && now - record.at < LOCK_MINUTES * 60_000 ? record.failures : 0;
}
