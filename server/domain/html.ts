import { decodeEntities, escapeAttribute, escapeText, normalizedUrl, tokenize, type MarkupAttribute } from './markup';

/**
 * The HTML a notification body may keep (issue 4): a whitelist of text and list elements, links
 * to http(s) or mailto, images from http(s) or the platform's /files/. Everything else goes:
 * unknown elements are unwrapped (their text stays), script-like elements vanish with their
 * content, every attribute not listed here (on* handlers, style, class, id …) is dropped.
 */
const ALLOWED_ATTRIBUTES: Readonly<Record<string, readonly string[]>> = {
  p: [],
  br: [],
  b: [],
  strong: [],
  i: [],
  em: [],
  u: [],
  ul: [],
  ol: [],
  li: [],
  h3: [],
  h4: [],
  blockquote: [],
  span: [],
  a: ['href', 'title', 'target'],
  img: ['src', 'alt', 'title', 'width', 'height'],
};

const VOID_ELEMENTS = new Set(['br', 'img']);

/** Elements removed together with everything inside them. */
const DROPPED_WITH_CONTENT = new Set([
  'script', 'style', 'iframe', 'object', 'applet', 'template', 'noscript', 'textarea', 'title', 'xmp', 'noembed',
  'noframes', 'plaintext', 'svg', 'math', 'select', 'frameset', 'head',
]);
/** Foreign (SVG, MathML) elements honour `/>`; HTML ones ignore it. */
const FOREIGN_ROOTS = new Set(['svg', 'math']);

const MAX_NESTING = 64;
const MAX_ATTRIBUTE_LENGTH = 2048;
const LINK_URL = /^(https?:\/\/|mailto:)/i;
const IMAGE_URL = /^(https?:\/\/|\/files\/)/i;
const DIMENSION = /^\d{1,4}$/;
const ANY_REFERENCE = /^/;

/** The kept attributes of an allowed element, serialised (` href="…"`). */
function attributesOf(element: string, attributes: readonly MarkupAttribute[]): Map<string, string> {
  const allowed = ALLOWED_ATTRIBUTES[element] ?? [];
  const kept = new Map<string, string>();
  for (const { name: rawName, value: rawValue } of attributes) {
    const name = rawName.toLowerCase();
    if (!allowed.includes(name) || kept.has(name)) continue;
    const value = decodeEntities(rawValue).slice(0, MAX_ATTRIBUTE_LENGTH);
    switch (name) {
      case 'href': {
        const url = normalizedUrl(value);
        if (LINK_URL.test(url)) kept.set(name, url);
        break;
      }
      case 'src': {
        const url = normalizedUrl(value);
        if (IMAGE_URL.test(url)) kept.set(name, url);
        break;
      }
      case 'target':
        if (value.trim().toLowerCase() === '_blank') {
          kept.set(name, '_blank');
          kept.set('rel', 'noopener noreferrer');
        }
        break;
      case 'width':
      case 'height':
        if (DIMENSION.test(value.trim())) kept.set(name, value.trim());
        break;
      default:
        kept.set(name, value);
    }
  }
  return kept;
}

function startTag(element: string, attributes: ReadonlyMap<string, string>): string {
  let tag = `<${element}`;
  for (const [name, value] of attributes) tag += ` ${name}="${escapeAttribute(value)}"`;
  return `${tag}>`;
}

/**
 * Sanitises user-supplied HTML to the whitelist above. The result is well-formed (every element
 * closed), its text fully escaped, and nothing in it can run script.
 */
export function sanitizeHtml(source: string): string {
  const out: string[] = [];
  const open: string[] = [];
  let dropping: { element: string; depth: number } | null = null;
  for (const token of tokenize(source, 'html')) {
    if (dropping) {
      const name = token.kind === 'start' || token.kind === 'end' ? token.name.toLowerCase() : '';
      if (token.kind === 'start' && name === dropping.element && !(token.selfClosing && FOREIGN_ROOTS.has(name))) dropping.depth += 1;
      if (token.kind === 'end' && name === dropping.element) dropping.depth -= 1;
      if (dropping.depth === 0) dropping = null;
      continue;
    }
    switch (token.kind) {
      case 'text':
      case 'cdata':
        out.push(escapeText(token.text, ANY_REFERENCE));
        break;
      case 'start': {
        const element = token.name.toLowerCase();
        if (DROPPED_WITH_CONTENT.has(element)) {
          if (!(token.selfClosing && FOREIGN_ROOTS.has(element))) dropping = { element, depth: 1 };
          break;
        }
        if (!ALLOWED_ATTRIBUTES[element]) break;
        const attributes = attributesOf(element, token.attributes);
        if (element === 'img' && !attributes.has('src')) break;
        if (VOID_ELEMENTS.has(element)) {
          out.push(startTag(element, attributes));
        } else if (open.length < MAX_NESTING) {
          out.push(startTag(element, attributes));
          open.push(element);
        }
        break;
      }
      case 'end': {
        const at = open.lastIndexOf(token.name.toLowerCase());
        while (at >= 0 && open.length > at) out.push(`</${open.pop()}>`);
        break;
      }
      case 'declaration':
        break;
    }
  }
  while (open.length > 0) out.push(`</${open.pop()}>`);
  return out.join('');
}

/** The plain text of sanitised HTML (for keyword search): tags become spaces, references decoded. */
export function textOfHtml(sanitized: string): string {
  return decodeEntities(sanitized.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}
