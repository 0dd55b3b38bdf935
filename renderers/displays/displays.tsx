import { Image, Space, Tag, Typography } from 'antd';
import DOMPurify from 'dompurify';
import type { ReactNode } from 'react';
import { readPath, resolveTemplate } from '../schema/template';
import type { Column } from '../schema/types';
import type { RendererServices } from '../services';
import type { DisplayName } from './names';

export interface DisplayContext {
  services: RendererServices;
  column: Pick<Column, 'dictType' | 'to' | 'format' | 'field'>;
  record: Record<string, unknown>;
}

export type Display = (value: unknown, context: DisplayContext) => ReactNode;

/** SPEC §5: an empty value shows 暂无 in phone fields; other empty cells show a dash. */
const EMPTY = '-';
const isBlank = (value: unknown) => value === undefined || value === null || value === '';

/** Text formats come from the console (SPEC §9 count and duration, SPEC §5 phone, dates). */
const textFormat =
  (name: string): Display =>
  (value, { services }) => {
    const format = services.formats[name];
    if (name !== 'phone' && isBlank(value)) return EMPTY;
    return format ? format(value) : String(value);
  };

const TAG_COLORS = ['blue', 'green', 'orange', 'red', 'purple', 'cyan', 'gold', 'magenta', 'geekblue', 'lime'];

/** Same value, same colour, whatever the page. */
function colourOf(value: string): string {
  let hash = 0;
  for (const char of value) hash = (hash * 31 + char.charCodeAt(0)) >>> 0;
  return TAG_COLORS[hash % TAG_COLORS.length];
}

/** Sanitised HTML (DOMPurify): no script, no handler, no javascript: url ever reaches the page. */
export function sanitiseHtml(html: string): string {
  // Where DOMPurify cannot work (no full DOM), nothing is trusted: the markup shows as text.
  if (!DOMPurify.isSupported) return html.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return DOMPurify.sanitize(html, { USE_PROFILES: { html: true }, FORBID_TAGS: ['style', 'form', 'input', 'button', 'iframe'], FORBID_ATTR: ['style'] });
}

export function SafeHtml({ html }: { html: string }) {
  return <div className="safe-html" dangerouslySetInnerHTML={{ __html: sanitiseHtml(html) }} />;
}

/** The named displays a column may use (`display`). */
export const DISPLAYS: Readonly<Record<DisplayName, Display>> = {
  text: (value) => (isBlank(value) ? EMPTY : typeof value === 'object' ? JSON.stringify(value) : String(value)),
  dict: (value, { services, column }) => (isBlank(value) ? EMPTY : services.dictionaries.label(column.dictType ?? '', value)),
  tag: (value, { services, column }) => {
    // A list shows one tag per item (the device's chosen tags, say).
    const items = (Array.isArray(value) ? value : [value]).filter((item) => !isBlank(item));
    if (items.length === 0) return EMPTY;
    const tags = items.map((item) => (
      <Tag key={String(item)} color={colourOf(String(item))}>
        {column.dictType ? services.dictionaries.label(column.dictType, item) : String(item)}
      </Tag>
    ));
    return tags.length === 1 ? tags[0] : <Space size={[0, 4]} wrap>{tags}</Space>;
  },
  datetime: textFormat('datetime'),
  date: textFormat('date'),
  count: textFormat('count'),
  duration: textFormat('duration'),
  phone: textFormat('phone'),
  money: textFormat('money'),
  percent: textFormat('percent'),
  boolean: (value) => (isBlank(value) ? EMPTY : value === true || value === 1 || value === '1' || value === 'true' ? '是' : '否'),
  image: (value, { services }) => {
    // A list of images (a form's photos) shows as thumbnails previewed together.
    const urls = (Array.isArray(value) ? value : [value]).filter((item) => !isBlank(item)).map((item) => services.fileUrl(String(item)));
    if (urls.length === 0) return EMPTY;
    const thumbnail = (url: string) => <Image key={url} width={48} height={48} style={{ objectFit: 'cover' }} src={url} alt="" />;
    if (urls.length === 1) return thumbnail(urls[0]);
    return (
      <Image.PreviewGroup>
        <Space size={4} wrap>
          {urls.map(thumbnail)}
        </Space>
      </Image.PreviewGroup>
    );
  },
  link: (value, { services, column, record }) => {
    if (isBlank(value)) return EMPTY;
    const to = column.to ? String(resolveTemplate(column.to, { record })) : '';
    if (!to.startsWith('/')) return String(value);
    return (
      <Typography.Link
        href={to}
        onClick={(event) => {
          event.preventDefault();
          services.navigate(to);
        }}
      >
        {String(value)}
      </Typography.Link>
    );
  },
  html: (value) => (isBlank(value) ? EMPTY : <SafeHtml html={String(value)} />),
};


/** Renders a record's field with the column's display. */
export function renderCell(column: Column, record: Record<string, unknown>, services: RendererServices): ReactNode {
  const value = column.field.includes('.') ? readPath(record, column.field) : record[column.field];
  const display = DISPLAYS[(column.display ?? 'text') as DisplayName] ?? DISPLAYS.text;
  return display(value, { services, column, record });
}
