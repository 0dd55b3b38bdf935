import { Space, Tag } from 'antd';
import { lazy, Suspense, type ReactNode } from 'react';
import type { FileUrlSource } from '../data/filePaths';
import { conditionHolds } from '../schema/condition';
import { makeScope, readPath, resolveTemplate } from '../schema/template';
import type { StateColour } from '../schema/actionTypes';
import type { Column } from '../schema/types';
import type { RendererServices } from '../services';
import { Registry, type PropSpecs } from '../registry';
import { TextLink } from '../runtime/text';

export interface DisplayContext {
  services: RendererServices;
  column: Pick<Column, 'dictType' | 'to' | 'field' | 'color'>;
  record: Record<string, unknown>;
}

export type Display = (value: unknown, context: DisplayContext) => ReactNode;

/**
 * One named display a column may use (`"display"`): how it draws a value, and the column props it
 * takes beyond `field` (`dictType`, `to`, `color`), which `npm run check` reads (a `dict` without
 * its `dictType` is refused).
 */
export interface DisplayKind {
  render: Display;
  props?: PropSpecs;
  /** Free text that may run on: a list cuts it to one line with an ellipsis unless its column says otherwise. */
  cut?: boolean;
  /** A number or an amount: a list lines it up on the right, digit under digit. */
  numeric?: boolean;
  /** Shows the value as it is, so that an identifier column (a code, an ICCID) is shown whole in monospace. */
  verbatim?: boolean;
  /** One unit (a time, a number, an amount, a label): a detail never breaks it over two lines. */
  unbroken?: boolean;
}

/** What the lists and details know of a display by its name (a name nobody registered: none of it). */
export const displayTraits = (name: string | undefined): Readonly<Pick<DisplayKind, 'cut' | 'numeric' | 'verbatim' | 'unbroken'>> =>
  DISPLAY_KINDS.get(name ?? 'text') ?? {};

/**
 * The displays a page may name: the built-ins below are entries like any other, so adding one is
 * one `register` and a test (tests/unit/renderer/registries.test.tsx); `npm run check`, the page
 * validator and `npm run schemas` read the names from here.
 */
export const DISPLAY_KINDS = new Registry<DisplayKind>('展示方式');

/** SPEC §5: an empty value shows 暂无 in phone fields; other empty cells show a dash. */
const EMPTY = '-';
const isBlank = (value: unknown) => value === undefined || value === null || value === '';
/** The thumbnail's place while its code loads, so that the row does not jump. */
const EMPTY_THUMBNAIL = <span style={{ display: 'inline-block', width: 48, height: 48 }} />;

/** Text formats come from the console (SPEC §9 count and duration, SPEC §5 phone, dates). */
const textFormat =
  (name: string): Display =>
  (value, { services }) => {
    const format = services.formats[name];
    if (name !== 'phone' && isBlank(value)) return EMPTY;
    return format ? format(value) : String(value);
  };

/**
 * A tag's colour by what it means (issue 34), never a hash of its text: the column's rule when it
 * has one (a meaning, or an expression of the row giving one), else what the value's dictionary
 * item carries, else default. The names are antd's status colours, so every page (the big screen's
 * tags too) draws a meaning alike; the label stays beside it.
 */
function tagColour(item: unknown, { services, column, record }: DisplayContext): StateColour {
  const colour = column.color !== undefined ? resolveTemplate(column.color, makeScope({ record, user: services.user })) : column.dictType && services.dictionaries.colour?.(column.dictType, item);
  return MEANINGS.includes(colour as StateColour) ? (colour as StateColour) : 'default';
}

const MEANINGS: readonly StateColour[] = ['success', 'processing', 'warning', 'error'];

// HTML and images are drawn by renderers/displays/media.tsx, loaded when a page first shows one:
// DOMPurify and antd's Image are a sixth of a list page's download (issue 8).
const LazySafeHtml = lazy(() => import('./media').then((module) => ({ default: module.SafeHtml })));
const LazyThumbnails = lazy(() => import('./media').then((module) => ({ default: module.Thumbnails })));

/** Sanitised HTML (renderers/displays/media.tsx), loaded with its sanitiser on first use; `files`: where its stored images' urls come from. */
export function SafeHtml({ html, files }: { html: string; files?: FileUrlSource }) {
  return (
    <Suspense fallback={null}>
      <LazySafeHtml html={html} files={files} />
    </Suspense>
  );
}

