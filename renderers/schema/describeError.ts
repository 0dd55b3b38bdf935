import type { ErrorObject } from 'ajv';

export interface SchemaProblem {
  /** JSON pointer into the checked value. */
  pointer: string;
  message: string;
}

const list = (values: unknown): string => (Array.isArray(values) ? values.map((v) => (typeof v === 'string' ? v : JSON.stringify(v))).join('、') : String(values));

const TYPE_NAMES: Readonly<Record<string, string>> = { string: '字符串', number: '数字', integer: '整数', boolean: '布尔值（true 或 false）', object: '对象', array: '数组', null: 'null' };
const typeName = (type: unknown): string => (Array.isArray(type) ? type : String(type).split(',')).map((t) => TYPE_NAMES[String(t)] ?? String(t)).join(' 或 ');

/**
 * One Chinese sentence per ajv error, with the allowed values where the schema lists them
 * (the page validator in the console, and every data file in `npm run check`). Null for the errors
 * that only repeat what their inner errors say (`if`, a failed `$ref` branch of `oneOf`).
 */
export function describeSchemaError(error: ErrorObject): SchemaProblem | null {
  const params = error.params as Record<string, unknown>;
  const pointer = error.instancePath || '/';
  switch (error.keyword) {
    case 'required':
      return { pointer, message: `缺少必填属性 ${String(params.missingProperty)}` };
    case 'additionalProperties':
      return { pointer: `${error.instancePath}/${String(params.additionalProperty)}`, message: `不允许的属性 ${String(params.additionalProperty)}` };
    case 'enum':
      return { pointer, message: `取值必须是 ${list(params.allowedValues)} 之一` };
    case 'const':
      return { pointer, message: `取值必须是 ${JSON.stringify(params.allowedValue)}` };
    case 'type':
      return { pointer, message: `类型应为${typeName(params.type)}` };
    case 'pattern':
      return { pointer, message: `格式不符合 ${String(params.pattern)}` };
    case 'format':
      return { pointer, message: `格式应为 ${String(params.format)}` };
    case 'discriminator':
      return { pointer, message: `未知的 ${String(params.tag)}：${JSON.stringify(params.tagValue)}` };
    case 'minItems':
      return { pointer, message: `至少需要 ${String(params.limit)} 项` };
    case 'maxItems':
      return { pointer, message: `至多 ${String(params.limit)} 项` };
    case 'uniqueItems':
      return { pointer, message: `第 ${Number(params.j) + 1} 项与第 ${Number(params.i) + 1} 项重复` };
    case 'minLength':
      return { pointer, message: Number(params.limit) <= 1 ? '不能为空' : `至少 ${String(params.limit)} 个字符` };
    case 'maxLength':
      return { pointer, message: `至多 ${String(params.limit)} 个字符` };
    case 'minimum':
    case 'maximum':
    case 'exclusiveMinimum':
    case 'exclusiveMaximum':
      return { pointer, message: `取值应 ${String(params.comparison)} ${String(params.limit)}` };
    case 'multipleOf':
      return { pointer, message: `取值应为 ${String(params.multipleOf)} 的倍数` };
    case 'oneOf':
    case 'anyOf':
      return { pointer, message: '不符合任何一种允许的写法' };
    case 'not':
      return { pointer, message: '不允许这种写法' };
    case 'propertyNames':
      return { pointer, message: `属性名 ${String(params.propertyName)} 不合法` };
    case 'dependentRequired':
    case 'dependencies':
      return { pointer, message: `写了 ${String(params.property)} 时也要写 ${String(params.missingProperty)}` };
    case 'false schema':
      return { pointer, message: '此处不允许任何值' };
    case 'if':
      return null;
    default:
      return { pointer, message: `不符合 ${error.keyword} 规则` };
  }
}

/** One sentence per ajv error (see describeSchemaError), the repeats and wrappers left out. */
export function describeSchemaErrors(errors: readonly ErrorObject[] | null | undefined): SchemaProblem[] {
  const seen = new Set<string>();
  return (errors ?? []).flatMap((error) => {
    const problem = describeSchemaError(error);
    if (!problem) return [];
    const key = `${problem.pointer} ${problem.message}`;
    if (seen.has(key)) return [];
    seen.add(key);
    return [problem];
  });
}
