import type { ErrorObject } from 'ajv';
import { validate as compiledValidator } from 'virtual:page-validator';
import { unregisteredDisplays } from './displays';
import type { PageSchema } from './types';

export interface SchemaProblem {
  /** JSON pointer into the page schema. */
  pointer: string;
  message: string;
}

// Compiled at build time (scripts/pageValidatorPlugin.ts): no eval in the browser.
const validator = () => compiledValidator;

/** One Chinese sentence per ajv error. */
export function describeError(error: ErrorObject): SchemaProblem {
  const params = error.params as Record<string, unknown>;
  const pointer = error.instancePath || '/';
  switch (error.keyword) {
    case 'required':
      return { pointer, message: `缺少必填属性 ${String(params.missingProperty)}` };
    case 'additionalProperties':
      return { pointer: `${error.instancePath}/${String(params.additionalProperty)}`, message: `不允许的属性 ${String(params.additionalProperty)}` };
    case 'enum':
      return { pointer, message: `取值必须是 ${(params.allowedValues as unknown[]).join('、')} 之一` };
    case 'const':
      return { pointer, message: `取值必须是 ${JSON.stringify(params.allowedValue)}` };
    case 'type':
      return { pointer, message: `类型应为 ${String(params.type)}` };
    case 'pattern':
      return { pointer, message: `格式不符合 ${String(params.pattern)}` };
    case 'discriminator':
      return { pointer, message: `未知的 ${String(params.tag)}：${JSON.stringify(params.tagValue)}` };
    case 'minItems':
      return { pointer, message: `至少需要 ${String(params.limit)} 项` };
    case 'minLength':
      return { pointer, message: `不能为空` };
    case 'minimum':
    case 'maximum':
      return { pointer, message: `取值应 ${String(params.comparison)} ${String(params.limit)}` };
    default:
      return { pointer, message: error.message ?? '不合法' };
  }
}

/** Validates a page schema against schemas/page.schema.json, then the displays it names. */
export function validatePageSchema(value: unknown): { ok: true; page: PageSchema } | { ok: false; problems: SchemaProblem[] } {
  const validate = validator();
  if (validate(value)) {
    const page = value as PageSchema;
    const problems = unregisteredDisplays(page);
    return problems.length === 0 ? { ok: true, page } : { ok: false, problems };
  }
  const seen = new Set<string>();
  const problems = (validate.errors ?? []).map(describeError).filter((p) => {
    const key = `${p.pointer} ${p.message}`;
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  return { ok: false, problems };
}
