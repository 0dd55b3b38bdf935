import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ACTION_ICONS } from '../../renderers/actions/icons';
import { ACTION_ICON_NAMES } from '../../renderers/schema/types';
import { checkPageSchemaFile, PAGE_SCHEMA_FILE, pageSchema, pageSchemaText } from '../../scripts/pageModel';
import { sourceDefinitions } from '../../scripts/pageModelSource';

/**
 * The page language is said once (issue 33): renderers/schema/types.ts and actionTypes.ts are the
 * model, `npm run schemas` generates schemas/page.schema.json from them (scripts/pageModel.ts).
 * The committed file must be what the model generates; npm run check says when it is not; a field
 * written in the model reaches the file with its description and constraints.
 */
const root = join(__dirname, '../..');
const MODEL_FILES = ['renderers/schema/types.ts', 'renderers/schema/actionTypes.ts'];

type Json = Record<string, unknown>;
const committed = () => readFileSync(join(root, PAGE_SCHEMA_FILE), 'utf8');

const scratch: string[] = [];
afterAll(() => scratch.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

/** A copy of the model and of schemas/page.schema.json, to change one without the other. */
function modelCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'page-model-'));
  scratch.push(dir);
  mkdirSync(join(dir, 'renderers/schema'), { recursive: true });
  mkdirSync(join(dir, 'schemas'));
  for (const file of [...MODEL_FILES, PAGE_SCHEMA_FILE]) cpSync(join(root, file), join(dir, file));
  return dir;
}
const edit = (dir: string, file: string, change: (text: string) => string) => {
  const before = readFileSync(join(dir, file), 'utf8');
  const after = change(before);
  expect(after, `${file} changed`).not.toBe(before);
  writeFileSync(join(dir, file), after);
};

