import { randomInt, randomUUID } from 'node:crypto';
import type { Queryable } from '../db/database';
import { ApiFailure } from '../http/envelope';
import { countHit } from './rateLimit';

/**
 * The image captcha an anonymous caller solves before a code is sent to a phone or mail (issue 18,
 * finding 5): 4 digits drawn as jittered strokes (no text in the SVG to read back), valid
 * CAPTCHA_TTL_SECONDS, one try. It ties a code to a person at the forgot-password screen; it is
 * not proof against a determined OCR, which the per-target, per-tenant and daily code limits
 * still bound.
 */
export const CAPTCHA_LENGTH = 4;
export const CAPTCHA_TTL_SECONDS = 300;
/** Captchas one address may fetch per minute. */
export const CAPTCHAS_PER_ADDRESS_PER_MINUTE = 30;
export const CAPTCHA_REQUIRED = '请先输入图形验证码';
export const CAPTCHA_WRONG = '图形验证码错误或已过期';

/** Strokes of each digit on a 10 × 16 grid. */
const GLYPHS: Readonly<Record<string, ReadonlyArray<ReadonlyArray<readonly [number, number]>>>> = {
  '0': [[[2, 1], [8, 1], [9, 8], [8, 15], [2, 15], [1, 8], [2, 1]]],
  '1': [[[3, 4], [6, 1], [6, 15]], [[3, 15], [9, 15]]],
  '2': [[[1, 4], [4, 1], [8, 2], [9, 6], [1, 15], [9, 15]]],
  '3': [[[1, 2], [8, 1], [9, 5], [4, 8], [9, 11], [8, 15], [1, 14]]],
  '4': [[[7, 15], [7, 1], [1, 11], [9, 11]]],
  '5': [[[9, 1], [2, 1], [1, 7], [7, 6], [9, 10], [7, 15], [1, 14]]],
  '6': [[[8, 1], [3, 3], [1, 10], [3, 15], [8, 14], [9, 10], [5, 8], [1, 10]]],
  '7': [[[1, 1], [9, 1], [4, 15]]],
  '8': [[[5, 8], [1, 4], [5, 1], [9, 4], [5, 8], [1, 12], [5, 15], [9, 12], [5, 8]]],
  '9': [[[9, 6], [5, 8], [1, 6], [2, 2], [7, 1], [9, 6], [7, 13], [2, 15]]],
};

const WIDTH = 120;
const HEIGHT = 40;

function jitter(amount: number): number {
  return (randomInt(-1000, 1001) / 1000) * amount;
}

function colour(): string {
  return `hsl(${randomInt(0, 360)},${randomInt(50, 80)}%,${randomInt(25, 45)}%)`;
}

/** The SVG of `answer`: each digit rotated, scaled and shaken, under noise curves. */
export function renderCaptcha(answer: string): string {
  const parts: string[] = [];
  for (let i = 0; i < 6; i += 1) {
    parts.push(
      `<path d="M${randomInt(0, 30)} ${randomInt(0, HEIGHT)} Q${randomInt(30, 90)} ${randomInt(-10, HEIGHT + 10)} ${randomInt(90, WIDTH)} ${randomInt(0, HEIGHT)}" stroke="${colour()}" stroke-width="1" fill="none" opacity="0.6"/>`,
    );
  }
  [...answer].forEach((digit, index) => {
    const scale = 1.5 + jitter(0.15);
    const x = 10 + index * 26 + jitter(3);
    const y = 6 + jitter(3);
    const angle = jitter(18);
    const d = (GLYPHS[digit] ?? [])
      .map((stroke) => stroke.map(([px, py], at) => `${at === 0 ? 'M' : 'L'}${(px + jitter(0.6)).toFixed(1)} ${(py + jitter(0.6)).toFixed(1)}`).join(''))
      .join('');
    parts.push(
      `<path d="${d}" transform="translate(${x.toFixed(1)} ${y.toFixed(1)}) rotate(${angle.toFixed(1)} 8 13) scale(${scale.toFixed(2)} ${(scale * 1.05).toFixed(2)})" stroke="${colour()}" stroke-width="1.3" stroke-linecap="round" stroke-linejoin="round" fill="none"/>`,
    );
  });
  for (let i = 0; i < 30; i += 1) parts.push(`<circle cx="${randomInt(0, WIDTH)}" cy="${randomInt(0, HEIGHT)}" r="1" fill="${colour()}"/>`);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}"><rect width="100%" height="100%" fill="#f5f7fa"/>${parts.join('')}</svg>`;
}

export interface Captcha {
  uuid: string;
  /** A data URL of the SVG, for an <img>. */
  image: string;
  expiresIn: number;
}

/** A new captcha for `address` ("429" past CAPTCHAS_PER_ADDRESS_PER_MINUTE). */
export async function createCaptcha(db: Queryable, address: string, now: Date): Promise<Captcha> {
  const hit = await countHit(db, 'captcha-address', address, CAPTCHAS_PER_ADDRESS_PER_MINUTE, 60, now);
  if (!hit.allowed) throw new ApiFailure('429', '操作过于频繁，请稍后再试');
  const answer = Array.from({ length: CAPTCHA_LENGTH }, () => String(randomInt(0, 10))).join('');
  const uuid = randomUUID();
  await db.query('INSERT INTO captcha (uuid, answer, expires_at, created_at) VALUES ($1, $2, $3, $4)', [
    uuid,
    answer,
    new Date(now.getTime() + CAPTCHA_TTL_SECONDS * 1000),
    now,
  ]);
  return { uuid, image: `data:image/svg+xml;base64,${Buffer.from(renderCaptcha(answer)).toString('base64')}`, expiresIn: CAPTCHA_TTL_SECONDS };
}

/**
 * Spends the captcha `uuid` (one try, right or wrong: of two requests naming it only the first
 * gets to compare) and throws "400" 图形验证码错误或已过期 unless `answer` was its answer.
 */
export async function spendCaptcha(db: Queryable, uuid: string, answer: string, now: Date): Promise<void> {
  const [row] = await db.query<{ answer: string }>(
    'UPDATE captcha SET used_at = $2 WHERE uuid = $1 AND used_at IS NULL AND expires_at > $2 RETURNING answer',
    [uuid, now],
  );
  if (!row || row.answer !== answer.trim()) throw new ApiFailure('400', CAPTCHA_WRONG);
}

/** The answer of a live captcha, for the development helper dev.captcha (tests solve it so). */
export async function captchaAnswer(db: Queryable, uuid: string, now: Date): Promise<string | null> {
  const [row] = await db.query<{ answer: string }>('SELECT answer FROM captcha WHERE uuid = $1 AND used_at IS NULL AND expires_at > $2', [uuid, now]);
  return row?.answer ?? null;
}
