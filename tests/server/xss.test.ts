// Stored XSS (#9): the classic payloads, through the server. HTML fields are sanitised on save to
// markup that cannot run script; plain-text fields are stored as the text they are (the console
// renders them as text, which tests/browser/xss.spec.ts proves in Chromium) or refused.
import { Window } from 'happy-dom';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sanitizeHtml } from '../../server/domain/html';
import { NAME_MAX_LENGTH } from '../../server/operations/profile';
import { XSS_PAYLOADS } from '../support/xssPayloads';
import { ADMIN_PASSWORD, startServer, type TestServer } from './harness';

const SCRIPTABLE_ELEMENTS = 'script, iframe, frame, object, embed, base, meta, link, style, form, input, button, select, textarea, keygen, isindex, template, noscript, svg, math, video, audio, details, marquee, body';
const URL_ATTRIBUTES = ['href', 'src', 'action', 'formaction', 'xlink:href', 'background', 'data', 'srcdoc', 'poster', 'style'];

/** What could run script in this markup once a browser parses it (empty when nothing could). */
function dangers(html: string): string[] {
  const window = new Window();
  try {
    const container = window.document.createElement('div');
    container.innerHTML = html;
    const found: string[] = [];
    container.querySelectorAll(SCRIPTABLE_ELEMENTS).forEach((element) => found.push(`<${element.tagName.toLowerCase()}>`));
    container.querySelectorAll('*').forEach((element) => {
      for (const attribute of Array.from(element.attributes)) {
        const name = attribute.name.toLowerCase();
        if (name.startsWith('on')) found.push(`${name}=`);
        if (URL_ATTRIBUTES.includes(name) && /^\s*(javascript|vbscript|data):|expression\(|url\(/i.test((attribute.value ?? '').replace(/[\s\p{Cc}]/gu, ''))) found.push(`${name}=${attribute.value}`);
      }
    });
    return found;
  } finally {
    void window.happyDOM.close();
  }
}

describe('stored XSS: HTML is sanitised on save', () => {
  it(`has at least 60 classic payloads (${XSS_PAYLOADS.length})`, () => {
    expect(XSS_PAYLOADS.length).toBeGreaterThanOrEqual(60);
    // The detector itself sees the danger in the raw payloads.
    expect(XSS_PAYLOADS.filter((payload) => dangers(payload).length > 0).length).toBeGreaterThan(40);
  });

  it.each(XSS_PAYLOADS)('sanitizeHtml leaves nothing that can run: %s', (payload) => {
    const clean = sanitizeHtml(payload);
    expect(dangers(clean)).toEqual([]);
    // Sanitising is stable: what is stored survives a second pass unchanged.
    expect(sanitizeHtml(clean)).toBe(clean);
  });
});

describe('stored XSS: plain-text fields keep the text or refuse it', () => {
  let server: TestServer;
  let tadmin: string;
  let admin: string;
  beforeAll(async () => {
    server = await startServer();
    [tadmin, admin] = await Promise.all([server.login('tadmin'), server.login('admin', ADMIN_PASSWORD)]);
  });
  afterAll(() => server.close());

  it('a nickname is stored exactly as typed (rendered as text), or refused when too long', async () => {
    for (const payload of XSS_PAYLOADS) {
      const answer = await server.call('user.name.update', payload, { token: tadmin });
      if ([...payload.trim()].length > NAME_MAX_LENGTH) {
        expect(answer.code, payload).toBe('400');
        continue;
      }
      expect(answer.code, payload).toBe('200');
      const detail = await server.call<{ userName: string }>('user.detail', {}, { token: tadmin });
      expect(detail.data?.userName, payload).toBe(payload.trim());
    }
  });

  it('a dictionary label with markup is refused ("400"); one without is stored as its text', async () => {
    expect((await server.call('dict.insert', { dict: { dictType: 'xss_probe', dictName: 'XSS 探针' } }, { token: admin })).code).toBe('200');
    let stored = 0;
    for (const [index, payload] of XSS_PAYLOADS.entries()) {
      const answer = await server.call('dict.item.insert', { dictType: 'xss_probe', item: { dictValue: `v${index}`, dictLabel: payload.slice(0, 64) } }, { token: admin });
      if (/[<>]/.test(payload.slice(0, 64))) {
        expect(answer.code, payload).toBe('400');
      } else {
        expect(answer.code, payload).toBe('200');
        stored += 1;
      }
    }
    expect(stored).toBeGreaterThan(5);
  });
});
