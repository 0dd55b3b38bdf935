// `npm run contracts` (issue 23): one contract per operation, generated from the server.
//
// schemas/contracts.json holds, for every catalogued operation, the JSON Schema of its `param`
// (the schema the server validates with: the operation's paramSchema under server/operations) and
// of its answer's `data` (the open subset's documented schemas, server/openApi/responses.ts, and
// for the others the handler's own return type read by the TypeScript compiler,
// scripts/contracts/responseTypes.ts). src/api/contracts.gen.ts holds the console's types for
// them (json-schema-to-typescript). Both are written by this script and never by hand:
// tests/contract/contracts.test.ts fails when either is stale.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { compile } from 'json-schema-to-typescript';
import { loadCatalogue } from '../server/catalogue';
import type { OperationDefinition } from '../server/core/operation';
import { OPERATIONS } from '../server/operations/index';
import { OPEN_RESPONSE_SCHEMAS } from '../server/openApi/responses';
import { entityAnswerSchemas } from '../server/entities';
import type { ContractsFile, JsonSchema, OperationContract } from '../server/contracts';
import { deriveResponses } from './contracts/responseTypes';
import { NAMES_SCHEMA_FILE, writeNamesSchema } from './metaSchema';

const projectRoot = new URL('..', import.meta.url).pathname.replace(/\/$/, '');

export const CONTRACTS_FILE = 'schemas/contracts.json';
export const CONTRACT_TYPES_FILE = 'src/api/contracts.gen.ts';

/** The contracts of every catalogued operation, in the catalogue's order. */
export function buildContracts(root = projectRoot): ContractsFile {
  const catalogue = loadCatalogue(join(root, 'schemas/operations.json'));
  const definitions = new Map(OPERATIONS.map((definition) => [definition.name, definition]));
  const derived = deriveResponses(root);
  // The entities' operations (schemas/entities, issue 25) answer what their definitions say.
  const entityAnswers = entityAnswerSchemas();
  // An operation served by another's handler (brand.ts's aliases) answers what that one answers.
  const sameHandler = new Map<OperationDefinition['handler'], string>();
  for (const definition of OPERATIONS) if (derived.schemas.has(definition.name) && !sameHandler.has(definition.handler)) sameHandler.set(definition.handler, definition.name);
  const operations: Record<string, OperationContract> = {};
  for (const [name, entry] of Object.entries(catalogue)) {
    const definition = definitions.get(name);
    const contract: OperationContract = { kind: entry.kind };
    if (definition) contract.param = JSON.parse(JSON.stringify(definition.paramSchema)) as JsonSchema;
    const documented = OPEN_RESPONSE_SCHEMAS[name];
    const original = definition && !derived.schemas.has(name) ? sameHandler.get(definition.handler) : undefined;
    const found = derived.schemas.get(original ?? name);
    if (entry.kind !== 'blob') {
      if (documented) {
        contract.data = JSON.parse(JSON.stringify(documented)) as JsonSchema;
        contract.dataSource = 'server/openApi/responses.ts';
      } else if (definition && entityAnswers[name]) {
        contract.data = JSON.parse(JSON.stringify(entityAnswers[name])) as JsonSchema;
        contract.dataSource = 'server/entities/schemas.ts';
      } else if (definition && found && Object.keys(found).length) {
        contract.data = found;
        contract.dataSource = derived.sources.get(original ?? name);
      }
    }
    operations[name] = contract;
  }
  return {
    $comment: '由 npm run contracts 从服务端生成，请勿手工修改：param 为服务端校验参数用的 JSON Schema，data 为应答 data 的 JSON Schema',
    operations,
  };
}

