import { Image, Space } from 'antd';
import DOMPurify from 'dompurify';

/**
 * Sanitised HTML (DOMPurify): no script, no handler, no javascript: url ever reaches the page. With
 * `fileUrl`, images of the platform's files (`/files/…`) get their url from it (with the session's
 * file ticket: the server serves them to no one else).
 */
export function sanitiseHtml(html: string, fileUrl?: (path: string) => string): string {
  // Where DOMPurify cannot work (no full DOM), nothing is trusted: the markup shows as text.
  if (!DOMPurify.isSupported) return html.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  const clean = DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe'], FORBID_ATTR: ['style'] });
  return fileUrl ? withFileUrls(clean, fileUrl) : clean;
}

/** Sanitised HTML with each image of the platform's files (`/files/…`) given its url from `fileUrl`. */
export function withFileUrls(clean: string, fileUrl: (path: string) => string): string {
  if (!clean.includes('/files/')) return clean;
  // A template's content is inert: nothing in it loads while the urls are rewritten.
  const template = document.createElement('template');
  template.innerHTML = clean;
  template.content.querySelectorAll('img[src^="/files/"]').forEach((image) => image.setAttribute('src', fileUrl(image.getAttribute('src') ?? '')));
  return template.innerHTML;
}

export function SafeHtml({ html, fileUrl }: { html: string; fileUrl?: (path: string) => string }) {
  return <div className="safe-html" dangerouslySetInnerHTML={{ __html: sanitiseHtml(html, fileUrl) }} />;
}

/** Image thumbnails (48 px), previewed together when there are several. */
export function Thumbnails({ urls }: { urls: readonly string[] }) {
  const thumbnail = (url: string) => <Image key={url} width={48} height={48} style={{ objectFit: 'cover' }} src={url} alt="" />;
  if (urls.length === 1) return thumbnail(urls[0]);
  return (
    <Image.PreviewGroup>
      <Space size={4} wrap>
        {urls.map(thumbnail)}
      </Space>
    </Image.PreviewGroup>
  );
}
