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

/** Each glyph with the words of a goods' name that choose it, first match first. */
const GLYPHS: ReadonlyArray<{ kind: string; words: readonly string[]; svg: string }> = [
  { kind: 'valve-meter', words: ['阀控'], svg: `<circle cx="200" cy="200" r="85" ${W}/><circle cx="200" cy="200" r="55" ${S} stroke-width="8"/><path d="M200 200 L232 174" ${S} stroke-width="8"/><rect x="190" y="85" width="20" height="35" ${W}/><rect x="140" y="70" width="120" height="22" rx="11" ${W}/><rect x="85" y="185" width="30" height="30" ${W}/><rect x="285" y="185" width="30" height="30" ${W}/>` },
  { kind: 'water-meter', words: ['水表'], svg: `<circle cx="200" cy="180" r="95" ${W}/><circle cx="200" cy="180" r="62" ${S} stroke-width="8"/><path d="M200 180 L236 150" ${S} stroke-width="8"/><rect x="170" y="205" width="60" height="18" rx="4" fill="{c}" fill-opacity="0.7"/><rect x="80" y="165" width="25" height="30" ${W}/><rect x="295" y="165" width="25" height="30" ${W}/>` },
  { kind: 'flow-meter', words: ['流量计'], svg: `<rect x="70" y="200" width="260" height="60" rx="8" ${W}/><rect x="150" y="95" width="100" height="105" rx="16" ${W}/><path d="M100 230 H300 M270 215 L300 230 L270 245" ${S} stroke-width="8"/><circle cx="200" cy="147" r="28" ${S} stroke-width="7"/>` },
  { kind: 'pressure', words: ['压力'], svg: `<circle cx="200" cy="170" r="100" ${W}/><path d="M130 210 A75 75 0 1 1 270 210" ${S} stroke-width="10"/><path d="M200 175 L250 130" ${S} stroke-width="9"/><circle cx="200" cy="175" r="10" fill="{c}"/><rect x="185" y="270" width="30" height="40" ${W}/>` },
  { kind: 'level', words: ['液位'], svg: `<rect x="120" y="80" width="160" height="220" rx="14" ${W}/><rect x="134" y="190" width="132" height="96" rx="6" fill="{c}" fill-opacity="0.55"/><path d="M134 190 q33 -14 66 0 t66 0" ${S} stroke-width="6"/><path d="M200 96 V160 M185 145 L200 160 L215 145" ${S} stroke-width="7"/>` },
  { kind: 'water-quality', words: ['水质'], svg: `<path d="M200 70 C250 140 280 185 280 225 a80 80 0 0 1 -160 0 C120 185 150 140 200 70 Z" ${W}/><path d="M165 230 a35 35 0 0 0 35 35" ${S} stroke-width="9"/>` },
  { kind: 'thermometer', words: ['温湿度', '温度'], svg: `<rect x="172" y="70" width="56" height="170" rx="28" ${W}/><circle cx="200" cy="265" r="48" ${W}/><rect x="190" y="120" width="20" height="140" rx="10" fill="{c}" fill-opacity="0.8"/><circle cx="200" cy="265" r="28" fill="{c}" fill-opacity="0.8"/><path d="M240 110 H262 M240 150 H262 M240 190 H262" ${S} stroke="#ffffff" stroke-width="7"/>` },
  { kind: 'smoke', words: ['烟感'], svg: `<ellipse cx="200" cy="200" rx="120" ry="70" ${W}/><circle cx="200" cy="200" r="22" fill="{c}" fill-opacity="0.8"/><path d="M130 200 a70 40 0 0 1 140 0" ${S} stroke-width="6"/><path d="M160 110 q-15 -20 0 -40 M200 115 q-15 -22 0 -45 M240 110 q-15 -20 0 -40" fill="none" stroke="#ffffff" stroke-width="8" stroke-linecap="round"/>` },
  { kind: 'gateway', words: ['网关'], svg: `<rect x="90" y="170" width="220" height="100" rx="16" ${W}/><path d="M140 170 V90 M260 170 V90" stroke="#ffffff" stroke-width="12" stroke-linecap="round"/><circle cx="140" cy="220" r="10" fill="{c}"/><circle cx="175" cy="220" r="10" fill="{c}"/><circle cx="210" cy="220" r="10" fill="{c}" fill-opacity="0.5"/><path d="M240 220 H280" ${S} stroke-width="9"/>` },
  { kind: 'electricity', words: ['电表'], svg: `<rect x="115" y="75" width="170" height="235" rx="14" ${W}/><rect x="140" y="100" width="120" height="55" rx="6" fill="{c}" fill-opacity="0.7"/><path d="M210 175 L180 235 H215 L195 290" ${S} stroke-width="10"/>` },
  { kind: 'camera', words: ['摄像'], svg: `<rect x="90" y="130" width="190" height="100" rx="18" ${W}/><path d="M280 160 L330 135 V225 L280 200 Z" ${W}/><circle cx="160" cy="180" r="30" ${S} stroke-width="9"/><path d="M185 230 V290 M150 290 H220" stroke="#ffffff" stroke-width="12" stroke-linecap="round"/>` },
  { kind: 'manhole', words: ['井盖'], svg: `<circle cx="200" cy="190" r="115" ${W}/><circle cx="200" cy="190" r="85" ${S} stroke-width="7"/><path d="M130 160 H270 M120 190 H280 M130 220 H270" ${S} stroke-width="7"/>` },
  { kind: 'noise', words: ['噪声', '扬尘'], svg: `<rect x="180" y="150" width="40" height="160" rx="8" ${W}/><rect x="150" y="90" width="100" height="70" rx="14" ${W}/><path d="M120 100 a60 60 0 0 0 0 50 M95 85 a90 90 0 0 0 0 80 M280 100 a60 60 0 0 1 0 50 M305 85 a90 90 0 0 1 0 80" fill="none" stroke="#ffffff" stroke-width="8" stroke-linecap="round"/><circle cx="200" cy="125" r="16" fill="{c}"/>` },
  { kind: 'card', words: ['物联网卡'], svg: `<path d="M140 80 H250 L290 120 V300 a14 14 0 0 1 -14 14 H140 a14 14 0 0 1 -14 -14 V94 a14 14 0 0 1 14 -14 Z" ${W}/><rect x="160" y="165" width="90" height="80" rx="10" fill="{c}" fill-opacity="0.75"/><path d="M160 192 H250 M160 218 H250 M190 165 V245 M220 165 V245" stroke="#ffffff" stroke-width="4"/>` },
  { kind: 'install', words: ['安装'], svg: `<path d="M250 85 a55 55 0 0 0 -62 72 L100 245 a22 22 0 0 0 31 31 L219 188 a55 55 0 0 0 72 -62 L258 159 L226 152 L219 120 Z" ${W}/><circle cx="116" cy="261" r="8" fill="{c}"/>` },
  { kind: 'operations', words: ['运维'], svg: `<path d="M110 215 V190 a90 90 0 0 1 180 0 V215" fill="none" stroke="#ffffff" stroke-width="16"/><rect x="95" y="200" width="45" height="75" rx="14" ${W}/><rect x="260" y="200" width="45" height="75" rx="14" ${W}/><path d="M282 275 q0 30 -50 30 H210" fill="none" stroke="#ffffff" stroke-width="8"/><circle cx="200" cy="190" r="30" fill="{c}" fill-opacity="0.7"/>` },
  { kind: 'screen', words: ['大屏'], svg: `<rect x="70" y="90" width="260" height="160" rx="12" ${W}/><path d="M110 215 L160 165 L200 195 L260 130 L290 150" ${S} stroke-width="9"/><path d="M200 250 V290 M150 295 H250" stroke="#ffffff" stroke-width="12" stroke-linecap="round"/>` },
  { kind: 'warranty', words: ['延保', '质保'], svg: `<path d="M200 75 L290 110 V180 C290 240 250 280 200 300 C150 280 110 240 110 180 V110 Z" ${W}/><path d="M160 185 L192 217 L246 157" ${S} stroke-width="14"/>` },
  { kind: 'message', words: ['短信'], svg: `<path d="M90 100 H310 a16 16 0 0 1 16 16 V240 a16 16 0 0 1 -16 16 H170 L115 300 V256 H90 a16 16 0 0 1 -16 -16 V116 a16 16 0 0 1 16 -16 Z" ${W}/><path d="M125 150 H275 M125 195 H230" ${S} stroke-width="12"/>` },
  { kind: 'survey', words: ['勘察'], svg: `<path d="M200 300 C140 225 115 185 115 150 a85 85 0 0 1 170 0 C285 185 260 225 200 300 Z" ${W}/><circle cx="200" cy="150" r="32" fill="{c}" fill-opacity="0.75"/>` },
  { kind: 'training', words: ['培训'], svg: `<rect x="80" y="95" width="240" height="170" rx="18" ${W}/><path d="M180 140 V220 L245 180 Z" fill="{c}" fill-opacity="0.8"/><path d="M140 300 H260" stroke="#ffffff" stroke-width="12" stroke-linecap="round"/>` },
];

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
