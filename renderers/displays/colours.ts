import type { StateColour } from '../schema/actionTypes';

/**
 * What each meaning is drawn in where a colour value is needed (a chart's series, a figure): antd
 * 5's status colours, as its `success`/`processing`/`warning`/`error`/`default` tags draw them, so a
 * state is one colour on every page, the big screen included (issue 34).
 */
export const MEANING_COLOURS: Readonly<Record<StateColour, string>> = {
  success: '#52c41a',
  processing: '#1677ff',
  warning: '#faad14',
  error: '#ff4d4f',
  default: '#8c8c8c',
};

/**
 * The series' colours of a chart option in words (`紧急:#ff4d4f,重要:#faad14`), for the chart's
 * container: what the chart tells by colour, readable without it (and by a test).
 */
export function seriesColours(option: object): string {
  const given = (option as { series?: unknown }).series;
  const series = Array.isArray(given) ? (given as Array<{ name?: unknown; itemStyle?: { color?: unknown } }>) : [];
  return series
    .filter((entry) => typeof entry.itemStyle?.color === 'string')
    .map((entry) => `${String(entry.name ?? '')}:${String(entry.itemStyle?.color)}`)
    .join(',');
}
