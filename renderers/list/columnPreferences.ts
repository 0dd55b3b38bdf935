import type { Column } from '../schema/types';

/** Which columns a user shows, in which order, remembered per page in local storage. */
export interface ColumnPreferences {
  order: string[];
  hidden: string[];
}

const key = (view: string) => `iot-console:columns:${view}`;

export function defaultPreferences(columns: readonly Column[]): ColumnPreferences {
  return { order: columns.map((c) => c.field), hidden: columns.filter((c) => c.hidden).map((c) => c.field) };
}

export function loadPreferences(view: string, columns: readonly Column[]): ColumnPreferences {
  const fallback = defaultPreferences(columns);
  try {
    const stored = JSON.parse(window.localStorage.getItem(key(view)) ?? 'null') as ColumnPreferences | null;
    if (!stored || !Array.isArray(stored.order) || !Array.isArray(stored.hidden)) return fallback;
    // Columns added to the schema since the preference was saved go to the end; removed ones drop.
    const known = new Set(fallback.order);
    const order = [...stored.order.filter((f) => known.has(f)), ...fallback.order.filter((f) => !stored.order.includes(f))];
    return { order, hidden: stored.hidden.filter((f) => known.has(f)) };
  } catch (error) {
    // A stored value that is not JSON, or storage refused (private mode): the schema's columns.
    if (!(error instanceof SyntaxError || error instanceof DOMException)) throw error;
    return fallback;
  }
}

export function savePreferences(view: string, preferences: ColumnPreferences): void {
  try {
    window.localStorage.setItem(key(view), JSON.stringify(preferences));
  } catch (error) {
    // Private mode or full storage: the preference lasts for this page only.
    if (!(error instanceof DOMException)) throw error;
  }
}

export function clearPreferences(view: string): void {
  window.localStorage.removeItem(key(view));
}

/** The columns to show, in the user's order. */
export function arrange(columns: readonly Column[], preferences: ColumnPreferences): Column[] {
  const byField = new Map(columns.map((c) => [c.field, c]));
  return preferences.order.filter((f) => !preferences.hidden.includes(f)).map((f) => byField.get(f)).filter((c): c is Column => Boolean(c));
}

export function move(order: readonly string[], field: string, delta: -1 | 1): string[] {
  const index = order.indexOf(field);
  const target = index + delta;
  if (index < 0 || target < 0 || target >= order.length) return [...order];
  const next = [...order];
  [next[index], next[target]] = [next[target], next[index]];
  return next;
}
