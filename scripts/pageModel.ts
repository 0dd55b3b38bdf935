// `npm run schemas` (with scripts/metaSchema.ts): schemas/page.schema.json generated from the page
// language's TypeScript model, renderers/schema/types.ts and actionTypes.ts (issue 33: said once).
// Read with the TypeScript compiler API, as scripts/contracts.ts reads the server: each declaration
// tagged `@def name` becomes a definition; a property's type becomes its JSON Schema (strings,
// numbers, booleans, literals and their unions as enums, arrays, records, object literals,
// interfaces inlined or referred to); its JSDoc text is the description editors show and its tags
// the constraints (@pattern, @minLength, @minimum, @maximum, @integer, @minItems, @uniqueItems),
// `@names x` a list of schemas/names.schema.json, `@reuse` where a page parameter ($param) may
// stand, `@items d` / `@schema d` the source layer's definitions (scripts/pageModelSource.ts: what a
// page file says before it is composed). tests/contract/pageModel.test.ts: the file equals this.
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { PAGE_SCHEMA_ID, sourceDefinitions, sourceProperties, sourceRules } from './pageModelSource';

const projectRoot = new URL('..', import.meta.url).pathname;
export const PAGE_SCHEMA_FILE = 'schemas/page.schema.json';
const MODEL_FILES = ['renderers/schema/types.ts', 'renderers/schema/actionTypes.ts'];

type Json = Record<string, unknown>;
type Declaration = ts.InterfaceDeclaration | ts.TypeAliasDeclaration;

interface Doc {
  text: string;
  tags: Map<string, string>;
}

function docOf(node: ts.Node): Doc {
  const tags = new Map<string, string>();
  let text = '';
  for (const doc of ts.getJSDocCommentsAndTags(node)) {
    if (!ts.isJSDoc(doc)) continue;
    text = ts.getTextOfJSDocComment(doc.comment)?.trim() ?? text;
    for (const tag of doc.tags ?? []) tags.set(tag.tagName.text, ts.getTextOfJSDocComment(tag.comment)?.trim() ?? '');
  }
  return { text, tags };
}

/** The constraints a doc's tags say, laid on a schema (into the branches of a oneOf by their type). */
function constrain(schema: Json, tags: Map<string, string>): Json {
  if (Array.isArray(schema.oneOf))
    return {
      ...schema,
      oneOf: (schema.oneOf as Json[]).map((branch) => constrain(branch, tags)),
    };
  const out: Json = { ...schema };
  const number = (tag: string) => (tags.has(tag) ? Number(tags.get(tag)) : undefined);
  if (out.type === 'number' && tags.has('integer')) out.type = 'integer';
  const isString = out.type === 'string' || (typeof out.$ref === 'string' && (out.$ref as string).startsWith('names.schema.json'));
  if (isString && tags.has('pattern')) out.pattern = tags.get('pattern');
  if (isString && tags.has('minLength')) out.minLength = number('minLength');
  if (out.type === 'number' || out.type === 'integer') {
    if (tags.has('minimum')) out.minimum = number('minimum');
    if (tags.has('maximum')) out.maximum = number('maximum');
  }
  if (out.type === 'array') {
    if (tags.has('minItems')) out.minItems = number('minItems');
    if (tags.has('uniqueItems')) out.uniqueItems = true;
    if (tags.has('items')) out.items = { $ref: `#/$defs/${tags.get('items')}` };
  }
  if (tags.has('names')) out.$ref = `names.schema.json#/$defs/${tags.get('names')}`;
  return out;
}

/** `@reuse`: a page parameter ({ "$param": … }) or a fragment may stand here. */
const reusable = (schema: Json): Json => ({
  if: { $ref: '#/$defs/isReuse' },
  then: { $ref: '#/$defs/param' },
  else: schema,
});

class Generator {
  readonly checker: ts.TypeChecker;
  readonly declarations = new Map<string, Declaration>();
  readonly defs: Record<string, Json> = {};

