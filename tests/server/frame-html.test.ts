import { Window } from 'happy-dom';
import { afterAll, describe, expect, it } from 'vitest';
import { sanitizeHtml, textOfHtml } from '../../server/domain/html';
import { sanitizeSvg } from '../../server/domain/svg';

/** A DOM parser as an oracle: what a browser builds from the sanitised output. */
const window = new Window();
afterAll(() => window.happyDOM.close());

const ALLOWED: Record<string, string[]> = {
  P: [], BR: [], B: [], STRONG: [], I: [], EM: [], U: [], UL: [], OL: [], LI: [], H3: [], H4: [], BLOCKQUOTE: [], SPAN: [],
  A: ['href', 'title', 'target', 'rel'],
  IMG: ['src', 'alt', 'title', 'width', 'height'],
};

interface ParsedNode {
  nodeType: number;
  nodeName: string;
  childNodes: ArrayLike<ParsedNode>;
  attributes?: ArrayLike<{ name: string; value: string }>;
}

/** Every element of the parsed output is whitelisted, with whitelisted attributes and safe URLs. */
function expectInert(html: string): void {
  const template = window.document.createElement('template');
  template.innerHTML = html;
  const walk = (node: ParsedNode) => {
    for (const child of Array.from(node.childNodes)) {
      if (child.nodeType === 1) {
        const allowed = ALLOWED[child.nodeName];
        expect(allowed, `element ${child.nodeName} in ${html}`).toBeDefined();
        for (const { name, value } of Array.from(child.attributes ?? [])) {
          expect(allowed, `attribute ${name} on ${child.nodeName} in ${html}`).toContain(name);
          if (name === 'href') expect(value).toMatch(/^(https?:\/\/|mailto:)/i);
          if (name === 'src') expect(value).toMatch(/^(https?:\/\/|\/files\/)/i);
        }
      }
      walk(child);
    }
  };
  walk(template.content as unknown as ParsedNode);
  expect(html).not.toMatch(/<\s*script|javascript:|vbscript:|\son[a-z]+\s*=|<iframe|<object|<embed|<svg|<math|<style|<form|<base|<meta|<link|srcdoc|style=/i);
}

describe('sanitizeHtml keeps the whitelist', () => {
  it('keeps text, lists, headings, quotes and emphasis', () => {
    const html = '<h3>标题</h3><h4>小标题</h4><p>正文<b>粗</b><strong>强</strong><i>斜</i><em>强调</em><u>下划线</u><span>段</span><br></p><ul><li>一</li></ul><ol><li>二</li></ol><blockquote>引用</blockquote>';
    // sanitize-html writes a void element as `<br />` (issue 18): the same element to a browser.
    expect(sanitizeHtml(html)).toBe(html.replace('<br>', '<br />'));
  });

  it('keeps http(s) and mailto links, opening new tabs safely', () => {
    expect(sanitizeHtml('<a href="https://example.com/a?b=1&amp;c=2" title="说明">链接</a>')).toBe('<a href="https://example.com/a?b=1&amp;c=2" title="说明">链接</a>');
    expect(sanitizeHtml('<a href="mailto:ops@example.com">联系</a>')).toBe('<a href="mailto:ops@example.com">联系</a>');
    expect(sanitizeHtml('<a href="http://example.com" target="_blank">x</a>')).toBe('<a href="http://example.com" target="_blank" rel="noopener noreferrer">x</a>');
    expect(sanitizeHtml('<a href="http://example.com" target="_top">x</a>')).toBe('<a href="http://example.com">x</a>');
  });

  it('keeps images from http(s) and /files/ with their size and alt', () => {
    expect(sanitizeHtml('<img src="/files/upload/2026/01/a.png" alt="图" width="120" height="80">')).toBe('<img src="/files/upload/2026/01/a.png" alt="图" width="120" height="80" />');
    expect(sanitizeHtml('<img src="https://cdn.example.com/x.png" width="100%">')).toBe('<img src="https://cdn.example.com/x.png" />');
    // Only http(s) and the platform's files: a relative or protocol-relative source is no image.
    expect(sanitizeHtml('<img src="x.png"><img src="//evil.example/x.png"><img>')).toBe('');
  });

  it('keeps character references and escapes stray markup characters', () => {
    // References are decoded to their characters and only &, < and > written as references (issue 18).
    expect(sanitizeHtml('<p>1 &lt; 2 &amp;&amp; 3 > 2 &hellip; &#169; & x</p>')).toBe('<p>1 &lt; 2 &amp;&amp; 3 &gt; 2 … © &amp; x</p>');
    expect(sanitizeHtml('a < b')).toBe('a &lt; b');
  });

  it('unwraps unknown elements but keeps their text', () => {
    expect(sanitizeHtml('<div class="x"><table><tr><td>单元格</td></tr></table><font color=red>红</font></div>')).toBe('单元格红');
  });

  it('closes what it opens and ignores stray end tags', () => {
    expect(sanitizeHtml('<p><b>粗<i>斜</b>尾</p></li></ul>')).toBe('<p><b>粗<i>斜</i></b>尾</p>');
    expect(sanitizeHtml('<ul><li>未闭合')).toBe('<ul><li>未闭合</li></ul>');
  });

  it('gives the plain text for search', () => {
    expect(textOfHtml(sanitizeHtml('<p>设备&nbsp;离线</p><ul><li>A&amp;B</li></ul>'))).toBe('设备 离线 A&B');
  });
});

