import { textWidth } from '../actions/RowActions';

export interface ColumnSpace {
  /** The width the schema asks for. */
  width: number;
  /** The narrowest the column may become (its title and sorter whole). */
  min: number;
  /** Whether the column may be narrowed: its cells are cut with an ellipsis (free text). */
  shrinkable: boolean;
}

/** Cell padding (8 px either side in a middle-size table) and the sorter's arrows. */
const CELL_PADDING = 16;
const SORTER_WIDTH = 26;
/** No text column narrower than this: four characters and the ellipsis. */
const NARROWEST = 72;

/**
 * Free text narrows to fit no further than this (unless the schema asks for less): about four
 * characters, so that a title or a name still tells rows apart (告警标题 showed three).
 */
export const READABLE_WIDTH = 4 * 14 + CELL_PADDING;

/** The narrowest a column may be: its title (and sort arrows) on one line. */
export function minimumWidth(title: string, sortable: boolean): number {
  return Math.max(NARROWEST, textWidth(title) + CELL_PADDING + (sortable ? SORTER_WIDTH : 0));
}

/**
 * Widths that fit `available` pixels when they can: the columns whose text is cut with an
 * ellipsis give up width (each in proportion to what it has above its minimum) until the table
 * fits its card. A table that still does not fit keeps the narrowed widths and scrolls sideways
 * inside its card. Unknown space (`available` 0: not measured yet, or no layout as in jsdom)
 * leaves the schema's widths.
 *
 * `fixed` is the width taken by columns that are not in `columns` (selection, 操作).
 */
export function fitColumns(columns: readonly ColumnSpace[], available: number, fixed = 0): number[] {
  const asked = columns.map((c) => c.width);
  if (available <= 0) return asked;
  const total = asked.reduce((sum, w) => sum + w, 0) + fixed;
  const excess = total - available;
  if (excess <= 0) return asked;
  const slack = columns.map((c) => (c.shrinkable ? Math.max(0, c.width - c.min) : 0));
  const totalSlack = slack.reduce((sum, s) => sum + s, 0);
  if (totalSlack === 0) return asked;
  const share = Math.min(1, excess / totalSlack);
  return columns.map((c, index) => Math.floor(c.width - slack[index] * share));
}

/**
 * A cut cell clips its text with `overflow: clip`, not antd's `hidden`: a cell that hides its
 * overflow is a scroll container to Chromium, with a scrollable area and a clip of its own (a
 * 1,000-row page of five cut columns: 5,000 of them, in its layout and its memory); a clipped one
 * is not, and draws the same ellipsis (issue 35).
 */
export const CUT_CSS = '.ant-table-wrapper .ant-table-cell.ant-table-cell-ellipsis{overflow:clip}';