const BUILT_IN: Readonly<Record<string, Display>> = {
  text: (value) => (isBlank(value) ? EMPTY : typeof value === 'object' ? JSON.stringify(value) : String(value)),
  dict: (value, { services, column }) => (isBlank(value) ? EMPTY : services.dictionaries.label(column.dictType ?? '', value)),
  tag: (value, context) => {
    const { services, column } = context;
    // A list shows one tag per item (the device's chosen tags, say).
    const items = (Array.isArray(value) ? value : [value]).filter((item) => !isBlank(item));
    if (items.length === 0) return EMPTY;
    const tags = items.map((item) => (
      <Tag key={String(item)} color={tagColour(item, context)}>
        {column.dictType ? services.dictionaries.label(column.dictType, item) : String(item)}
      </Tag>
    ));
    return tags.length === 1 ? tags[0] : <Space size={[0, 4]} wrap>{tags}</Space>;
  },
  datetime: textFormat('datetime'),
  date: textFormat('date'),
  number: textFormat('number'),
  count: textFormat('count'),
  duration: textFormat('duration'),
  phone: textFormat('phone'),
  money: textFormat('money'),
  percent: textFormat('percent'),
  boolean: (value) => (isBlank(value) ? EMPTY : value === true || value === 1 || value === '1' || value === 'true' ? '是' : '否'),
  image: (value, { services }) => {
    // A list of images (a form's photos) shows as thumbnails previewed together.
    const values = (Array.isArray(value) ? value : [value]).filter((item) => !isBlank(item)).map(String);
    if (values.length === 0) return EMPTY;
    // Each stored picture at the session's url for it, asked for with every other one on the page in one call.
    return (
      <Suspense fallback={EMPTY_THUMBNAIL}>
        <LazyThumbnails values={values} files={services.files} />
      </Suspense>
    );
  },
  link: (value, { services, column, record }) => {
    if (isBlank(value)) return EMPTY;
    const to = column.to ? String(resolveTemplate(column.to, makeScope({ record, user: services.user }))) : '';
    if (!to.startsWith('/')) return String(value);
    return (
      <TextLink
        href={to}
        onClick={(event) => {
          event.preventDefault();
          services.navigate(to);
        }}
      >
        {String(value)}
      </TextLink>
    );
  },
  html: (value, { services }) => (isBlank(value) ? EMPTY : <SafeHtml html={String(value)} files={services.files} />),
};

/**
 * What each built-in takes beyond `field`, and how it reads: free text is cut in a list (a count or
 * a time cut short misleads, so the bounded formats show whole; each cut cell is also a clip for the
 * browser to composite, issue 8), numbers line up on the right, the verbatim ones may be
 * identifiers, the units never break in a detail.
 */
const BUILT_IN_TRAITS: Readonly<Record<string, Omit<DisplayKind, 'render'>>> = {
  text: { cut: true, verbatim: true },
  link: { cut: true, verbatim: true, props: { to: {} } },
  html: { cut: true },
  dict: { cut: true, unbroken: true, props: { dictType: { required: true, dictType: true } } },
  tag: { props: { dictType: { dictType: true }, color: {} } },
  number: { numeric: true, unbroken: true },
  count: { numeric: true, unbroken: true },
  money: { numeric: true, unbroken: true },
  percent: { numeric: true, unbroken: true },
  phone: { verbatim: true, unbroken: true },
  datetime: { unbroken: true },
  date: { unbroken: true },
  duration: { unbroken: true },
  boolean: { unbroken: true },
};
for (const [name, render] of Object.entries(BUILT_IN)) DISPLAY_KINDS.register(name, { render, ...BUILT_IN_TRAITS[name] });

/**
 * Renders a record's field with the column's display. Its row rules (issue 33) are expressions of
 * the row: `cellVisibleWhen` leaves the cell empty where it does not hold, `value` stands for the
 * field (a computed column), `color` colours its tag.
 */
export function renderCell(column: Column, record: Record<string, unknown>, services: RendererServices): ReactNode {
  const rowScope = column.value !== undefined || column.cellVisibleWhen !== undefined ? makeScope({ record, user: services.user }) : undefined;
  if (rowScope && !conditionHolds(column.cellVisibleWhen, rowScope)) return null;
  const value = rowScope && column.value !== undefined ? resolveTemplate(column.value, rowScope) : column.field.includes('.') ? readPath(record, column.field) : record[column.field];
  const kind = DISPLAY_KINDS.get(column.display ?? 'text') ?? DISPLAY_KINDS.get('text');
  return kind?.render(value, { services, column, record });
}