describe('sanitizeHtml drops everything that could run', () => {
  const hostile: Array<[string, string]> = [
    ['a script element', '<script>window.__xss=1</script>'],
    ['a script with attributes', '<script src="https://evil.example/x.js"></script>'],
    ['a self-closed script (HTML ignores the slash)', '<script/>window.__xss=1</script>'],
    ['an unclosed script', '<p>x</p><script>window.__xss=1'],
    ['an upper-case script', '<SCRIPT>window.__xss=1</SCRIPT>'],
    ['an image error handler', '<img src=x onerror="window.__xss=1">'],
    ['an unquoted handler', '<img src=/files/a.png onerror=window.__xss=1>'],
    ['a handler after a slash', '<img/src="https://a.example/x.png"/onerror=window.__xss=1>'],
    ['a handler on an allowed element', '<p onclick="window.__xss=1" onmouseover=x>文字</p>'],
    ['a body onload', '<body onload="window.__xss=1">'],
    ['a javascript: link', '<a href="javascript:window.__xss=1">x</a>'],
    ['a mixed-case javascript: link', '<a href="JaVaScRiPt:window.__xss=1">x</a>'],
    ['a javascript: link behind spaces and controls', '<a href=" \u0001 javascript:window.__xss=1">x</a>'],
    ['a javascript: link with a tab inside', '<a href="java\tscript:window.__xss=1">x</a>'],
    ['a javascript: link with newline references', '<a href="java&#10;script:window.__xss=1">x</a>'],
    ['an entity-encoded javascript: link', '<a href="&#106;&#97;&#118;&#97;&#115;&#99;&#114;&#105;&#112;&#116;&#58;window.__xss=1">x</a>'],
    ['a hex-encoded javascript: link without semicolons', '<a href="&#x6A&#x61&#x76&#x61&#x73&#x63&#x72&#x69&#x70&#x74&#x3A;window.__xss=1">x</a>'],
    ['a named-reference colon', '<a href="javascript&colon;window.__xss=1">x</a>'],
    ['a vbscript: link', '<a href="vbscript:msgbox(1)">x</a>'],
    ['a data: link', '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>'],
    ['a data: image', '<img src="data:image/svg+xml,<svg onload=alert(1)>">'],
    ['a protocol-relative image', '<img src="//evil.example/x.png">'],
    ['an iframe', '<iframe src="https://evil.example"></iframe>'],
    ['an iframe srcdoc', '<iframe srcdoc="<script>window.__xss=1</script>"></iframe>'],
    ['an object and embed', '<object data="x.swf"></object><embed src="x.swf">'],
    ['a style element', '<style>body{background:url(javascript:alert(1))}</style>'],
    ['a style attribute', '<p style="background:url(javascript:alert(1))">x</p>'],
    ['an inline svg with onload', '<svg onload="window.__xss=1"><circle r=1></circle></svg>'],
    ['mathml with a link', '<math><mtext><a href="javascript:alert(1)">x</a></mtext></math>'],
    ['a form with a javascript: action', '<form action="javascript:alert(1)"><button>go</button></form>'],
    ['a base element', '<base href="javascript:alert(1)//">'],
    ['a meta refresh', '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">'],
    ['a link stylesheet', '<link rel="stylesheet" href="https://evil.example/x.css">'],
    ['a comment that hides a script', '<!--><script>window.__xss=1</script>-->'],
    ['a conditional comment', '<!--[if IE]><script>window.__xss=1</script><![endif]-->'],
    ['a CDATA section', '<![CDATA[<script>window.__xss=1</script>]]>'],
    ['a processing instruction', '<?xml-stylesheet href="javascript:alert(1)"?>'],
    ['an attribute breaking out of its quotes', '<img src="/files/a.png" alt="x" "onerror="window.__xss=1">'],
    ['a quote in an alt', '<img src="/files/a.png" alt=\'"><script>window.__xss=1</script>\'>'],
    ['a textarea holding a tag', '<textarea><img src=x onerror=window.__xss=1></textarea>'],
    ['a title holding a tag', '<title><img src=x onerror=window.__xss=1></title>'],
    ['an svg style breakout (mXSS)', '<svg><style><img src=x onerror=window.__xss=1></style></svg>'],
    ['noscript breakout', '<noscript><p title="</noscript><img src=x onerror=window.__xss=1>"></noscript>'],
    ['a template', '<template><script>window.__xss=1</script></template>'],
    ['nested tags inside a tag name', '<scr<script>ipt>window.__xss=1</scr</script>ipt>'],
    ['a null byte in the tag name', '<scr\u0000ipt>window.__xss=1</scr\u0000ipt>'],
    ['an event handler on a link', '<a href="https://example.com" onmouseover="window.__xss=1">x</a>'],
    ['a link target with a handler', '<a href="https://example.com" target="_blank" onfocus=window.__xss=1 autofocus>x</a>'],
    ['srcset and formaction', '<img src="/files/a.png" srcset="javascript:alert(1)"><button formaction="javascript:alert(1)">x</button>'],
    ['a plaintext element', '<plaintext><script>window.__xss=1</script>'],
    ['an unterminated tag at the end', '<p>文字</p><img src=x onerror="window.__xss=1"'],
    ['a giant nesting', '<b>'.repeat(500) + 'x'],
    ['xmp and noembed', '<xmp><script>1</script></xmp><noembed><img src=x onerror=1></noembed>'],
  ];

  for (const [title, input] of hostile) {
    it(title, () => {
      const output = sanitizeHtml(input);
      expectInert(output);
      // Sanitising is idempotent: the output is already in its final form.
      expect(sanitizeHtml(output)).toBe(output);
    });
  }

  it('keeps the readable text of the seed\'s hostile body and nothing else', () => {
    const output = sanitizeHtml('<p>报告</p><script>window.__xss=1</script><img src=x onerror="window.__xss=1"><a href="javascript:window.__xss=1">原文</a>');
    expect(output).toBe('<p>报告</p><a>原文</a>');
  });

  it('shows script text inside a quote as text, never as a tag', () => {
    expect(sanitizeHtml('&lt;script&gt;alert(1)&lt;/script&gt;')).toBe('&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(sanitizeHtml('<p title="<script>">x</p>')).toBe('<p>x</p>');
  });
});

describe('sanitizeSvg', () => {
  const svg = (body: string) => `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10">${body}</svg>`;

  it('keeps drawings, styles and ordinary links as they were', () => {
    const drawing = svg('<defs><linearGradient id="g"><stop offset="0" stop-color="#fff"/></linearGradient></defs><rect width="10" height="10" fill="url(#g)"/><a href="https://example.com"><text x="1" y="5">A &amp; B</text></a>');
    expect(sanitizeSvg(`<?xml version="1.0" encoding="UTF-8"?>\n${drawing}`)).toBe(drawing);
    expect(sanitizeSvg(svg('<style>.a{fill:red}</style><circle class="a" r="3"/>'))).toBe(svg('<style>.a{fill:red}</style><circle class="a" r="3"/>'));
  });

  const hostile: Array<[string, string]> = [
    ['a script', svg('<script>window.__xss=1</script>')],
    ['a CDATA script', svg('<script type="text/javascript"><![CDATA[window.__xss=1]]></script>')],
    ['a namespaced script', svg('<html:script xmlns:html="http://www.w3.org/1999/xhtml">window.__xss=1</html:script>')],
    ['an onload handler on the root', '<svg xmlns="http://www.w3.org/2000/svg" onload="window.__xss=1"/>'],
    ['a handler on a shape', svg('<rect onclick="window.__xss=1" onMouseOver="x" width="1"/>')],
    ['a foreignObject with HTML', svg('<foreignObject><body xmlns="http://www.w3.org/1999/xhtml"><img src="x" onerror="window.__xss=1"/></body></foreignObject>')],
    ['a javascript: link', svg('<a href="javascript:window.__xss=1"><text>x</text></a>')],
    ['an xlink javascript: link', svg('<a xlink:href="&#106;avascript:window.__xss=1"><text>x</text></a>')],
    ['a data: use', svg('<use href="data:image/svg+xml;base64,PHN2Zz48c2NyaXB0PjwvczwvPjwvc3ZnPg==#x"/>')],
    ['an animation setting a javascript: link', svg('<a><set attributeName="href" to="javascript:window.__xss=1"/><text>x</text></a>')],
    ['an animation retargeting a link by values', svg('<a><animate attributeName="xlink:href" values="https://a.example;x"/></a>')],
    ['an iframe and embed', svg('<iframe src="https://evil.example"/><embed src="x"/>')],
    ['an unsafe style import', svg('<style>@import url(https://evil.example/x.css);</style>')],
    ['a javascript: url in a style attribute', svg('<rect style="fill:url(javascript:alert(1))"/>')],
    ['a doctype with an entity hiding a script', '<!DOCTYPE svg [<!ENTITY x "<script>window.__xss=1</script>">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>'],
    ['an xml-stylesheet instruction', '<?xml-stylesheet type="text/xsl" href="https://evil.example/x.xsl"?><svg xmlns="http://www.w3.org/2000/svg"/>'],
    ['a meta refresh', svg('<meta http-equiv="refresh" content="0;url=https://evil.example"/>')],
    ['a second root with a script', `${svg('')}<script>window.__xss=1</script>`],
  ];

  for (const [title, input] of hostile) {
    it(`drops ${title}`, () => {
      const output = sanitizeSvg(input);
      expect(output).not.toBeNull();
      expect(output).toMatch(/^<svg[\s>/]/);
      expect(output).not.toMatch(/<([a-z]+:)?script|foreignObject|javascript:|data:|\son[a-z]+\s*=|<iframe|<embed|<meta|@import|<!DOCTYPE|<!ENTITY|<\?|&x;/i);
    });
  }

  it('stays linear on pathological input', () => {
    const started = performance.now();
    expect(sanitizeSvg(`<svg xmlns="http://www.w3.org/2000/svg">${'<style>'.repeat(100_000)}</svg>`)).toBe('<svg xmlns="http://www.w3.org/2000/svg"></svg>');
    sanitizeHtml(`${'<a href="'.repeat(50_000)}${'<script>'.repeat(50_000)}${'&#x6a'.repeat(50_000)}`);
    expect(performance.now() - started).toBeLessThan(2000);
  });

  it('refuses what is not an SVG document', () => {
    for (const input of ['<!doctype html><html><script>1</script></html>', 'hello <svg/>', '<svgx/>', '', 'plain text', '<div><svg/></div>']) {
      expect(sanitizeSvg(input), input).toBeNull();
    }
  });
});
