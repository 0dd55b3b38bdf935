import { Type, type Static, type TObject, type TOptional, type TSchema, type TString, type TUnsafe } from 'typebox';
import { parseBusinessTime } from '../domain/businessTime';
import { fail } from '../http/envelope';

/**
 * The parameter vocabulary every operation's `paramSchema` is written in (issue 32): bounded text,
 * plain text a person types, display orders, and the times and time ranges of the pickers. One
 * definition each, so that two lists never accept a time or a name differently.
 */

/**
 * A JSON Schema (draft 7, as Fastify's ajv reads it) for an operation's `param`, as a TypeBox type
 * (issue 32): each helper below yields the schema and the type of the values it admits together,
 * so that defineOperation reads the handler's `param` type off its `paramSchema` (`Static`) and the
 * two cannot disagree. The JSON each writes is the one written out by hand before (key for key,
 * in the same order: schemas/contracts.json is unchanged).
 */
export type ParamSchema = Readonly<Record<string, unknown>>;
/** A TypeBox type that is also read as the JSON it is (the routes read `type` and `properties`). */
export type Typed<T extends TSchema> = T & ParamSchema;
/** The type of the values `schema` admits. */
export type ParamOf<Schema extends ParamSchema> = Static<Schema>;

const typed = <T extends TSchema>(schema: T): Typed<T> => schema as Typed<T>;

/** A schema written out as JSON whose values are `T` (for what TypeBox's builders would write in another key order). */
export const schemaOf = <T>(schema: Record<string, unknown>): Typed<TUnsafe<T>> => typed(Type.Unsafe<T>(schema));

type Properties = Record<string, ParamSchema>;
type ObjectOf<P extends Properties, Required extends string> = Typed<TObject<{ [K in keyof P]: K extends Required ? P[K] : TOptional<P[K]> }>>;

/** A text matching `pattern`, of any length the pattern allows. */
export const matching = (pattern: string) => schemaOf<string>({ type: 'string', pattern });
/** The device code rule of SPEC §5: 12 letters or digits. */
export const DEVICE_CODE_PATTERN = '^[A-Za-z0-9]{12}$';
/** A device's code. */
export const deviceCode = matching(DEVICE_CODE_PATTERN);
/** What `schema` admits, or null: a field left empty. */
export const orNull = <S extends ParamSchema>(schema: S) => schemaOf<ParamOf<S> | null>({ anyOf: [schema, { type: 'null' }] });
/** A text `schema` admits, or none: a cleared input sends an empty string or null. */
export const orBlank = <S extends ParamSchema>(schema: S) => schemaOf<ParamOf<S> | '' | null>({ anyOf: [schema, { type: 'string', maxLength: 0 }, { type: 'null' }] });

/** A yes or no. */
export const flag = schemaOf<boolean>({ type: 'boolean' });
/** A whole number from `minimum` to `maximum`. */
export const integerIn = (minimum: number, maximum: number) => schemaOf<number>({ type: 'integer', minimum, maximum });
/** A number from `minimum` to `maximum`. */
export const numberIn = (minimum: number, maximum: number) => schemaOf<number>({ type: 'number', minimum, maximum });

/** Text of at most `maxLength` characters matching `pattern` (which may admit the empty text). */
export const textMatching = (maxLength: number, pattern: string) => schemaOf<string>({ type: 'string', maxLength, pattern });
/** A place's coordinates, in degrees, or none. */
export const optionalLongitude = orNull(numberIn(-180, 180));
export const optionalLatitude = orNull(numberIn(-90, 90));
/** A list of at most `maxItems` values of `items`. */
export const listOf = <Items extends ParamSchema>(maxItems: number, items: Items) => schemaOf<Static<Items>[]>({ type: 'array', maxItems, items });

/** Schema helpers that keep every string bounded. */
export const text = (maxLength: number, minLength = 0): Typed<TString> => typed(Type.String({ minLength, maxLength }));
/** An object of `properties`, those named in `required` required, nothing else admitted. */
export const objectOf = <const P extends Properties, const Required extends string = never>(properties: P, required: readonly Required[] = []): ObjectOf<P, Required> =>
  Type.Unsafe({ type: 'object', properties, required: [...required], additionalProperties: false }) as unknown as ObjectOf<P, Required>;

/**
 * Plain text a person types (names, labels): at least one visible character, and never '<' or
 * '>', so no markup is ever stored ("400" 参数错误：field（格式不正确）).
 */
export const plainText = (maxLength: number): Typed<TString> => typed(Type.String({ minLength: 1, maxLength, pattern: '^[^<>]*[^<>\\s][^<>]*$' }));

/** Optional plain text (remarks): may be empty, still never '<' or '>'. */
export const optionalPlainText = (maxLength: number): Typed<TString> => typed(Type.String({ maxLength, pattern: '^[^<>]*$' }));

/** A display order; null (a cleared number input) keeps the current one. */
export const sortOrder = typed(Type.Union([Type.Integer({ minimum: 0, maximum: 1_000_000 }), Type.Null()]));

