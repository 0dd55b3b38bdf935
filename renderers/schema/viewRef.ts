/** A view reference: a page file's name with the page's parameters, `feedback/list?feedbackType=app`. */
export interface ViewRef {
  /** The page file's name, `<area>/<view>` under schemas/pages. */
  view: string;
  params: Record<string, string>;
}

/** `feedback/list?feedbackType=app` → the view and its parameters. */
export function parseViewRef(ref: string): ViewRef {
  const at = ref.indexOf('?');
  if (at < 0) return { view: ref, params: {} };
  return { view: ref.slice(0, at), params: Object.fromEntries(new URLSearchParams(ref.slice(at + 1))) };
}

/** The parameters as a query, names in order (`feedbackType=app`): the key of a page's variant. */
export function paramsKey(params: Record<string, string>): string {
  return new URLSearchParams(Object.entries(params).sort(([a], [b]) => a.localeCompare(b))).toString();
}

/** The view reference of a view with parameters (none: the view itself). */
export function formatViewRef(view: string, params: Record<string, string> = {}): string {
  const query = new URLSearchParams(params).toString();
  return query ? `${view}?${query}` : view;
}

/**
 * What the build makes of a page file with parameters (scripts/pageComposePlugin.ts): each
 * combination's page, composed, by its paramsKey.
 */
export interface PageVariants {
  $variants: Record<string, unknown>;
}

export function isPageVariants(value: unknown): value is PageVariants {
  return Boolean(value) && typeof value === 'object' && '$variants' in (value as object);
}
