// The `data` each operation answers, read from the server's own TypeScript: the awaited return
// type of the handler given to defineOperation (or its explicit second type argument), turned into
// a JSON Schema. Mechanical on purpose: a field added to a row mapper is a field of the contract.
import ts from 'typescript';
import { dirname, join } from 'node:path';

export type { JsonSchema } from '../../server/contracts';
import type { JsonSchema } from '../../server/contracts';

/** The answers found, by operation name; an operation whose name is not a literal is left out. */
export interface DerivedResponses {
  schemas: Map<string, JsonSchema>;
  /** The file each was found in, for a reader of the generated file. */
  sources: Map<string, string>;
}

const MAX_DEPTH = 10;

function compilerOptions(root: string): ts.CompilerOptions {
  const file = join(root, 'tsconfig.json');
  const read = ts.readConfigFile(file, ts.sys.readFile.bind(ts.sys));
  if (read.error) throw new Error(ts.flattenDiagnosticMessageText(read.error.messageText, '\n'));
  const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, dirname(file));
  return { ...parsed.options, noEmit: true };
}

class SchemaWriter {
  private readonly stack: ts.Type[] = [];
  /** Types met again inside themselves (a tree): described once under $defs and referred to. */
  private recursive = new Map<ts.Type, string>();
  private defs: Record<string, JsonSchema> = {};
  constructor(private readonly checker: ts.TypeChecker) {}

  /** The schema of an answer: a recursive type (a menu or organisation tree) as `$defs` and `$ref`s. */
  answerSchema(type: ts.Type): JsonSchema {
    this.recursive = new Map();
    this.defs = {};
    const schema = this.schemaOf(type);
    return Object.keys(this.defs).length ? { ...schema, $defs: this.defs } : schema;
  }

  private defName(type: ts.Type): string {
    let name = this.recursive.get(type);
    if (!name) {
      const base = (type.aliasSymbol ?? type.getSymbol())?.getName().replace(/[^A-Za-z0-9_]/g, '') || 'Node';
      const taken = new Set(this.recursive.values());
      name = taken.has(base) || base === '__type' || base === '__object' ? `${base === '__type' || base === '__object' ? 'Node' : base}${taken.size + 1}` : base;
      this.recursive.set(type, name);
    }
    return name;
  }

  schemaOf(type: ts.Type, depth = 0): JsonSchema {
    const { checker } = this;
    const flags = type.flags;
    if (flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown | ts.TypeFlags.Never)) return {};
    if (flags & (ts.TypeFlags.Void | ts.TypeFlags.Undefined)) return { type: 'null' };
    if (flags & ts.TypeFlags.Null) return { type: 'null' };
    if (flags & ts.TypeFlags.StringLiteral) return { type: 'string', const: (type as ts.StringLiteralType).value };
    if (flags & ts.TypeFlags.NumberLiteral) return { type: 'number', const: (type as ts.NumberLiteralType).value };
    if (flags & ts.TypeFlags.BooleanLiteral) return { type: 'boolean' };
    if (flags & (ts.TypeFlags.String | ts.TypeFlags.TemplateLiteral | ts.TypeFlags.StringMapping)) return { type: 'string' };
    if (flags & ts.TypeFlags.Number) return { type: 'number' };
    if (flags & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (flags & ts.TypeFlags.BigInt) return { type: 'string' };
    if (flags & ts.TypeFlags.EnumLike && type.isUnion()) return this.unionOf(type.types, depth);
    if (type.isUnion()) return this.unionOf(type.types, depth);
    if (depth > MAX_DEPTH) return {};
    const symbolName = type.getSymbol()?.getName();
    if (symbolName === 'Date') return { type: 'string', format: 'date-time' };
    if (symbolName === 'Buffer' || symbolName === 'Uint8Array') return {};
    if (checker.isTupleType(type)) {
      const items = checker.getTypeArguments(type as ts.TypeReference).map((item) => this.schemaOf(item, depth + 1));
      return { type: 'array', items: items.length ? anyOf(items) : {}, minItems: items.length, maxItems: items.length };
    }
    if (checker.isArrayType(type)) {
      const [item] = checker.getTypeArguments(type as ts.TypeReference);
      return { type: 'array', items: item ? this.schemaOf(item, depth + 1) : {} };
    }
    if (!(flags & ts.TypeFlags.Object || type.isIntersection())) return {};
    // An object met again inside itself (a tree) is described once under $defs and referred to.
    if (this.stack.includes(type)) return { $ref: `#/$defs/${this.defName(type)}` };
    this.stack.push(type);
    try {
      const schema = this.objectOf(type, depth);
      const name = this.recursive.get(type);
      if (!name) return schema;
      this.defs[name] = schema;
      return { $ref: `#/$defs/${name}` };
    } finally {
      this.stack.pop();
    }
  }

