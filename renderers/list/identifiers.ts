import type { Column } from '../schema/types';
import { displayTraits } from '../displays/displays';

/**
 * Identifiers (issue 34): a code, an ICCID, an IMEI, a serial, an order number or a phone number
 * is what tells one row from another, so a list shows it whole — never cut with an ellipsis, never
 * narrowed to fit, never wrapped — in a monospace face and selected whole with one click (to
 * copy); the table scrolls sideways before one is cut. Free text may still be cut.
 *
 * Which columns hold identifiers is decided without a flag in the page model: by display (phone),
 * by the field's last segment (code, deviceCode, iccid, imei, imsi, msisdn, mac, sn, serialNo,
 * phone, contactPhone, expressNo, requestId …) or by its title (编号, 编码, 单号, ICCID …). A column
 * whose display turns the value into words (a dictionary label, a tag, a time) is no identifier,
 * and one the page asks to cut (`ellipsis: true`) is cut.
 */

/** A field's last segment that names an identifier: `code`, `iccid`, or a camel-case tail (`deviceCode`, `expressNo`). */
const IDENTIFIER_FIELD = /(?:^|[a-z0-9])(?:[cC]ode|[iI]ccid|[iI]mei|[iI]msi|[mM]sisdn|[mM]ac|[sS]n|[sS]erial(?:No|Number)?|[pP]hone|[mM]obile|No|Id|ICCID|IMEI|IMSI|MSISDN|SN)$/;
const IDENTIFIER_TITLE = /编号|编码|单号|订单号|序列号|手机号|电话|ICCID|IMEI|IMSI|MSISDN/;

/** The class of an identifier column's cells (monospace, one line, selected whole). */
export const IDENTIFIER_CLASS = 'list-identifier';

/**
 * The cells' face: 13 px of the system's monospace (DejaVu Sans Mono on Debian, Consolas on
 * Windows, Courier or Menlo on a Mac), at most 0.61 em a Latin character; one line, selected whole.
 */
export const IDENTIFIER_CSS = `td.ant-table-cell.${IDENTIFIER_CLASS},.${IDENTIFIER_CLASS}-value{font:13px monospace;white-space:nowrap;user-select:all}`;

export function isIdentifier(column: Pick<Column, 'field' | 'title' | 'display' | 'ellipsis'>): boolean {
  if (column.ellipsis === true) return false;
  const display = column.display ?? 'text';
  if (!displayTraits(display).verbatim) return false;
  if (display === 'phone') return true;
  const last = column.field.split('.').pop() ?? column.field;
  return IDENTIFIER_FIELD.test(last) || IDENTIFIER_TITLE.test(column.title);
}

/** Pixels per character at the identifier face: a Latin character (≤ 0.61 em of 13 px), a CJK one. */
const LATIN_WIDTH = 8;
const CJK_WIDTH = 14;
/** The cell's padding (8 px either side in a middle-size table) and a little air. */
const CELL_PADDING = 16 + 8;
/** The live mark (新) beside the first column's value: a small tag and its margin. */
export const LIVE_MARK_WIDTH = 32;

/** The width an identifier takes on one line at the identifier face. */
export function identifierTextWidth(text: string): number {
  let width = 0;
  for (const char of text) width += /[\u2e80-\uffff]/.test(char) ? CJK_WIDTH : LATIN_WIDTH;
  return width;
}

/** Reads a dotted field of a row (`device.code`). */
function valueAt(record: Record<string, unknown>, field: string): unknown {
  let value: unknown = record;
  for (const part of field.split('.')) {
    if (value === null || typeof value !== 'object') return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

/**
 * The width an identifier column needs for the rows shown: its widest value whole on one line
 * (in steps of 8 px, so that a page of values a character longer or shorter keeps its columns),
 * 0 when no row has a value.
 */
export function identifierWidth(field: string, rows: readonly Record<string, unknown>[], extra = 0): number {
  let widest = 0;
  for (const row of rows) {
    const value = valueAt(row, field);
    if (value === null || value === undefined || value === '') continue;
    widest = Math.max(widest, identifierTextWidth(typeof value === 'object' ? JSON.stringify(value) : String(value)));
  }
  return widest === 0 ? 0 : Math.ceil((widest + CELL_PADDING + extra) / 8) * 8;
}
