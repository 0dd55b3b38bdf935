import sanitize from 'sanitize-html';
import { decodeEntities, normalizedUrl } from './markup';

/**
 * The HTML a notification body or goods description may keep (issue 4): a whitelist of text and
 * list elements, links to http(s) or mailto, images from http(s) or the platform's /files/.
 * Everything else goes: unknown elements are unwrapped (their text stays), script-like elements
 * vanish with their content, every attribute not listed here (on* handlers, style, class, id …) is
 * dropped. Parsing and serialising are sanitize-html's (htmlparser2), a kept library, as the field
 * does it (issue 18); this module only states the whitelist.
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

/** Elements removed together with everything inside them. */
const DROPPED_WITH_CONTENT = [
  'script', 'style', 'iframe', 'object', 'applet', 'template', 'noscript', 'textarea', 'title', 'xmp', 'noembed',
  'noframes', 'plaintext', 'svg', 'math', 'select', 'frameset', 'head',
];

const MAX_NESTING = 64;
const MAX_ATTRIBUTE_LENGTH = 2048;
const LINK_URL = /^(https?:\/\/|mailto:)/i;
const IMAGE_URL = /^(https?:\/\/|\/files\/)/i;
const DIMENSION = /^\d{1,4}$/;

/** The attributes of an allowed element that pass their own rule (values arrive decoded). */
function checkedAttributes(element: string, attributes: Readonly<Record<string, string>>): Record<string, string> {
  const kept: Record<string, string> = {};
  for (const name of ALLOWED_ATTRIBUTES[element] ?? []) {
    const raw = attributes[name];
    if (raw === undefined) continue;
    const value = raw.slice(0, MAX_ATTRIBUTE_LENGTH);
    switch (name) {
      case 'href': {
        const url = normalizedUrl(value);
        if (LINK_URL.test(url)) kept.href = url;
        break;
      }
      case 'src': {
        const url = normalizedUrl(value);
        if (IMAGE_URL.test(url)) kept.src = url;
        break;
      }
      case 'target':
        if (value.trim().toLowerCase() === '_blank') {
          kept.target = '_blank';
          kept.rel = 'noopener noreferrer';
        }
        break;
      case 'width':
      case 'height':
        if (DIMENSION.test(value.trim())) kept[name] = value.trim();
        break;
      default:
        kept[name] = value;
    }
  }
  return kept;
}

const OPTIONS: sanitize.IOptions = {
  allowedTags: Object.keys(ALLOWED_ATTRIBUTES),
  allowedAttributes: { ...Object.fromEntries(Object.entries(ALLOWED_ATTRIBUTES).map(([element, names]) => [element, [...names]])), a: ['href', 'title', 'target', 'rel'] },
  // The library's own URL check as well as ours: these schemes, no protocol-relative urls.
  allowedSchemes: ['http', 'https', 'mailto'],
  allowedSchemesByTag: { img: ['http', 'https'] },
  allowedSchemesAppliedToAttributes: ['href', 'src'],
  allowProtocolRelative: false,
  allowedStyles: {},
  allowVulnerableTags: false,
  disallowedTagsMode: 'discard',
  nonTextTags: DROPPED_WITH_CONTENT,
  nestingLimit: MAX_NESTING,
  parseStyleAttributes: false,
  transformTags: Object.fromEntries(
    Object.keys(ALLOWED_ATTRIBUTES).map((element) => [element, (tagName: string, attribs: sanitize.Attributes) => ({ tagName, attribs: checkedAttributes(element, attribs) })]),
  ),
  // An image without an allowed source is no image.
  exclusiveFilter: (frame) => frame.tag === 'img' && !frame.attribs.src,
};

/**
 * Sanitises user-supplied HTML to the whitelist above. The result is well-formed (every element
 * closed), its text fully escaped, and nothing in it can run script.
 */
export function sanitizeHtml(source: string): string {
  return sanitize(source.replaceAll('\u0000', ''), OPTIONS);
}

/** The plain text of sanitised HTML (for keyword search): tags become spaces, references decoded. */
export function textOfHtml(sanitized: string): string {
  return decodeEntities(sanitized.replace(/<[^>]*>/g, ' '))
    .replace(/\s+/g, ' ')
    .trim();
}