  private unionOf(members: readonly ts.Type[], depth: number): JsonSchema {
    const present = members.filter((member) => !(member.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
    if (present.some((member) => member.flags & (ts.TypeFlags.Any | ts.TypeFlags.Unknown))) return {};
    const nullable = present.some((member) => member.flags & ts.TypeFlags.Null);
    const rest = present.filter((member) => !(member.flags & ts.TypeFlags.Null));
    const booleans = rest.filter((member) => member.flags & ts.TypeFlags.BooleanLiteral);
    const others = rest.filter((member) => !(member.flags & ts.TypeFlags.BooleanLiteral));
    const strings = others.filter((member) => member.flags & ts.TypeFlags.StringLiteral);
    const numbers = others.filter((member) => member.flags & ts.TypeFlags.NumberLiteral);
    const remaining = others.filter((member) => !(member.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral)));
    const options: JsonSchema[] = [];
    if (booleans.length) options.push({ type: 'boolean' });
    // Sorted: the checker orders a union's members as it met them, which moves with unrelated code
    // (a contracts file regenerated after another change reordered sixty enums).
    if (strings.length) options.push({ type: 'string', enum: strings.map((member) => (member as ts.StringLiteralType).value).sort() });
    if (numbers.length) options.push({ type: 'number', enum: numbers.map((member) => (member as ts.NumberLiteralType).value).sort((a, b) => a - b) });
    for (const member of remaining) options.push(this.schemaOf(member, depth + 1));
    if (options.some((option) => Object.keys(option).length === 0)) return {};
    if (nullable) {
      // A nullable single type keeps its shape: { type: ['string', 'null'], ... }.
      const [only] = options;
      if (options.length === 1 && typeof only.type === 'string' && only.const === undefined) {
        return { ...only, type: [only.type, 'null'], ...(Array.isArray(only.enum) ? { enum: [...(only.enum as unknown[]), null] } : {}) };
      }
      options.push({ type: 'null' });
    }
    return anyOf(options);
  }

  private objectOf(type: ts.Type, depth: number): JsonSchema {
    const { checker } = this;
    if (type.getCallSignatures().length && !checker.getPropertiesOfType(type).length) return {};
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const declaration = property.valueDeclaration ?? property.declarations?.[0];
      const propertyType = declaration ? checker.getTypeOfSymbolAtLocation(property, declaration) : checker.getTypeOfSymbol(property);
      if (propertyType.getCallSignatures().length && !(propertyType.flags & ts.TypeFlags.Union)) continue;
      const schema = this.schemaOf(propertyType, depth + 1);
      properties[property.getName()] = schema;
      const optional = (property.flags & ts.SymbolFlags.Optional) !== 0 || (propertyType.isUnion() && propertyType.types.some((t) => t.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void)));
      if (!optional && !(propertyType.flags & (ts.TypeFlags.Undefined | ts.TypeFlags.Void))) required.push(property.getName());
    }
    const index = checker.getIndexInfosOfType(type).find((info) => info.keyType.flags & ts.TypeFlags.String);
    // `{}` is TypeScript's "anything but null or undefined" (what `unknown ?? null` leaves), not an empty object.
    if (!Object.keys(properties).length && !index && !checker.getIndexInfosOfType(type).length) return {};
    const schema: JsonSchema = { type: 'object', properties };
    if (required.length) schema.required = required;
    schema.additionalProperties = index ? this.schemaOf(index.type, depth + 1) : false;
    return schema;
  }
}

function anyOf(options: JsonSchema[]): JsonSchema {
  const unique = options.filter((option, i) => options.findIndex((other) => JSON.stringify(other) === JSON.stringify(option)) === i);
  return unique.length === 1 ? unique[0] : { anyOf: unique };
}

/** The names a defineOperation call's first argument may have (a literal, or a union of literals). */
function namesOf(checker: ts.TypeChecker, argument: ts.Expression): string[] {
  const type = checker.getTypeAtLocation(argument);
  const members = type.isUnion() ? type.types : [type];
  return members.every((member) => member.isStringLiteral()) ? members.map((member) => (member as ts.StringLiteralType).value) : [];
}

/** The expression a variable or `as const` stands for: `X` → its initializer, `{…} as const` → `{…}`. */
function valueOf(checker: ts.TypeChecker, expression: ts.Expression, depth = 0): ts.Expression {
  let node = expression;
  while (ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isParenthesizedExpression(node)) node = node.expression;
  if (ts.isIdentifier(node) && depth < 4) {
    const declaration = checker.getSymbolAtLocation(node)?.valueDeclaration;
    if (declaration && ts.isVariableDeclaration(declaration) && declaration.initializer) return valueOf(checker, declaration.initializer, depth + 1);
  }
  return node;
}

/** How many factories deep a name is followed (`fieldWorkOperations` passes its names on to `fieldReadOperations`). */
const MAX_FACTORY_DEPTH = 3;

