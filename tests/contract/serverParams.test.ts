// The parameter vocabulary's nullable builders (issue 32): each writes the JSON the schemas were
// written out as by hand (schemas/contracts.json is unchanged), and the type of what it admits
// comes from the schema it wraps, not from a generic written beside it.
import { describe, expect, expectTypeOf, it } from 'vitest';
import { enumOf, integerIn, matching, optionalLatitude, optionalLongitude, orBlank, orNull, text, type ParamOf } from '../../server/core/params';

describe('nullable parameters', () => {
  it('orNull admits what its schema admits or null; orBlank also the empty text', () => {
    expect(JSON.parse(JSON.stringify(orNull(integerIn(1, 65535))))).toEqual({ anyOf: [{ type: 'integer', minimum: 1, maximum: 65535 }, { type: 'null' }] });
    expect(JSON.parse(JSON.stringify(orBlank(matching('^1[3-9]\\d{9}$'))))).toEqual({
      anyOf: [{ type: 'string', pattern: '^1[3-9]\\d{9}$' }, { type: 'string', maxLength: 0 }, { type: 'null' }],
    });
    expect(JSON.parse(JSON.stringify([optionalLongitude, optionalLatitude]))).toEqual([
      { anyOf: [{ type: 'number', minimum: -180, maximum: 180 }, { type: 'null' }] },
      { anyOf: [{ type: 'number', minimum: -90, maximum: 90 }, { type: 'null' }] },
    ]);
  });

  it('the type of what they admit is read off the wrapped schema', () => {
    expectTypeOf<ParamOf<ReturnType<typeof orNull<ReturnType<typeof integerIn>>>>>().toEqualTypeOf<number | null>();
    const algorithm = orNull(enumOf(['MD5', 'SHA256'] as const));
    expectTypeOf<ParamOf<typeof algorithm>>().toEqualTypeOf<'MD5' | 'SHA256' | null>();
    const code = orBlank(text(64, 1));
    expectTypeOf<ParamOf<typeof code>>().toEqualTypeOf<string | null>();
    expect([algorithm, code].map((schema) => (schema.anyOf as unknown[]).length)).toEqual([2, 3]);
  });
});