  constructor(root: string) {
    const program = ts.createProgram(
      MODEL_FILES.map((file) => join(root, file)),
      // The model needs only the language's own types (no DOM, no @types packages): a run takes a second, not five.
      { strict: true, noEmit: true, lib: ['lib.es2022.d.ts'], types: [], skipLibCheck: true },
    );
    this.checker = program.getTypeChecker();
    for (const file of MODEL_FILES) {
      const source = program.getSourceFile(join(root, file));
      if (!source) throw new Error(`${file} 不存在`);
      ts.forEachChild(source, (node) => {
        if (ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) this.declarations.set(node.name.text, node);
      });
    }
  }

  declaration(name: string): Declaration {
    const found = this.declarations.get(name);
    if (!found) throw new Error(`页面模型中没有 ${name}`);
    return found;
  }

  /** The def name of a declaration (`@def`), or null when it is written out where it is used. */
  defName(name: string): string | null {
    return docOf(this.declaration(name)).tags.get('def') ?? null;
  }

  /** A string-literal union the checker resolves (`(typeof X)[number]`, `Exclude<…>`), or null. */
  literals(node: ts.TypeNode): Array<string | number> | null {
    // Written out (`'drawer' | 'modal'`), in the order written; else as the checker resolves it.
    if (ts.isUnionTypeNode(node) && node.types.every((t) => ts.isLiteralTypeNode(t) && (ts.isStringLiteral(t.literal) || ts.isNumericLiteral(t.literal))))
      return node.types.map((t) => {
        const literal = (t as ts.LiteralTypeNode).literal as ts.StringLiteral | ts.NumericLiteral;
        return ts.isNumericLiteral(literal) ? Number(literal.text) : literal.text;
      });
    const type = this.checker.getTypeFromTypeNode(node);
    const members = type.isUnion() ? type.types : [type];
    if (!members.every((member) => member.isStringLiteral() || member.isNumberLiteral())) return null;
    return members.map((member) => (member as ts.StringLiteralType | ts.NumberLiteralType).value);
  }

  /** The JSON Schema of a type written in the model. */
  schema(node: ts.TypeNode): Json {
    if (ts.isParenthesizedTypeNode(node)) return this.schema(node.type);
    switch (node.kind) {
      case ts.SyntaxKind.StringKeyword:
        return { type: 'string' };
      case ts.SyntaxKind.NumberKeyword:
        return { type: 'number' };
      case ts.SyntaxKind.BooleanKeyword:
        return { type: 'boolean' };
      case ts.SyntaxKind.UnknownKeyword:
        return {};
    }
    if (ts.isLiteralTypeNode(node)) return { const: (this.literals(node) ?? [])[0] };
    if (ts.isArrayTypeNode(node)) return { type: 'array', items: this.schema(node.elementType) };
    if (ts.isTypeOperatorNode(node)) return this.schema(node.type);
    if (ts.isTypeLiteralNode(node)) return this.object(node.members);
    if (ts.isIntersectionTypeNode(node) && node.types.some((t) => t.kind === ts.SyntaxKind.StringKeyword)) return { type: 'string' };
    // `${string}.${string}`: a string (its alias's @pattern says its shape).
    if (ts.isTemplateLiteralTypeNode(node)) return { type: 'string' };
    if (ts.isUnionTypeNode(node)) {
      const literals = this.literals(node);
      if (literals) return { enum: literals };
      const branches = node.types.map((t) => this.schema(t));
      // Names with any string (a built-in name or one the console registers) are a string.
      const stringy = (b: Json) => b.type === 'string' || (Array.isArray(b.enum) && b.enum.every((v) => typeof v === 'string'));
      if (branches.every(stringy) && branches.some((b) => b.type === 'string' && b.enum === undefined)) return { type: 'string' };
      return { oneOf: branches };
    }
    if (ts.isTypeReferenceNode(node)) return this.reference(node);
    if (ts.isIndexedAccessTypeNode(node)) return { enum: this.literals(node) ?? [] };
    throw new Error(`页面模型的类型 ${node.getText()} 无法写成 JSON Schema`);
  }

