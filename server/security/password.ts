import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { fail } from '../http/envelope';

/** SPEC §5: 8-16 visible ASCII characters, a digit plus a letter or a symbol. */
export const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[A-Za-z!-/:-@[-`{-~])[!-~]{8,16}$/;
export const PASSWORD_RULE_MESSAGE = '密码长度需8-16位，须包含数字、字母、符号中至少2种元素';

const COST: ScryptOptions = { N: 16384, r: 8, p: 1 };
const KEY_LENGTH = 32;

function derive(password: string, salt: Buffer, options: ScryptOptions): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** `scrypt$N$r$p$salt$key` (base64); a fresh random salt unless one is given (the seed's). */
export async function hashPassword(password: string, salt: Buffer = randomBytes(16)): Promise<string> {
  const key = await derive(password, salt, COST);
  return ['scrypt', COST.N, COST.r, COST.p, salt.toString('base64'), key.toString('base64')].join('$');
}

export async function verifyPassword(password: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split('$');
  if (scheme !== 'scrypt' || !salt || !key) return false;
  const expected = Buffer.from(key, 'base64');
  const actual = await derive(password, Buffer.from(salt, 'base64'), { N: Number(n), r: Number(r), p: Number(p) });
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}

/** Throws "400" with the SPEC §5 message when a new password breaks the rule. */
export function assertPasswordRule(password: string): void {
  if (!PASSWORD_PATTERN.test(password)) throw fail.badRequest(PASSWORD_RULE_MESSAGE);
}
