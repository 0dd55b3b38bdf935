import type { ErrorObject } from 'ajv';
import { validate as compiledValidator } from 'virtual:page-validator';
import { describeSchemaError, describeSchemaErrors, type SchemaProblem } from './describeError';
import { unregisteredDisplays } from './displays';
import { unregisteredFilterComponents } from './filterNames';
import type { PageSchema } from './types';

export type { SchemaProblem };

// Compiled at build time (scripts/pageValidatorPlugin.ts): no eval in the browser.
const validator = () => compiledValidator;

/** One Chinese sentence per ajv error (renderers/schema/describeError.ts). */
export function describeError(error: ErrorObject): SchemaProblem {
  return describeSchemaError(error) ?? { pointer: error.instancePath || '/', message: '不符合页面模式' };
}

/** Validates a page schema against schemas/page.schema.json, then the displays and filter controls it names (their registries). */
export function validatePageSchema(value: unknown): { ok: true; page: PageSchema } | { ok: false; problems: SchemaProblem[] } {
  const validate = validator();
  if (validate(value)) {
    const page = value as PageSchema;
    const problems = [...unregisteredDisplays(page), ...unregisteredFilterComponents(page)];
    return problems.length === 0 ? { ok: true, page } : { ok: false, problems };
  }
  return { ok: false, problems: describeSchemaErrors(validate.errors) };
}
