// Issue 25, one validation source: an entity field's named validator is applied by the console's
// form (src/validation/named.ts, through renderers/schema/entity.ts) and by the server (the param
// JSON Schema and the patterns with their messages, server/entities/schemas.ts, that the entity
// handler checks on the trimmed value: server/entities/operations.ts). For the names an entity may
// use (FORMAT.md), both accept and refuse the same values, and refuse with the same sentence:
// 请输入正确的手机号码 under the field on the form, 参数错误：supplier.phone（请输入正确的手机号码）
// from the server.
import { Ajv2020 } from 'ajv/dist/2020.js';
import type { FastifySchemaValidationError } from 'fastify';
import { describe, expect, it } from 'vitest';
import { NAMED_VALIDATORS as SERVER_NAMES, type EntityField } from '../../server/entities/definition';
import { fieldParamSchema, isRequired, patternsOf, VALIDATOR_RULES } from '../../server/entities/schemas';
import { validationMessage } from '../../server/http/errors';
import { entityFormField } from '../../renderers/schema/entity';
import { NAMED_VALIDATORS, VALIDATOR_NAMES } from '../../src/validation/named';
import { MESSAGES } from '../../src/validation/rules';

const ajv = new Ajv2020({ allErrors: true, strict: false });

/**
 * What the server answers for `value` in the field `phone` (null: accepted): its param schema
 * first, then what the entity handler checks — the value trimmed, a required one not blank, each
 * pattern with its message.
 */
function serverAnswer(validator: string, required: boolean, value: string): string | null {
  const field = { name: 'phone', column: 'phone', title: '联系电话', type: 'string', validator, required, maxLength: 64 } as EntityField;
  const validate = ajv.compile({ type: 'object', properties: { param: { type: 'object', properties: { phone: fieldParamSchema(field) }, required: isRequired(field) ? ['phone'] : [] } } });
  if (!validate({ param: { phone: value } })) return validationMessage((validate.errors ?? []) as unknown as FastifySchemaValidationError[]);
  const stored = value.trim();
  if (isRequired(field) && stored === '') return '参数错误：phone（不能为空）';
  const broken = stored === '' ? undefined : patternsOf(field).find((rule) => !rule.pattern.test(stored));
  return broken ? `参数错误：phone（${broken.message}）` : null;
}

/** What the form says for `value` (the named rule, and the required rule the form adds for `!`). */
function consoleAnswer(validator: string, required: boolean, value: string): string | null {
  const field = entityFormField({ title: '联系电话', type: 'string', validator: validator as EntityField['validator'], required, maxLength: 64 });
  expect(field['x-validator']).toBe(validator);
  if (required && value.trim() === '') return `请输入联系电话`;
  return NAMED_VALIDATORS[validator](value, {}) ?? null;
}

const SAMPLES = ['', '   ', '\t', 'abc', ' abc ', '<b>', 'a>b', '13800001234', '1380000123', '12800001234', 'a@b.co', 'first.last+tag@mail.example.cn', 'a@b', '@b.co', 'ABCDEF123456', 'abcdef123456', 'ABCDEF12345', 'ABCDEF-12345', '中文名称', 'x y', 'a\nb', '~!@#'];

/** The SPEC §5 message each name refuses a value with. */
const REFUSAL: Record<string, string> = {
  plainText: MESSAGES.plainText,
  phone: MESSAGES.phoneFormat,
  phoneOrEmpty: MESSAGES.phoneFormat,
  mail: MESSAGES.mailFormat,
  genericCode: MESSAGES.genericCode,
  deviceCode: MESSAGES.deviceCode,
};

describe('the named validators an entity may use: the form and the server agree', () => {
  it('the server knows exactly the names FORMAT.md allows, and the console has each', () => {
    expect([...SERVER_NAMES].sort()).toEqual(['deviceCode', 'genericCode', 'mail', 'phone', 'phoneOrEmpty', 'plainText']);
    for (const name of SERVER_NAMES) expect(VALIDATOR_NAMES).toContain(name);
  });

  for (const name of SERVER_NAMES) {
    for (const required of [false, true]) {
      it(`${name}${required ? '（必填）' : ''}: the same values accepted and refused, with the same sentence: ${REFUSAL[name]}`, () => {
        const rows = SAMPLES.map((value) => {
          const form = consoleAnswer(name, required, value);
          const server = serverAnswer(name, required, value);
          return { value, form, server };
        });
        // Accepted by one exactly when accepted by the other.
        expect(rows.filter((row) => (row.form === null) !== (row.server === null))).toEqual([]);
        for (const row of rows) {
          if (row.form === null) continue;
          if (row.value.trim() === '') {
            // A blank required value: 请输入联系电话 (or the rule's own 请输入手机号) on the form, 不能为空 from the server.
            expect([`请输入联系电话`, MESSAGES.phoneRequired]).toContain(row.form);
            expect(['参数错误：phone（不能为空）', '参数错误：phone（长度不能少于1）']).toContain(row.server);
          } else {
            // Any other refusal: the same sentence on both halves.
            expect(row.form).toBe(REFUSAL[name]);
            expect(row.server).toBe(`参数错误：phone（${REFUSAL[name]}）`);
          }
        }
      });
    }
  }

  it('one known difference, on the safe side: the server trims a value before its rules, the form does not', () => {
    // The form refuses a phone typed with a space before it; the server would take it and store it trimmed.
    expect(consoleAnswer('phoneOrEmpty', false, ' 13800001234')).toBe(MESSAGES.phoneFormat);
    expect(serverAnswer('phoneOrEmpty', false, ' 13800001234')).toBeNull();
  });

  it('the server’s rules carry the console’s messages word for word', () => {
    for (const name of SERVER_NAMES) expect(VALIDATOR_RULES[name].message, name).toBe(REFUSAL[name]);
  });
});