describe('the page language is said once: schemas/page.schema.json is generated from the TypeScript model', () => {
  it('the committed schemas/page.schema.json is what npm run schemas generates (run it after changing types.ts)', () => {
    expect(committed() === pageSchemaText(), `${PAGE_SCHEMA_FILE} 已过期：运行 npm run schemas 重新生成`).toBe(true);
    expect(checkPageSchemaFile(root)).toEqual([]);
  }, 60_000);

  it('npm run check says the file is stale when the model changed and it was not generated again, and when it is missing', () => {
    const dir = modelCopy();
    edit(dir, 'renderers/schema/types.ts', (text) => text.replace('/** 启用虚拟滚动（长列表）。 */', '/** 启用虚拟滚动（很长的列表）。 */'));
    expect(checkPageSchemaFile(dir)).toEqual([
      { file: PAGE_SCHEMA_FILE, pointer: '/', message: '已过期：与 renderers/schema/types.ts、actionTypes.ts 的页面模型不一致（它由页面模型生成，勿手改），运行 npm run schemas 重新生成' },
    ]);
    writeFileSync(join(dir, PAGE_SCHEMA_FILE), pageSchemaText(dir));
    expect(checkPageSchemaFile(dir)).toEqual([]);
    // A hand edit of the generated file is told the same way.
    edit(dir, PAGE_SCHEMA_FILE, (text) => text.replace('"maximum": 1000', '"maximum": 2000'));
    expect(checkPageSchemaFile(dir)).toHaveLength(1);
    rmSync(join(dir, PAGE_SCHEMA_FILE));
    expect(checkPageSchemaFile(dir)[0].message).toBe('不存在（它由页面模型生成，勿手改），运行 npm run schemas 重新生成');
  }, 60_000);

  it('a field added to the model (as the row rules were added to Column) reaches the schema with its description, constraints and reuse', () => {
    const dir = modelCopy();
    edit(dir, 'renderers/schema/actionTypes.ts', (text) =>
      text.replace(
        '  /** 条件成立时才显示：列表列按 params、user 判断，详情字段还可读 record。 */',
        [
          '  /**',
          '   * 单元格的提示：一个 {{…}} 表达式，读 record。',
          '   */',
          '  hint?: Expression;',
          '  /**',
          '   * 最多显示的字数。',
          '   * @reuse',
          '   * @integer',
          '   * @minimum 1',
          '   */',
          '  maxChars?: number;',
          '  /** 条件成立时才显示：列表列按 params、user 判断，详情字段还可读 record。 */',
        ].join('\n'),
      ),
    );
    const column = (pageSchema(dir).$defs as Record<string, Json>).column;
    const properties = column.properties as Json;
    expect(properties.hint).toEqual({ $ref: '#/$defs/expression', description: '单元格的提示：一个 {{…}} 表达式，读 record。' });
    expect(properties.maxChars).toEqual({
      if: { $ref: '#/$defs/isReuse' },
      then: { $ref: '#/$defs/param' },
      else: { type: 'integer', minimum: 1, description: '最多显示的字数。' },
    });
    expect(column.required).toEqual(['field']); // title: a page naming an entity takes it from the entity (@sourceOptional)
    // In the order written, after the properties before them.
    expect(Object.keys(properties).slice(-7)).toEqual(['hint', 'maxChars', 'visibleWhen', 'value', 'color', 'cellVisibleWhen', 'search']);
  }, 60_000);

  it('the schema an editor reads keeps what the model says: descriptions, enums from the constants, $defs, required properties', () => {
    const schema = JSON.parse(committed()) as Json & { $defs: Record<string, Json & { properties?: Record<string, Json> }> };
    expect(schema.$id).toBe('https://iot-console.local/schemas/page.schema.json');
    expect(Object.keys(schema.$defs)).toEqual(expect.arrayContaining(['listPage', 'formPage', 'detailPage', 'dashboardPage', 'action', 'chainStep', 'column', 'condition', 'expression', 'liveEventKind']));
    const list = schema.$defs.listPage;
    expect(list.required).toEqual(['schemaVersion', 'title', 'kind', 'operation', 'columns']);
    expect(list.properties?.pageSize).toEqual({ type: 'integer', minimum: 1, maximum: 1000, description: '每页条数。' });
    expect(schema.$defs.liveEventKind.enum).toEqual(['alarm.raised', 'alarm.recovered', 'device.online', 'device.offline', 'command.updated']);
    // The built-ins are told apart by their type; a type with a dot is the console's action (its pattern first).
    const action = schema.$defs.action as Json & { if: Json; then: Json; else: Json & { properties: Record<string, Json> } };
    expect(action.if).toEqual({ required: ['type'], properties: { type: { type: 'string', pattern: '^[a-z][a-zA-Z0-9]*(\\.[a-z][a-zA-Z0-9]*)+$', description: '操作类型：注册的扩展名称（带点号）。' } } });
    expect(action.then).toEqual({ $ref: '#/$defs/consoleAction' });
    expect(action.required).toEqual(['type', 'label']);
    expect(action.else.properties.type).toEqual({
      enum: ['navigate', 'openForm', 'openPage', 'call', 'download', 'refresh', 'showResult', 'chain'],
      description: '操作类型：navigate、openForm、openPage、call、download、refresh、showResult、chain，或注册的扩展名称（带点号）。',
    });
    const step = schema.$defs.chainStep as Json & { then: Json; else: Json & { properties: Record<string, Json> } };
    expect(step.then).toEqual({ $ref: '#/$defs/consoleAction' });
    expect(step.else.properties.type.enum).toEqual(['navigate', 'openForm', 'openPage', 'call', 'download', 'refresh', 'showResult']);
    // Every property an editor completes says what it is, in Chinese (here or in the definition it refers to).
    const chinese = (text: unknown) => typeof text === 'string' && /[\u4e00-\u9fff]/.test(text);
    const described = (property: Json): boolean => {
      const ref = typeof property.$ref === 'string' && property.$ref.startsWith('#/$defs/') ? schema.$defs[property.$ref.slice(8)] : undefined;
      return chinese(property.description) || chinese((property.else as Json | undefined)?.description) || (ref !== undefined && chinese(ref.description));
    };
    const silent: string[] = [];
    const walk = (node: unknown, pointer: string): void => {
      if (!node || typeof node !== 'object') return;
      const schemaNode = node as Json;
      for (const [name, property] of Object.entries((schemaNode.properties ?? {}) as Record<string, Json>)) {
        if (!described(property)) silent.push(`${pointer}/properties/${name}`);
        walk(property, `${pointer}/properties/${name}`);
      }
      // A page's rule (`if` not an entity `then` titled columns) repeats properties already described.
      const overlay = Boolean((schemaNode.if as Json | undefined)?.not);
      for (const key of ['items', 'additionalProperties', 'if', 'else', ...(overlay ? [] : ['then'])]) walk(schemaNode[key], `${pointer}/${key}`);
      for (const key of ['oneOf', 'anyOf']) ((schemaNode[key] ?? []) as unknown[]).forEach((branch, i) => walk(branch, `${pointer}/${key}/${i}`));
    };
    for (const [name, definition] of Object.entries(schema.$defs)) walk(definition, `#/$defs/${name}`);
    // A validator's name, field, message and pattern say themselves.
    expect(silent.filter((pointer) => !/\/x-validator\/.*\/(name|field|message|pattern)$/.test(pointer))).toEqual([]);
  });

  it('an action may name exactly the icons the renderer draws', () => {
    const schema = JSON.parse(committed()) as { $defs: Record<string, { properties?: Record<string, { enum?: string[] }> }> };
    for (const [name, definition] of Object.entries(schema.$defs)) {
      if (name.endsWith('Action') && definition.properties?.icon) expect(definition.properties.icon.enum, name).toEqual([...ACTION_ICON_NAMES]);
    }
    expect(Object.keys(ACTION_ICONS).sort()).toEqual([...ACTION_ICON_NAMES].sort());
  });

  it("a list filter's field is the model's (FilterField in renderers/schema/types.ts, @def filterField): generated, not written again in the source layer", () => {
    expect(Object.keys(sourceDefinitions())).not.toContain('filterField');
    const filterField = (JSON.parse(committed()) as { $defs: Record<string, { properties: Json; required: string[] }> }).$defs.filterField;
    expect(Object.keys(filterField.properties)).toEqual(['type', 'title', 'x-decorator', 'x-component', 'x-component-props', 'x-validator', 'enum', 'default', 'description']);
    expect(filterField.required).toEqual(['title', 'x-component']);
    expect(filterField.properties['x-component']).toMatchObject({ $ref: 'names.schema.json#/$defs/filterComponent' });
  });
});