/** A schema without what would name generated types (titles, ids): every type stays inline. */
function forTypes(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(forTypes);
  if (!schema || typeof schema !== 'object') return schema;
  const { type, properties, additionalProperties } = schema as JsonSchema;
  // An object that takes nothing: `{}` in TypeScript would take anything but null.
  if (type === 'object' && additionalProperties === false && (!properties || Object.keys(properties).length === 0)) return { tsType: 'Record<string, never>' };
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'title' && key !== '$id' && key !== 'default' && key !== 'description')
      .map(([key, value]) => [key, key === 'properties' ? Object.fromEntries(Object.entries(value as object).map(([k, v]) => [k, forTypes(v)])) : forTypes(value)]),
  );
}

/**
 * A schema with its own `$defs` (a tree type) moved to the root's, renamed where another operation
 * has a different one of that name: the generated types name each once (MenuResource …).
 */
function hoistDefs(schema: JsonSchema, rootDefs: Record<string, unknown>): unknown {
  const { $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, unknown> };
  if (!$defs) return schema;
  const renames: Record<string, string> = {};
  for (const [name, definition] of Object.entries($defs)) {
    let key = name;
    for (let i = 2; rootDefs[key] !== undefined && JSON.stringify(rootDefs[key]) !== JSON.stringify(definition); i++) key = `${name}${i}`;
    renames[name] = key;
  }
  const rewrite = (value: unknown): unknown => JSON.parse(JSON.stringify(value).replace(/"#\/\$defs\/([A-Za-z0-9_]+)"/g, (_match, name: string) => `"#/$defs/${renames[name] ?? name}"`)) as unknown;
  for (const [name, definition] of Object.entries($defs)) rootDefs[renames[name]] = rewrite(definition);
  return rewrite(rest);
}

/** The console's types: OperationContracts maps each operation's name to its param and data. */
export async function buildContractTypes(contracts: ContractsFile): Promise<string> {
  const properties: Record<string, unknown> = {};
  const rootDefs: Record<string, unknown> = {};
  for (const [name, contract] of Object.entries(contracts.operations)) {
    properties[name] = {
      type: 'object',
      properties: {
        kind: { const: contract.kind },
        param: contract.param ? forTypes(hoistDefs(contract.param, rootDefs)) : {},
        data: contract.data ? forTypes(hoistDefs(contract.data, rootDefs)) : {},
      },
      required: ['kind', 'param', 'data'],
      additionalProperties: false,
    };
  }
  const $defs = Object.fromEntries(Object.entries(rootDefs).map(([name, definition]) => [name, forTypes(definition)]));
  const schema = { type: 'object', properties, required: Object.keys(properties), additionalProperties: false, $defs };
  return compile(schema as Parameters<typeof compile>[0], 'OperationContracts', {
    bannerComment: [
      '/* eslint-disable */',
      '// 由 npm run contracts 从 schemas/contracts.json 生成，请勿手工修改。',
      '// Each catalogued operation: its kind, its param and its answer\'s data (unknown where undescribed).',
    ].join('\n'),
    additionalProperties: false,
    unknownAny: true,
    strictIndexSignatures: true,
    ignoreMinAndMaxItems: true,
    format: true,
  });
}

/** The file's text: one operation a line, so that a change shows as the lines of its operations. */
export function contractsText(contracts: ContractsFile): string {
  const lines = Object.entries(contracts.operations).map(([name, contract]) => `    ${JSON.stringify(name)}: ${JSON.stringify(contract)}`);
  return `{\n  "$comment": ${JSON.stringify(contracts.$comment)},\n  "operations": {\n${lines.join(',\n')}\n  }\n}\n`;
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const contracts = buildContracts();
  writeFileSync(join(projectRoot, CONTRACTS_FILE), contractsText(contracts));
  writeFileSync(join(projectRoot, CONTRACT_TYPES_FILE), await buildContractTypes(contracts));
  const described = Object.values(contracts.operations).filter((contract) => contract.data).length;
  console.log(`${CONTRACTS_FILE}：${Object.keys(contracts.operations).length} 个操作，${described} 个有应答模式；${CONTRACT_TYPES_FILE} 已生成`);
  // The names editors complete (operations, permissions, entities …) change with the catalogue too.
  if (writeNamesSchema()) console.log(`${NAMES_SCHEMA_FILE} 已更新`);
}