/**
 * The strings the expression is written as: a literal, a literal property of a constant object, or
 * a name a factory was given (a parameter, or a property of one, that the factory passes on).
 */
function namesIn(checker: ts.TypeChecker, expression: ts.Expression, property: string | undefined, calls: readonly ts.CallExpression[], depth: number): string[] {
  const value = valueOf(checker, expression);
  if (property === undefined) return ts.isStringLiteralLike(value) ? [value.text] : factoryNamesOf(checker, value, calls, depth);
  if (!ts.isObjectLiteralExpression(value)) return parameterNamesOf(checker, value, property, calls, depth);
  const assignment = value.properties.find((item) => ts.isPropertyAssignment(item) && item.name && (ts.isIdentifier(item.name) || ts.isStringLiteral(item.name)) && item.name.text === property);
  return assignment && ts.isPropertyAssignment(assignment) ? namesIn(checker, assignment.initializer, undefined, calls, depth) : [];
}

/**
 * The names a factory gives defineOperation (`tabPage(name, …)`, `sourceOperations(…, names)` with
 * `names.page`): the name is a parameter of the enclosing function, or a property of one, and each
 * call of that function passes it as a literal (or as a name its own caller gave it).
 */
function factoryNamesOf(checker: ts.TypeChecker, argument: ts.Expression, calls: readonly ts.CallExpression[], depth = 0): string[] {
  const base = ts.isPropertyAccessExpression(argument) ? argument.expression : argument;
  const property = ts.isPropertyAccessExpression(argument) ? argument.name.text : undefined;
  return parameterNamesOf(checker, base, property, calls, depth);
}

/** The names the calls of a factory pass as its parameter `base` (or as that parameter's `property`). */
function parameterNamesOf(checker: ts.TypeChecker, base: ts.Expression, property: string | undefined, calls: readonly ts.CallExpression[], depth: number): string[] {
  if (!ts.isIdentifier(base) || depth > MAX_FACTORY_DEPTH) return [];
  const parameter = checker.getSymbolAtLocation(base)?.valueDeclaration;
  if (!parameter || !ts.isParameter(parameter)) return [];
  const factory = parameter.parent;
  const index = factory.parameters.indexOf(parameter);
  const factoryName = ts.isFunctionDeclaration(factory) ? factory.name : ts.isVariableDeclaration(factory.parent) ? factory.parent.name : undefined;
  const factorySymbol = factoryName ? checker.getSymbolAtLocation(factoryName) : undefined;
  if (!factorySymbol) return [];
  return calls.flatMap((call) => {
    let callee = checker.getSymbolAtLocation(call.expression);
    if (callee && callee.flags & ts.SymbolFlags.Alias) callee = checker.getAliasedSymbol(callee);
    const argumentAt = call.arguments[index];
    if (callee !== factorySymbol || !argumentAt) return [];
    return namesIn(checker, argumentAt, property, calls, depth + 1);
  });
}

/** Every defineOperation call under server/operations whose name can be read without running it. */
export function deriveResponses(root: string): DerivedResponses {
  const program = ts.createProgram([join(root, 'server/operations/index.ts')], compilerOptions(root));
  const checker = program.getTypeChecker();
  const writer = new SchemaWriter(checker);
  const schemas = new Map<string, JsonSchema>();
  const sources = new Map<string, string>();
  const operationsDir = join(root, 'server/operations');
  const calls: ts.CallExpression[] = [];
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.startsWith(operationsDir)) continue;
    const collect = (node: ts.Node): void => {
      if (ts.isCallExpression(node)) calls.push(node);
      ts.forEachChild(node, collect);
    };
    collect(source);
  }
  for (const source of program.getSourceFiles()) {
    if (!source.fileName.startsWith(operationsDir)) continue;
    const visit = (node: ts.Node): void => {
      if (ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'defineOperation' && node.arguments.length === 2) {
        const [nameArgument, spec] = node.arguments;
        const literal = namesOf(checker, nameArgument);
        const names = literal.length ? literal : factoryNamesOf(checker, nameArgument, calls);
        let answer: ts.Type | undefined;
        if (node.typeArguments?.[1]) answer = checker.getTypeFromTypeNode(node.typeArguments[1]);
        else if (ts.isObjectLiteralExpression(spec)) {
          const handler = spec.properties.find((property) => property.name && ts.isIdentifier(property.name) && property.name.text === 'handler');
          const handlerType = handler ? checker.getTypeAtLocation(ts.isPropertyAssignment(handler) ? handler.initializer : handler) : undefined;
          const signature = handlerType?.getCallSignatures()[0];
          if (signature) answer = checker.getAwaitedType(signature.getReturnType());
        }
        if (answer) {
          for (const name of names) {
            schemas.set(name, writer.answerSchema(answer));
            sources.set(name, source.fileName.slice(root.length + 1));
          }
        }
      }
      ts.forEachChild(node, visit);
    };
    visit(source);
  }
  return { schemas, sources };
}
