import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { ACTION_ICONS } from '../../renderers/actions/icons';
import { ACTION_ICON_NAMES } from '../../renderers/schema/types';

/**
 * The page schema language is said twice: renderers/schema/types.ts (what the renderer reads) and
 * schemas/page.schema.json (what editors and npm run check validate). This test reads both and
 * fails when they disagree, so neither can drift (issue 20: `icon` accepted and never rendered,
 * `Column.format` read by nothing).
 */
const root = join(__dirname, '../..');
const typesFile = join(root, 'renderers/schema/types.ts');
const schema = JSON.parse(readFileSync(join(root, 'schemas/page.schema.json'), 'utf8')) as { $defs: Record<string, { properties?: Record<string, { enum?: string[] }> }> };

const program = ts.createProgram([typesFile], { strict: true, noEmit: true });
const checker = program.getTypeChecker();
const source = program.getSourceFile(typesFile);
if (!source) throw new Error('renderers/schema/types.ts not found');

function declared(name: string): ts.Type {
  let found: ts.Type | undefined;
  ts.forEachChild(source as ts.SourceFile, (node) => {
    if ((ts.isInterfaceDeclaration(node) || ts.isTypeAliasDeclaration(node)) && node.name.text === name) found = checker.getTypeAtLocation(node.name);
  });
  if (!found) throw new Error(`types.ts has no ${name}`);
  return found;
}

const propertiesOf = (name: string) => checker.getPropertiesOfType(declared(name)).map((p) => p.name).sort();

/** The TypeScript model's interfaces and the meta-schema's definitions that say the same thing. */
const PAIRS: Record<string, string> = {
  ListPage: 'listPage',
  FormPage: 'formPage',
  DetailPage: 'detailPage',
  DashboardPage: 'dashboardPage',
  DetailSection: 'section',
  DashboardWidget: 'widget',
  Column: 'column',
  NavigateAction: 'navigateAction',
  OpenFormAction: 'openFormAction',
  OpenPageAction: 'openPageAction',
  CallAction: 'callAction',
  DownloadAction: 'downloadAction',
  RefreshAction: 'refreshAction',
  ShowResultAction: 'showResultAction',
  CustomAction: 'customAction',
  ChainAction: 'chainAction',
};

/**
 * What a page file may say that composing it removes before the renderer sees it
 * (renderers/schema/compose.ts): its parameters, a column's filter.
 */
const COMPOSED_AWAY: Record<string, readonly string[]> = {
  listPage: ['parameters'],
  formPage: ['parameters'],
  detailPage: ['parameters'],
  dashboardPage: ['parameters'],
  column: ['search'],
};

describe('the TypeScript page model and page.schema.json cannot drift', () => {
  for (const [model, definition] of Object.entries(PAIRS)) {
    it(`${model} has the properties of $defs/${definition}`, () => {
      const inSchema = Object.keys(schema.$defs[definition]?.properties ?? {})
        .filter((name) => !(COMPOSED_AWAY[definition] ?? []).includes(name))
        .sort();
      expect(propertiesOf(model)).toEqual(inSchema);
    });
  }

  it('the action kinds are the same: the union in types.ts, the enum and the oneOf of the meta-schema', () => {
    const union = declared('Action');
    const kinds = (union.isUnion() ? union.types : [union]).map((member) => {
      const type = checker.getTypeOfSymbol(member.getProperty('type') as ts.Symbol);
      return (type as ts.StringLiteralType).value;
    });
    expect([...(schema.$defs.action.properties?.type.enum ?? [])].sort()).toEqual([...kinds].sort());
    const steps = schema.$defs.chainStep.properties?.type.enum ?? [];
    expect([...steps].sort()).toEqual(kinds.filter((kind) => kind !== 'chain').sort());
  });

  it('an action may name exactly the icons the renderer draws', () => {
    for (const [name, definition] of Object.entries(schema.$defs)) {
      if (name.endsWith('Action') && definition.properties?.icon) expect(definition.properties.icon.enum, name).toEqual([...ACTION_ICON_NAMES]);
    }
    expect(Object.keys(ACTION_ICONS).sort()).toEqual([...ACTION_ICON_NAMES].sort());
  });
});
