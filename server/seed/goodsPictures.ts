import { readFixture } from './fixtures/fixture';

/**
 * The seed's goods pictures (issue 34: every product had the same picture — one glyph per
 * category, so every device was the same meter with a dial). Each kind of goods has a glyph of
 * its own, drawn here as inline SVG (no file to download or ship): a water meter (one with a valve), a flow pipe, a
 * pressure gauge, a tank with its level, a drop, a thermometer, a smoke alarm, a gateway, an
 * electricity meter, a camera, a manhole cover, sound waves, a SIM card with its operator's
 * colour, and for services a wrench, a headset, a screen, a shield, a message, a map pin and a
 * play button. `{c}` is the goods' colour.
 */

const W = 'fill="#ffffff" fill-opacity="0.92"';
const S = 'fill="none" stroke="{c}" stroke-linecap="round" stroke-linejoin="round"';

/**
 * Each glyph with the words of a goods' name that choose it, first match first (goodsPictures.json;
 * `{W}` in a glyph is its white fill, `{S}` its stroke).
 */
const GLYPHS = readFixture<{ GLYPHS: ReadonlyArray<{ kind: string; words: readonly string[]; svg: string }> }>('goodsPictures').GLYPHS.map((glyph) => ({
  ...glyph,
  svg: glyph.svg.replace(/\{W\}/g, W).replace(/\{S\}/g, S),
}));

const FALLBACK = GLYPHS[0];

/** The glyph a goods takes by its name (the kind it is), a meter when none fits. */
export function goodsGlyphKind(name: string): string {
  return (GLYPHS.find((glyph) => glyph.words.some((word) => name.includes(word))) ?? FALLBACK).kind;
}

/**
 * A goods picture as an inline SVG data url (the console shows one as it is): the goods' glyph on
 * its colour, with a caption (its model, or what the picture shows).
 */
export function seedGoodsPicture(name: string, caption: string, color: string): string {
  const kind = goodsGlyphKind(name);
  const glyph = (GLYPHS.find((g) => g.kind === kind) ?? FALLBACK).svg.replace(/\{c\}/g, color);
  const text = caption.replace(/[<>&"']/g, '');
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="400" height="400" viewBox="0 0 400 400" data-kind="${kind}"><defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="${color}"/><stop offset="1" stop-color="${color}" stop-opacity="0.55"/></linearGradient></defs><rect width="400" height="400" fill="url(#g)"/>${glyph}<text x="200" y="360" font-size="26" font-family="sans-serif" text-anchor="middle" fill="#ffffff">${text}</text></svg>`;
  return `data:image/svg+xml;base64,${Buffer.from(svg, 'utf8').toString('base64')}`;
}
