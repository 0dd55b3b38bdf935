import { afterEach, describe, expect, it } from 'vitest';
import { withFileUrls } from '../../renderers/displays/media';
import { fileUrl, setFileTicket } from '../../src/format/formats';

// Stored files are served only with the session's file ticket (issue 18, finding 9).
describe('file urls carry the session\'s file ticket', () => {
  afterEach(() => setFileTicket(null));

  it('appends the ticket to stored files only, once', () => {
    expect(fileUrl('upload/2026/11/a.png')).toBe('/files/upload/2026/11/a.png');
    setFileTicket('abc.d-_');
    expect(fileUrl('upload/2026/11/a.png')).toBe('/files/upload/2026/11/a.png?ticket=abc.d-_');
    expect(fileUrl('/files/upload/2026/11/a.png')).toBe('/files/upload/2026/11/a.png?ticket=abc.d-_');
    expect(fileUrl(fileUrl('upload/2026/11/a.png'))).toBe('/files/upload/2026/11/a.png?ticket=abc.d-_');
    for (const other of ['https://cdn.example.com/a.png', 'data:image/png;base64,AA', 'blob:x', '']) expect(fileUrl(other)).toBe(other);
  });

  it('rewrites the platform\'s images in sanitised HTML, nothing else', () => {
    setFileTicket('t.s');
    const html = withFileUrls('<p>图</p><img src="/files/upload/2026/11/a.png" alt="图"><img src="https://cdn.example.com/b.png">', fileUrl);
    expect(html).toBe('<p>图</p><img src="/files/upload/2026/11/a.png?ticket=t.s" alt="图"><img src="https://cdn.example.com/b.png">');
    expect(withFileUrls('<p>无图</p>', fileUrl)).toBe('<p>无图</p>');
  });
});
