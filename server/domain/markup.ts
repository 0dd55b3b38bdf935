/**
 * A small, forgiving tokeniser for the markup the server accepts from users (notification HTML,
 * uploaded SVG). It never throws: whatever it cannot read as a tag becomes text, and the
 * sanitisers built on it (html.ts, svg.ts) serialise only the tokens they allow, with every text
 * and attribute re-escaped, so the browser parses exactly what they emit.
 */

export interface MarkupAttribute {
  name: string;
  /** The value as written (entities not decoded; see decodeEntities). */
  value: string;
}

export type MarkupToken =
  | { kind: 'text'; text: string }
  /** Text that is already literal (the content of a CDATA section in XML). */
  | { kind: 'cdata'; text: string }
  | { kind: 'start'; name: string; attributes: MarkupAttribute[]; selfClosing: boolean }
  | { kind: 'end'; name: string }
  /** A comment, doctype, processing instruction or other declaration (always dropped). */
  | { kind: 'declaration' };

export type MarkupMode = 'html' | 'xml';

/** HTML elements whose content the browser reads as raw text, never as tags. */
const RAW_TEXT_ELEMENTS = new Set(['script', 'style', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes', 'noscript']);

const WHITESPACE = /[\t\n\f\r ]/;
const ASCII_LETTER = /[A-Za-z]/;

function isWhitespace(char: string | undefined): boolean {
  return char !== undefined && WHITESPACE.test(char);
}

/** Reads a start or end tag at `from` (just after `<` or `</`); null when the source ends first. */
function readTag(source: string, from: number): { name: string; attributes: MarkupAttribute[]; selfClosing: boolean; end: number } | null {
  let i = from;
  while (i < source.length && !isWhitespace(source[i]) && source[i] !== '/' && source[i] !== '>') i += 1;
  const name = source.slice(from, i);
  const attributes: MarkupAttribute[] = [];
  let selfClosing = false;
  while (i < source.length) {
    const char = source[i];
    if (isWhitespace(char)) {
      i += 1;
      continue;
    }
    if (char === '>') return { name, attributes, selfClosing, end: i + 1 };
    if (char === '/') {
      selfClosing = source[i + 1] === '>';
      i += 1;
      continue;
    }
    selfClosing = false;
    // An attribute name runs to whitespace, '/', '>' or '=' (a leading '=' belongs to the name).
    const nameStart = i;
    i += 1;
    while (i < source.length && !isWhitespace(source[i]) && source[i] !== '/' && source[i] !== '>' && source[i] !== '=') i += 1;
    const attributeName = source.slice(nameStart, i);
    let j = i;
    while (isWhitespace(source[j])) j += 1;
    let value = '';
    if (source[j] === '=') {
      j += 1;
      while (isWhitespace(source[j])) j += 1;
      const quote = source[j];
      if (quote === '"' || quote === "'") {
        const close = source.indexOf(quote, j + 1);
        if (close < 0) return null;
        value = source.slice(j + 1, close);
        i = close + 1;
      } else {
        const valueStart = j;
        while (j < source.length && !isWhitespace(source[j]) && source[j] !== '>') j += 1;
        value = source.slice(valueStart, j);
        i = j;
      }
    }
    // The first of duplicate attributes wins, as in browsers.
    if (!attributes.some((attribute) => attribute.name.toLowerCase() === attributeName.toLowerCase())) attributes.push({ name: attributeName, value });
  }
  return null;
}

/** The end of a `<!DOCTYPE …>` starting at `from`, skipping an internal subset `[ … ]`. */
function doctypeEnd(source: string, from: number): number {
  let i = from;
  let inSubset = false;
  let quote: string | null = null;
  for (; i < source.length; i += 1) {
    const char = source[i];
    if (quote) {
      if (char === quote) quote = null;
    } else if (char === '"' || char === "'") {
      quote = char;
    } else if (char === '[') {
      inSubset = true;
    } else if (char === ']') {
      inSubset = false;
    } else if (char === '>' && !inSubset) {
      return i + 1;
    }
  }
  return source.length;
}

function until(source: string, marker: string, from: number): number {
  const at = source.indexOf(marker, from);
  return at < 0 ? source.length : at + marker.length;
}

/** Splits `source` into tokens; text between tags keeps its entities undecoded. */
export function tokenize(source: string, mode: MarkupMode): MarkupToken[] {
  const tokens: MarkupToken[] = [];
  let i = 0;
  let textStart = 0;
  const flushText = (end: number) => {
    if (end > textStart) tokens.push({ kind: 'text', text: source.slice(textStart, end) });
  };
  while (i < source.length) {
    const lt = source.indexOf('<', i);
    if (lt < 0) break;
    const next = source[lt + 1];
    let end: number | null = null;
    let token: MarkupToken | null = null;
    if (source.startsWith('<!--', lt)) {
      // HTML ends `<!-->` and `<!--->` at once; XML needs the full `-->`.
      if (mode === 'html' && source.startsWith('<!-->', lt)) end = lt + 5;
      else if (mode === 'html' && source.startsWith('<!--->', lt)) end = lt + 6;
      else end = until(source, '-->', lt + 4);
      token = { kind: 'declaration' };
    } else if (mode === 'xml' && source.startsWith('<![CDATA[', lt)) {
      const close = source.indexOf(']]>', lt + 9);
      end = close < 0 ? source.length : close + 3;
      token = { kind: 'cdata', text: source.slice(lt + 9, close < 0 ? source.length : close) };
    } else if (/^<!doctype/i.test(source.slice(lt, lt + 9))) {
      end = mode === 'xml' ? doctypeEnd(source, lt + 9) : until(source, '>', lt);
      token = { kind: 'declaration' };
    } else if (next === '!' || next === '?') {
      end = mode === 'xml' && next === '?' ? until(source, '?>', lt + 2) : until(source, '>', lt);
      token = { kind: 'declaration' };
    } else if (next === '/' && ASCII_LETTER.test(source[lt + 2] ?? '')) {
      const tag = readTag(source, lt + 2);
      end = tag ? tag.end : source.length;
      token = tag ? { kind: 'end', name: tag.name } : null;
    } else if (next === '/' && mode === 'html') {
      // `</>` vanishes; `</ x>` is a bogus comment.
      end = until(source, '>', lt);
      token = { kind: 'declaration' };
    } else if (ASCII_LETTER.test(next ?? '') || (mode === 'xml' && next === '_')) {
      const tag = readTag(source, lt + 1);
      // A tag cut off by the end of the source is no tag (browsers drop it).
      end = tag ? tag.end : source.length;
      token = tag ? { kind: 'start', name: tag.name, attributes: tag.attributes, selfClosing: tag.selfClosing } : null;
    }
    if (end === null) {
      i = lt + 1; // a lone '<' is text
      continue;
    }
    flushText(lt);
    if (token) tokens.push(token);
    i = end;
    textStart = end;
    // HTML ignores `/>` on these elements: `<script/>` still opens a script.
    if (mode === 'html' && token?.kind === 'start') {
      const name = token.name.toLowerCase();
      if (name === 'plaintext') {
        tokens.push({ kind: 'text', text: source.slice(i) });
        return tokens;
      }
      if (RAW_TEXT_ELEMENTS.has(name)) {
        // Everything up to the matching end tag is text, whatever it looks like.
        const closing = new RegExp(`</${name}(?=[\\t\\n\\f\\r />])`, 'gi');
        closing.lastIndex = i;
        const close = closing.exec(source);
        const contentEnd = close ? close.index : source.length;
        if (contentEnd > i) tokens.push({ kind: 'text', text: source.slice(i, contentEnd) });
        i = contentEnd;
        textStart = contentEnd;
      }
    }
  }
  flushText(source.length);
  return tokens;
}

const NAMED_ENTITIES: Readonly<Record<string, string>> = {
  amp: '&', lt: '<', gt: '>', quot: '"', apos: "'", nbsp: '\u00a0', colon: ':', Tab: '\t', NewLine: '\n',
  lpar: '(', rpar: ')', sol: '/', bsol: '\\', period: '.', comma: ',', excl: '!', num: '#', percnt: '%',
  plus: '+', equals: '=', quest: '?', semi: ';', commat: '@', lowbar: '_', grave: '`', lsqb: '[', rsqb: ']',
  lcub: '{', rcub: '}', verbar: '|', Hat: '^', dollar: '$', ast: '*', hyphen: '-', dash: '-', copy: '©',
  reg: '®', hellip: '…', mdash: '—', ndash: '–', middot: '·', laquo: '«', raquo: '»', ldquo: '“', rdquo: '”',
  lsquo: '‘', rsquo: '’', times: '×', divide: '÷', deg: '°', yen: '¥',
};

function codePointText(codePoint: number): string {
  if (codePoint === 0 || codePoint > 0x10ffff || (codePoint >= 0xd800 && codePoint <= 0xdfff)) return '\ufffd';
  return String.fromCodePoint(codePoint);
}

/**
 * Decodes character references as a browser would for the purpose of checking a value: numeric
 * ones with or without the semicolon, and the common named ones. Callers re-escape the result in
 * full, so an unknown reference stays literal text rather than becoming a character.
 */
export function decodeEntities(value: string): string {
  return value.replace(/&(?:#[xX]([0-9a-fA-F]{1,8});?|#([0-9]{1,10});?|([A-Za-z][A-Za-z0-9]{1,31});)/g, (match, hex: string | undefined, decimal: string | undefined, name: string | undefined) => {
    if (hex !== undefined) return codePointText(Number.parseInt(hex, 16));
    if (decimal !== undefined) return codePointText(Number.parseInt(decimal, 10));
    return (name !== undefined && Object.prototype.hasOwnProperty.call(NAMED_ENTITIES, name) ? NAMED_ENTITIES[name] : undefined) ?? match;
  });
}

/** Escapes a decoded value for a double-quoted attribute. */
export function escapeAttribute(value: string): string {
  return value.replace(/[&<>"]/g, (char) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] ?? char);
}

/**
 * Escapes source text for output: `<` and `>` always, `&` unless it starts a well-formed
 * reference that `references` accepts (so &hellip; or &#169; keep their meaning).
 */
export function escapeText(text: string, references: RegExp): string {
  return text
    .replaceAll('\u0000', '')
    .replace(/&(#[xX][0-9a-fA-F]{1,6};|#[0-9]{1,7};|[A-Za-z][A-Za-z0-9]{1,31};)?/g, (match, reference: string | undefined) =>
      reference && references.test(reference) ? match : `&amp;${reference ?? ''}`,
    )
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;');
}

/** A URL as the browser reads it for its scheme: no tabs or newlines, no surrounding controls or spaces. */
export function normalizedUrl(decoded: string): string {
  // eslint-disable-next-line no-control-regex
  return decoded.replace(/[\t\n\r]/g, '').replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '');
}