  reference(node: ts.TypeReferenceNode): Json {
    const name = node.typeName.getText();
    const args = node.typeArguments ?? [];
    if (name === 'Array' && args.length === 1) return { type: 'array', items: this.schema(args[0]) };
    if (name === 'Record' && args.length === 2) return { type: 'object', additionalProperties: this.schema(args[1]) };
    if (name === 'NonNullable') return {};
    if (name === 'StepOf' && args.length === 1) return this.schema(args[0]);
    const literals = this.literals(node);
    if (literals && !this.declarations.has(name)) return { enum: literals };
    const declaration = this.declaration(name);
    const def = this.defName(name);
    if (def) return { $ref: `#/$defs/${def}` };
    const doc = docOf(declaration);
    const schema = constrain(this.declared(declaration), doc.tags);
    return doc.text && schema.description === undefined ? { ...schema, description: doc.text } : schema;
  }

  /** An interface's or an alias's schema (without its own description). */
  declared(declaration: Declaration): Json {
    if (ts.isTypeAliasDeclaration(declaration)) {
      const literals = this.literals(declaration.type);
      return literals && !ts.isTypeReferenceNode(declaration.type) ? { enum: literals } : this.schema(declaration.type);
    }
    const members: ts.TypeElement[] = [];
    for (const clause of declaration.heritageClauses ?? [])
      for (const base of clause.types) {
        const baseDeclaration = this.declaration(base.expression.getText());
        if (!ts.isInterfaceDeclaration(baseDeclaration)) throw new Error(`${base.getText()} 不是接口`);
        members.push(...this.interfaceMembers(baseDeclaration));
      }
    const own = new Set(declaration.members.map((member) => member.name?.getText()));
    return this.object([...members.filter((member) => !own.has(member.name?.getText())), ...declaration.members]);
  }

  interfaceMembers(declaration: ts.InterfaceDeclaration): ts.TypeElement[] {
    const inherited = (declaration.heritageClauses ?? []).flatMap((clause) =>
      clause.types.flatMap((base) => this.interfaceMembers(this.declaration(base.expression.getText()) as ts.InterfaceDeclaration)),
    );
    return [...inherited, ...declaration.members];
  }

