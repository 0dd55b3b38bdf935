/**
 * Value templates of page schemas: a string that is exactly `{{path}}` resolves to the value at
 * that path of the scope (keeping its type); `{{path}}` inside a longer string is interpolated.
 * Paths are dotted (`record.id`, `params.orgCode`, `selection.keys`). A whole template may end in
 * a conversion, `{{params.id | number}}` (route query values are text). No expressions are
 * evaluated: a template can only read the scope.
 */
export type Scope = Readonly<Record<string, unknown>>;

/** A whole-value template, `{{root.path}}` or `{{root.path | number}}` (npm run check reads the grammar from here too). */
export const TEMPLATE_WHOLE = /^\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$]+)*)\s*(?:\|\s*(number|string)\s*)?\}\}$/;

const CONVERSIONS: Record<string, (value: unknown) => unknown> = {
  number: (value) => (value === undefined || value === null || value === '' ? undefined : Number(value)),
  string: (value) => (value === undefined || value === null ? undefined : String(value)),
};
/** A template inside a longer string (no conversion). */
export const TEMPLATE_PART = /\{\{\s*([A-Za-z_$][\w$]*(?:\.[\w$]+)*)\s*\}\}/g;

export function readPath(scope: unknown, path: string): unknown {
  let value: unknown = scope;
  for (const key of path.split('.')) {
    if (value === null || value === undefined || typeof value !== 'object') return undefined;
    if (!Object.prototype.hasOwnProperty.call(value, key)) return undefined;
    value = (value as Record<string, unknown>)[key];
  }
  return value;
}

export function resolveTemplate(template: unknown, scope: Scope): unknown {
  if (typeof template === 'string') {
    const whole = TEMPLATE_WHOLE.exec(template);
    if (whole) {
      const value = readPath(scope, whole[1]);
      return whole[2] ? CONVERSIONS[whole[2]](value) : value;
    }
    return template.replace(TEMPLATE_PART, (_match, path: string) => {
      const value = readPath(scope, path);
      return value === undefined || value === null ? '' : String(value);
    });
  }
  if (Array.isArray(template)) return template.map((item) => resolveTemplate(item, scope));
  if (template && typeof template === 'object') {
    return Object.fromEntries(Object.entries(template).map(([key, value]) => [key, resolveTemplate(value, scope)]));
  }
  return template;
}

/** The params of a page opened without any: one shared object, so hooks see a stable value. */
export const NO_PARAMS: Readonly<Record<string, unknown>> = Object.freeze({});