/** A date or date-time as the console's pickers send them (or an ISO time a record carried). */
export const TIME_PATTERN = '^\\d{4}-\\d{2}-\\d{2}([ T]\\d{2}:\\d{2}(:\\d{2}(\\.\\d+)?)?(Z|[+-]\\d{2}:?\\d{2})?)?$';
export const timeText = typed(Type.String({ maxLength: 32, pattern: TIME_PATTERN }));
/** An optional time: a cleared picker sends null or an empty string. */
export const optionalTime = typed(Type.Union([timeText, Type.String({ maxLength: 0 }), Type.Null()]));
/** [start, end] as the console's range pickers send them. */
export const timeRange = schemaOf<[string, string]>({ type: 'array', minItems: 2, maxItems: 2, items: timeText });

/** An organisation or product code as a filter or a reference. */
export const referenceCode = typed(Type.String({ minLength: 1, maxLength: 64, pattern: '^[A-Za-z0-9_-]+$' }));
/** A work document's code: two capitals and the digits of its number (WX…, XJ…). */
export const workCodeSchema = typed(Type.String({ minLength: 4, maxLength: 32, pattern: '^[A-Z]{2}\\d{8,}$' }));
/** An organisation code as a list's filter: empty means none. */
export const organizationParam = typed(Type.String({ maxLength: 64, pattern: '^[A-Za-z0-9]*$' }));
/** A list's keyword. */
export const keywordParam = typed(Type.String({ maxLength: 64 }));
/** A row's id (a serial). */
export const positiveInteger = typed(Type.Integer({ minimum: 1 }));
export const userIdSchema = typed(Type.Integer({ minimum: 1, maximum: 2_147_483_647 }));
export const optionalUserId = typed(Type.Union([userIdSchema, Type.Null()]));
export const phoneOrEmpty = typed(Type.Union([Type.String({ pattern: '^1[3-9]\\d{9}$' }), Type.String({ maxLength: 0 }), Type.Null()]));
/** One of `values`. */
export const enumOf = <const V extends readonly string[]>(values: V): Typed<TUnsafe<V[number]>> => schemaOf<V[number]>({ type: 'string', enum: [...values] });
/** One of `values`, or none: a cleared select sends an empty string or null. */
export const optionalEnumOf = <const V extends readonly string[]>(values: V): Typed<TUnsafe<V[number] | '' | null>> =>
  typed(Type.Union([enumOf(values), Type.String({ maxLength: 0 }), Type.Null()])) as unknown as Typed<TUnsafe<V[number] | '' | null>>;
/** A filter's select: one of `values`, or the empty string for all. */
export const enumParam = <const V extends readonly string[]>(values: V): Typed<TUnsafe<V[number] | ''>> => schemaOf<V[number] | ''>({ type: 'string', enum: [...values, ''] });

/**
 * The time `value` names, a time without an offset read on the business zone's clock ("400"
 * 参数错误：field for a date that does not exist, such as 2026-02-31).
 */
export function parseTime(value: string, field: string, timeZone: string): Date {
  const time = parseBusinessTime(value, timeZone);
  const year = Number(value.slice(0, 4));
  if (Number.isNaN(time.getTime()) || year < 2000 || year > 2100) throw fail.badField(field);
  return time;
}

export const optionalTimeOf = (value: string | null | undefined, field: string, timeZone: string): Date | null => (value ? parseTime(value, field, timeZone) : null);

/** A [start, end] range, start before end ("400" 请输入不同的时间 when equal, as SPEC §5 says). */
export function parseRange(range: readonly [string, string], field: string, timeZone: string): [Date, Date] {
  const start = parseTime(range[0], field, timeZone);
  const end = parseTime(range[1], field, timeZone);
  if (start.getTime() === end.getTime()) throw fail.badRequest('请输入不同的时间');
  return start < end ? [start, end] : [end, start];
}

/**
 * A picker's [from, to] pair (DatePicker.RangePicker) as times, read on the business zone's clock:
 * "400" 参数错误：timeRange for an unreadable time, 请输入不同的时间 for equal bounds (SPEC §5);
 * reversed bounds are swapped.
 */
export function pickedRangeOf(pair: readonly [string, string], timeZone: string): [Date, Date] {
  const [start, end] = pair.map((value) => parseBusinessTime(value, timeZone));
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime())) throw fail.badField('timeRange');
  if (start.getTime() === end.getTime()) throw fail.badRequest('请输入不同的时间');
  return start < end ? [start, end] : [end, start];
}

/** A time the pickers send, or null to clear. */
export const optionalTimeText = typed(Type.Union([timeText, Type.Null()]));

/**
 * A filter's [start, end] as times, read on the business zone's clock ("400" 参数错误：timeRange for a
 * date that does not exist or an end before the start).
 */
export function timeRangeOf(range: readonly [string, string], timeZone: string): [Date, Date] {
  const [start, end] = range.map((value) => parseBusinessTime(value, timeZone));
  if (Number.isNaN(start.getTime()) || Number.isNaN(end.getTime()) || start > end) throw fail.badField('timeRange（时间范围不正确）');
  return [start, end];
}
