import { randomInt, randomUUID } from 'node:crypto';
import { renderAsync } from '@resvg/resvg-js';
import * as svgCaptcha from 'svg-captcha';
import type { Queryable } from '../db/database';
import { ApiFailure } from '../http/envelope';
import { countHit } from './rateLimit';

/**
 * The image captcha an anonymous caller solves before a code is sent to a phone or mail (issue 18,
 * finding 5; issue 30): 4 digits, valid CAPTCHA_TTL_SECONDS, one try. Drawn by `svg-captcha` (each
 * digit a glyph of a real font as an outline, shaken, under noise curves, in random colours) and
 * rasterised on the server by `@resvg/resvg-js` into a PNG: no vector, glyph or text of the answer
 * leaves the server (an SVG's outlines were matched back to digits by a short program, 20 of 20).
 * It ties a code to a person at the forgot-password screen; a determined OCR is still bounded by
 * the per-address captcha limit and the per-target, per-tenant and daily code limits.
 */
export const CAPTCHA_LENGTH = 4;
export const CAPTCHA_TTL_SECONDS = 300;
/** Captchas one address may fetch per minute. */
export const CAPTCHAS_PER_ADDRESS_PER_MINUTE = 30;
export const CAPTCHA_REQUIRED = '请先输入图形验证码';
export const CAPTCHA_WRONG = '图形验证码错误或已过期';

const WIDTH = 120;
const HEIGHT = 40;
/** Drawn at twice the size it is shown (98 × 30 in the console), so it stays sharp on a dense screen. */
const ZOOM = 2;
const BACKGROUND = '#f5f7fa';

/**
 * svg-captcha drawing a given text: its README's `svgCaptcha(text, options)` (the module itself;
 * its typings declare only `create`, which draws a text of its own chosen with Math.random).
 */
const drawText = (svgCaptcha as unknown as { default: (text: string, options: Parameters<typeof svgCaptcha.create>[0]) => string }).default;

/** The PNG of `answer`, drawn and rasterised as above (in libuv's pool: the event loop goes on meanwhile). */
export async function renderCaptcha(answer: string): Promise<Buffer> {
  const svg = drawText(answer, { width: WIDTH, height: HEIGHT, fontSize: 44, noise: 4, color: true, background: BACKGROUND });
  const image = await renderAsync(svg, { background: BACKGROUND, fitTo: { mode: 'zoom', value: ZOOM }, font: { loadSystemFonts: false } });
  return image.asPng();
}

export interface Captcha {
  uuid: string;
  /** A data URL of the PNG, for an <img>. */
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
  return { uuid, image: `data:image/png;base64,${(await renderCaptcha(answer)).toString('base64')}`, expiresIn: CAPTCHA_TTL_SECONDS };
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