  /** An object of the model: its properties in order, the required ones, nothing else admitted. */
  object(members: readonly ts.TypeElement[]): Json {
    const properties: Json = {};
    const required: string[] = [];
    for (const member of members) {
      if (!ts.isPropertySignature(member) || !member.type) continue;
      const name = member.name.getText().replace(/^['"]|['"]$/g, '');
      const doc = docOf(member);
      let schema: Json = doc.tags.has('schema') ? { $ref: `#/$defs/${doc.tags.get('schema')}` } : constrain(this.schema(member.type), doc.tags);
      if (doc.text) schema = { ...schema, description: doc.text };
      if (doc.tags.has('reuse')) schema = reusable(schema);
      properties[name] = schema;
      if (!member.questionToken && !doc.tags.has('sourceOptional')) required.push(name);
    }
    return { type: 'object', ...(required.length ? { required } : {}), additionalProperties: false, properties };
  }

  /** A definition: an interface, an alias, or a discriminated union (`@discriminator`). */
  define(name: string): void {
    const declaration = this.declaration(name);
    const doc = docOf(declaration);
    const def = doc.tags.get('def') as string;
    const discriminator = doc.tags.get('discriminator');
    let schema: Json;
    if (discriminator && ts.isTypeAliasDeclaration(declaration) && ts.isUnionTypeNode(declaration.type)) {
      const discriminant = (member: ts.TypeNode) => (this.memberOf(member).members.find((m) => m.name?.getText() === discriminator) as ts.PropertySignature).type as ts.TypeNode;
      // The members named by a literal are told apart by it; one member whose discriminant is a
      // pattern (an extension's name) is chosen by that pattern first.
      const closed = declaration.type.types.filter((member) => this.literals(discriminant(member)) !== null);
      const open = declaration.type.types.filter((member) => this.literals(discriminant(member)) === null);
      if (open.length > 1) throw new Error(`${name}：只能有一个成员的 ${discriminator} 不是字面量`);
      const values = closed.map((member) => (this.literals(discriminant(member)) as Array<string | number>)[0]);
      const required = [discriminator, ...(doc.tags.get('required')?.split(/\s+/).filter(Boolean) ?? [])];
      const text = doc.tags.get('discriminatorText') ?? discriminator;
      const builtIn = {
        oneOf: closed.map((member) => this.schema(member)),
        discriminator: { propertyName: discriminator },
        type: 'object',
        required,
        properties: { [discriminator]: { enum: values, description: `${text}：${values.join('、')}${open.length ? '，或注册的扩展名称（带点号）' : ''}。` } },
      };
      if (open.length === 0) schema = builtIn;
      else {
        const pattern = this.schema(discriminant(open[0])).pattern;
        if (typeof pattern !== 'string') throw new Error(`${name}：${open[0].getText()} 的 ${discriminator} 要有 @pattern`);
        schema = {
          type: 'object',
          required,
          if: { required: [discriminator], properties: { [discriminator]: { type: 'string', pattern, description: `${text}：注册的扩展名称（带点号）。` } } },
          then: this.schema(open[0]),
          else: builtIn,
        };
      }
    } else schema = constrain(this.declared(declaration), doc.tags);
    const extra = sourceProperties()[def];
    if (extra)
      schema = {
        ...schema,
        properties: { ...(schema.properties as Json), ...extra },
      };
    const rule = sourceRules()[def];
    this.defs[def] = {
      ...schema,
      ...(rule ?? {}),
      ...(doc.text ? { description: doc.text } : {}),
    };
  }

  /** The interface behind a union member (`StepOf<X>` is X). */
  memberOf(node: ts.TypeNode): ts.InterfaceDeclaration {
    const reference = node as ts.TypeReferenceNode;
    const name = reference.typeName.getText();
    if (name === 'StepOf') return this.memberOf((reference.typeArguments as ts.NodeArray<ts.TypeNode>)[0]);
    return this.declaration(name) as ts.InterfaceDeclaration;
  }
}

/** The contents of schemas/page.schema.json, from the model under `root`. */
export function pageSchema(root = projectRoot): Json {
  const generator = new Generator(root);
  for (const [name, declaration] of generator.declarations) if (docOf(declaration).tags.has('def')) generator.define(name);
  const page = generator.declaration('PageSchema') as ts.TypeAliasDeclaration;
  const kinds = (page.type as ts.UnionTypeNode).types.map((member) => generator.defName(member.getText()) as string);
  const doc = docOf(page);
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: PAGE_SCHEMA_ID,
    title: '页面模式（npm run schemas 由 renderers/schema/types.ts 生成，勿手改）',
    description: doc.text,
    type: 'object',
    required: ['kind'],
    properties: {
      kind: {
        enum: kinds.map((def) => ((generator.defs[def].properties as Json).kind as Json).const),
        description: '页面类型：list、form、detail、dashboard。',
      },
    },
    oneOf: kinds.map((def) => ({ $ref: `#/$defs/${def}` })),
    discriminator: { propertyName: 'kind' },
    $defs: { ...generator.defs, ...sourceDefinitions() },
  };
}

export const pageSchemaText = (root = projectRoot): string => `${JSON.stringify(pageSchema(root), null, 2)}\n`;

/** The model a check under `root` reads: its own, or this project's when `root` holds only schemas/ (a test's copy). */
const modelRoot = (root: string) => (MODEL_FILES.every((file) => existsSync(join(root, file))) ? root : projectRoot);

/** `npm run check`: schemas/page.schema.json is what the model under `root` generates. */
export function checkPageSchemaFile(root = projectRoot): Array<{ file: string; pointer: string; message: string }> {
  const path = join(root, PAGE_SCHEMA_FILE);
  const current = existsSync(path) ? readFileSync(path, 'utf8') : '';
  if (current === pageSchemaText(modelRoot(root))) return [];
  const state = current ? '已过期：与 renderers/schema/types.ts、actionTypes.ts 的页面模型不一致' : '不存在';
  return [{ file: PAGE_SCHEMA_FILE, pointer: '/', message: `${state}（它由页面模型生成，勿手改），运行 npm run schemas 重新生成` }];
}

/** Writes schemas/page.schema.json; answers whether it changed. */
export function writePageSchema(root = projectRoot): boolean {
  const path = join(root, PAGE_SCHEMA_FILE);
  const text = pageSchemaText(root);
  if (existsSync(path) && readFileSync(path, 'utf8') === text) return false;
  writeFileSync(path, text);
  return true;
}
