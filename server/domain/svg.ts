import { decodeEntities, escapeAttribute, escapeText, normalizedUrl, tokenize, type MarkupAttribute } from './markup';

/**
 * Uploaded SVG (issue 4): kept as drawn, minus everything that can run or load script. Removed
 * with their content: script, foreignObject and embedded documents, and animations that retarget
 * a link or a handler. Removed attributes: every on* handler, any value naming javascript: or
 * vbscript:, and data: links. Doctype (and so entity definitions), comments and processing
 * instructions go too. The files are further served under a sandboxing CSP (http/files.ts).
 */
const DROPPED_ELEMENTS = new Set([
  'script', 'foreignobject', 'iframe', 'embed', 'object', 'applet', 'handler', 'listener', 'frame', 'frameset',
  'meta', 'link', 'base', 'form', 'audio', 'video',
]);
const ANIMATIONS = new Set(['set', 'animate', 'animatecolor', 'animatemotion', 'animatetransform']);
const LINK_ATTRIBUTES = new Set(['href', 'src', 'action', 'formaction']);
const NAME = /^[A-Za-z_][\w.:-]*$/;
const XML_REFERENCE = /^(amp|lt|gt|quot|apos|#[0-9]+|#x[0-9a-fA-F]+);$/;
const MAX_NESTING = 256;

function localName(name: string): string {
  return name.slice(name.lastIndexOf(':') + 1).toLowerCase();
}

/** The value as the browser compares it: decoded, no whitespace or controls, lower case. */
function compact(value: string): string {
  // eslint-disable-next-line no-control-regex
  return decodeEntities(value).replace(/[\u0000-\u0020]/g, '').toLowerCase();
}

function isScriptValue(value: string): boolean {
  const compacted = compact(value);
  return compacted.includes('javascript:') || compacted.includes('vbscript:');
}

function keptAttributes(attributes: readonly MarkupAttribute[]): MarkupAttribute[] {
  const kept: MarkupAttribute[] = [];
  for (const { name, value } of attributes) {
    const local = localName(name);
    if (!NAME.test(name) || local.startsWith('on') || isScriptValue(value)) continue;
    if (LINK_ATTRIBUTES.has(local) && normalizedUrl(decodeEntities(value)).toLowerCase().startsWith('data:')) continue;
    kept.push({ name, value: decodeEntities(value) });
  }
  return kept;
}

/** Whether an animation element rewrites a link or a handler (`<set attributeName="href" …>`). */
function retargetsScript(element: string, attributes: readonly MarkupAttribute[]): boolean {
  if (!ANIMATIONS.has(element)) return false;
  return attributes.some(({ name, value }) => {
    if (localName(name) !== 'attributename') return false;
    const target = localName(compact(value));
    return target.startsWith('on') || LINK_ATTRIBUTES.has(target);
  });
}

function styleIsUnsafe(text: string): boolean {
  const compacted = compact(text);
  return compacted.includes('javascript:') || compacted.includes('vbscript:') || compacted.includes('@import') || compacted.includes('expression(');
}

/**
 * Sanitises an SVG document; null when it is not one (its first element is not `svg`, or text
 * comes before it). The answer is a well-formed XML document without the XML declaration.
 */
export function sanitizeSvg(source: string): string | null {
  const tokens = tokenize(source.replace(/^\ufeff/, ''), 'xml');
  const out: string[] = [];
  const open: string[] = [];
  let rootSeen = false;
  let dropping: { name: string; depth: number } | null = null;
  for (let index = 0; index < tokens.length; index += 1) {
    const token = tokens[index];
    if (!rootSeen) {
      if (token.kind === 'declaration') continue;
      if (token.kind === 'text' && token.text.trim() === '') continue;
      if (token.kind !== 'start' || localName(token.name) !== 'svg') return null;
      rootSeen = true;
    }
    if (dropping) {
      if (token.kind === 'start' && token.name === dropping.name && !token.selfClosing) dropping.depth += 1;
      if (token.kind === 'end' && token.name === dropping.name) dropping.depth -= 1;
      if (dropping.depth === 0) dropping = null;
      continue;
    }
    switch (token.kind) {
      case 'text':
        if (open.length > 0) out.push(escapeText(token.text, XML_REFERENCE));
        break;
      case 'cdata':
        if (open.length > 0) out.push(escapeText(token.text, /^$/));
        break;
      case 'start': {
        const element = localName(token.name);
        const styleText = element === 'style' && !token.selfClosing ? textUntilEnd(tokens, index, token.name) : '';
        const drop =
          !NAME.test(token.name) ||
          DROPPED_ELEMENTS.has(element) ||
          retargetsScript(element, token.attributes) ||
          styleText === null ||
          styleIsUnsafe(styleText) ||
          open.length >= MAX_NESTING;
        if (drop) {
          if (!token.selfClosing) dropping = { name: token.name, depth: 1 };
          break;
        }
        if (open.length === 0 && out.length > 0) {
          // A second root element: not well-formed, drop it.
          if (!token.selfClosing) dropping = { name: token.name, depth: 1 };
          break;
        }
        let tag = `<${token.name}`;
        for (const { name, value } of keptAttributes(token.attributes)) tag += ` ${name}="${escapeAttribute(value)}"`;
        out.push(token.selfClosing ? `${tag}/>` : `${tag}>`);
        if (!token.selfClosing) open.push(token.name);
        break;
      }
      case 'end': {
        const at = open.lastIndexOf(token.name);
        while (at >= 0 && open.length > at) out.push(`</${open.pop()}>`);
        break;
      }
      case 'declaration':
        break;
    }
  }
  if (!rootSeen) return null;
  while (open.length > 0) out.push(`</${open.pop()}>`);
  return out.join('');
}

/** A style element holds text and CDATA only, a few tokens at most; more is no style sheet. */
const MAX_STYLE_TOKENS = 16;

/**
 * The text and CDATA of the (style) element starting at tokens[start], up to its end tag; null
 * when it holds elements, or is unclosed or longer than MAX_STYLE_TOKENS (which also keeps a
 * document of nested unclosed styles from being scanned over and over).
 */
function textUntilEnd(tokens: ReturnType<typeof tokenize>, start: number, name: string): string | null {
  let text = '';
  for (let i = start + 1; i < tokens.length && i <= start + MAX_STYLE_TOKENS; i += 1) {
    const token = tokens[i];
    if (token.kind === 'end' && token.name === name) return text;
    if (token.kind === 'text' || token.kind === 'cdata') text += token.text;
    else if (token.kind !== 'declaration') return null;
  }
  return null;
}
