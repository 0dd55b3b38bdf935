import { Image, Space } from 'antd';
import DOMPurify from 'dompurify';
import { useMemo } from 'react';
import { FILE_PATH_PREFIX, type FileUrlSource } from '../data/filePaths';
import { useFileUrls } from '../data/fileUrls';

/** Sanitised HTML (DOMPurify): no script, no handler, no javascript: url ever reaches the page. */
export function sanitiseHtml(html: string): string {
  // Where DOMPurify cannot work (no full DOM), nothing is trusted: the markup shows as text.
  if (!DOMPurify.isSupported) return html.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe'], FORBID_ATTR: ['style'] });
}

const FILE_IMAGES = `img[src^="${FILE_PATH_PREFIX}"]`;

/** The platform's files (`/files/…`) that sanitised HTML shows as images. */
export function fileImagesOf(clean: string): string[] {
  if (!clean.includes(FILE_PATH_PREFIX)) return [];
  const template = document.createElement('template');
  template.innerHTML = clean;
  return [...template.content.querySelectorAll(FILE_IMAGES)].map((image) => image.getAttribute('src') ?? '');
}

/**
 * Sanitised HTML with each image of the platform's files (`/files/…`) given its url from `urlOf`;
 * one without a url (not known yet, or not the session's to read) loses its `src` rather than
 * asking the server for a file it would refuse.
 */
export function withFileUrls(clean: string, urlOf: (path: string) => string | undefined): string {
  if (!clean.includes(FILE_PATH_PREFIX)) return clean;
  // A template's content is inert: nothing in it loads while the urls are rewritten.
  const template = document.createElement('template');
  template.innerHTML = clean;
  template.content.querySelectorAll(FILE_IMAGES).forEach((image) => {
    const url = urlOf(image.getAttribute('src') ?? '');
    if (url) image.setAttribute('src', url);
    else image.removeAttribute('src');
  });
  return template.innerHTML;
}

/** Sanitised HTML; with `files`, its images of the platform's files shown at the session's urls. */
export function SafeHtml({ html, files }: { html: string; files?: FileUrlSource }) {
  const clean = useMemo(() => sanitiseHtml(html), [html]);
  const images = useMemo(() => fileImagesOf(clean), [clean]);
  const urlOf = useFileUrls(files, images);
  const shown = useMemo(() => withFileUrls(clean, urlOf), [clean, urlOf]);
  return <div className="safe-html" dangerouslySetInnerHTML={{ __html: shown }} />;
}

/** Image thumbnails (48 px), previewed together when there are several: stored files at the session's urls. */
export function Thumbnails({ values, files }: { values: readonly string[]; files?: FileUrlSource }) {
  const urlOf = useFileUrls(files, values);
  const urls = values.map(urlOf);
  const thumbnail = (url: string | undefined, index: number) =>
    url ? (
      <Image key={`${index}:${url}`} width={48} height={48} style={{ objectFit: 'cover' }} src={url} alt="" />
    ) : (
      // Its url is on its way (or the file is not the session's to see): its place, not a broken image.
      <span key={`${index}:waiting`} data-testid="thumbnail-waiting" style={{ display: 'inline-block', width: 48, height: 48 }} />
    );
  if (urls.length === 1) return thumbnail(urls[0], 0);
  return (
    <Image.PreviewGroup>
      <Space size={4} wrap>
        {urls.map(thumbnail)}
      </Space>
    </Image.PreviewGroup>
  );
}
