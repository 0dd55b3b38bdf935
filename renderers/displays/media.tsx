import { Image, Space } from 'antd';
import DOMPurify from 'dompurify';

/** Sanitised HTML (DOMPurify): no script, no handler, no javascript: url ever reaches the page. */
export function sanitiseHtml(html: string): string {
  // Where DOMPurify cannot work (no full DOM), nothing is trusted: the markup shows as text.
  if (!DOMPurify.isSupported) return html.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe'], FORBID_ATTR: ['style'] });
}

export function SafeHtml({ html }: { html: string }) {
  return <div className="safe-html" dangerouslySetInnerHTML={{ __html: sanitiseHtml(html) }} />;
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
