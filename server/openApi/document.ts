import { accessOf, type Catalogue, type CatalogueEntry } from '../catalogue';
import { loadContracts, type ContractsFile } from '../contracts';
import { MESSAGES } from '../http/envelope';
import { bodySchemaOf } from '../http/routes';
import type { OperationDefinition } from '../core/operation';
import { OPEN_API_RATE_LIMIT, OPEN_API_MESSAGES } from './routes';
import type { JsonSchema } from './responses';
import { CLOCK_SKEW_SECONDS, OPEN_API_HEADERS } from './signature';
import { OPEN_OPERATIONS, OPEN_TAGS, openPathOf } from './subset';
import { DELIVERY_POLICY } from '../ingest/delivery';
import { WEBHOOK_EVENTS, WEBHOOK_HEADERS } from '../ingest/webhookDelivery';

/**
 * The OpenAPI 3.1 documents (issue 23), generated from the operations' contracts
 * (schemas/contracts.json, generated from the server by npm run contracts): each request body is
 * the schema the route validates with (bodySchemaOf over the operation's param schema), each answer
 * the envelope around the operation's `data`. The open subset's is served at /api/docs/json and
 * drawn by Swagger UI at /api/docs; the console's whole API at /api/docs/console.json.
 */

export interface OpenApiDocument {
  openapi: '3.1.0';
  info: { title: string; version: string; description: string };
  tags: Array<{ name: string; description: string }>;
  paths: Record<string, { post?: JsonSchema; get?: JsonSchema }>;
  components: { schemas: Record<string, JsonSchema>; securitySchemes: Record<string, JsonSchema> };
}

/** The error codes of the envelope (SPEC §8, as this API answers them), described once. */
export const OPEN_API_ERROR_CODES: ReadonlyArray<readonly [string, string]> = [
  ['400', `参数错误：${MESSAGES.badRequest}：字段（原因），如 参数错误：pageParam.pageSize（超出允许范围）`],
  ['401', `签名校验未通过：${OPEN_API_MESSAGES.unsigned}；${OPEN_API_MESSAGES.unknownKey}；${OPEN_API_MESSAGES.noSecret}；${OPEN_API_MESSAGES.badSignature}；${OPEN_API_MESSAGES.stale}；${OPEN_API_MESSAGES.replayed}`],
  ['403', `${MESSAGES.forbidden}：租户管理员角色没有该操作的权限`],
  ['404', '对象不存在或不属于本租户（如 设备不存在、告警不存在），或接口不存在'],
  ['409', '状态冲突：对象已被他人修改或已处理（如 该告警已处理），请刷新后重试'],
  ['429', `${OPEN_API_MESSAGES.tooFrequent}；${OPEN_API_MESSAGES.tooManyFailures}（应答头 Retry-After 给出需等待的秒数）`],
  ['500', `${MESSAGES.internal}（应答带 requestId，请提供给平台运维）`],
  ['503', '服务繁忙，请稍后重试'],
];

const DESCRIPTION = `租户的系统用租户的**开放平台访问密钥**调用的接口（开放子集）。每个接口与控制台使用的同名操作是同一个实现：同样的参数校验、同样的数据范围（访问密钥以租户管理员的身份看整个租户，看不到其他租户的任何数据）。

## 取得密钥
租户管理员登录后调用 \`POST /api/open/api/key/_reset\`（操作 openApi.key.reset），得到 \`accessKey\` 与 \`secret\`。secret 只在这一次应答中出现，服务器加密保存、不再返回；重置后旧的 accessKey 与 secret 立即失效。

## 签名
每个请求带四个请求头：
- \`${OPEN_API_HEADERS.accessKey}\`：accessKey（ak_ 加 32 位十六进制）
- \`${OPEN_API_HEADERS.timestamp}\`：Unix 时间（秒），与服务器时间相差不得超过 ${CLOCK_SKEW_SECONDS} 秒
- \`${OPEN_API_HEADERS.nonce}\`：16–64 位字母、数字、_ 或 -，同一 accessKey 的 nonce 不能重复使用
- \`${OPEN_API_HEADERS.signature}\`：HMAC-SHA256(secret, 待签名串) 的小写十六进制

待签名串为以下六行以换行符（\\n）连接：请求方法（POST）、请求路径（如 /api/open/v1/device/_page）、accessKey、timestamp、nonce、请求体原样字节的 SHA-256 小写十六进制（空请求体即空串的 SHA-256）。

## 请求与应答
请求体为 JSON：\`{"param": {...}}\`；分页接口另有 \`"pageParam": {"pageNumber": 1, "pageSize": 10}\`（pageSize 不超过 1000）与 \`"sortParamList": [{"field": "createTime", "order": "desc"}]\`。

应答的 HTTP 状态总是 200，结果看信封 \`{code, message, data}\`：code 为 "200" 时 data 为结果，分页结果为 \`{records, total, pageNumber, pageSize}\`；其他 code 时 data 为 null、message 说明原因：

| code | 含义 |
| --- | --- |
${OPEN_API_ERROR_CODES.map(([code, meaning]) => `| ${code} | ${meaning} |`).join('\n')}

每个访问密钥每 ${OPEN_API_RATE_LIMIT.windowSeconds} 秒最多调用 ${OPEN_API_RATE_LIMIT.calls} 次。每次调用（包括被拒绝的）都记入租户的调用日志，租户管理员可用 openApi.call.page 查询。

## Webhook（事件推送）
租户管理员在控制台接口中登记接收地址（openApi.webhook.insert，事件 ${WEBHOOK_EVENTS.join('、')}；签名密钥只在新增或重置时返回一次），平台在事件发生后向该地址 POST 一个 JSON：\`{"eventId","event","tenantCode","organizationCode","occurredAt","data":{"deviceCode","alarmCode"}}\`，请求头：
- \`${WEBHOOK_HEADERS.signature}\`：\`sha256=\` 加 HMAC-SHA256(签名密钥, 请求体原样字节) 的小写十六进制，接收方应先校验再解析
- \`${WEBHOOK_HEADERS.event}\`：事件名；\`${WEBHOOK_HEADERS.webhook}\`：Webhook 编码
- \`${WEBHOOK_HEADERS.delivery}\`：投递编号，重试时不变（可据此去重）；\`${WEBHOOK_HEADERS.attempt}\`：第几次尝试

应答 2xx 即投递成功；其他状态、连接失败或 ${DELIVERY_POLICY.timeoutMs / 1000} 秒内无应答为失败，按 ${DELIVERY_POLICY.retryDelaysSeconds.join('、')} 秒后重试，共 ${DELIVERY_POLICY.attempts} 次。每次尝试及其结果可用 openApi.webhook.delivery.page 查询。`;

/** Draft-7 keywords (the server's param schemas, as Fastify's ajv reads them) in their 2020-12 spelling. */
function to2020(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(to2020);
  if (typeof schema !== 'object' || schema === null) return schema;
  const result: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === 'items' && Array.isArray(value)) result.prefixItems = to2020(value);
    else if (key === 'additionalItems') result.items = to2020(value);
    else if (key === 'definitions') result.$defs = to2020(value);
    else result[key] = to2020(value);
  }
  return result;
}

const ref = (name: string): JsonSchema => ({ $ref: `#/components/schemas/${name}` });

/**
 * A contract's schema for the document: its own `$defs` (a tree type such as MenuResource) become
 * components, named once, and its `$ref`s point there.
 */
function withComponents(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const { $defs, ...rest } = schema as JsonSchema & { $defs?: Record<string, JsonSchema> };
  if (!$defs) return to2020(schema) as JsonSchema;
  const names: Record<string, string> = {};
  for (const [name, definition] of Object.entries($defs)) {
    let key = name;
    for (let i = 2; components[key] !== undefined && JSON.stringify(components[key]) !== JSON.stringify(definition); i++) key = `${name}${i}`;
    names[name] = key;
  }
  const rewrite = (value: unknown): JsonSchema =>
    to2020(JSON.parse(JSON.stringify(value).replace(/"#\/\$defs\/([A-Za-z0-9_]+)"/g, (_match, name: string) => `"#/components/schemas/${names[name] ?? name}"`))) as JsonSchema;
  for (const [name, definition] of Object.entries($defs)) components[names[name]] = rewrite(definition);
  return rewrite(rest);
}

const ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  title: '失败应答',
  properties: {
    code: { type: 'string', enum: OPEN_API_ERROR_CODES.map(([code]) => code), description: '错误码，见文档开头的表' },
    message: { type: 'string', description: '原因（中文）' },
    data: { type: 'null' },
    requestId: { type: 'string', description: '仅 500：请求编号' },
  },
  required: ['code', 'message', 'data'],
  additionalProperties: false,
};

function successEnvelope(data: JsonSchema): JsonSchema {
  return {
    type: 'object',
    title: '成功应答',
    properties: { code: { const: '200' }, message: { type: 'string', const: MESSAGES.success }, data },
    required: ['code', 'message', 'data'],
    additionalProperties: false,
  };
}

/** The document for the open operations among `definitions` (all of them, as the server runs). */
export function buildOpenApiDocument(catalogue: Catalogue, definitions: readonly OperationDefinition[], version: string, contracts: ContractsFile = loadContracts()): OpenApiDocument {
  const implemented = new Map(definitions.map((definition) => [definition.name, definition]));
  const paths: OpenApiDocument['paths'] = {};
  const schemas: Record<string, JsonSchema> = { ErrorEnvelope: ERROR_ENVELOPE };
  for (const open of OPEN_OPERATIONS) {
    const entry = catalogue[open.name];
    const definition = implemented.get(open.name);
    if (!entry || !definition) continue;
    const schemaName = open.name.replace(/\./g, '_');
    const contract = contracts.operations[open.name];
    schemas[`${schemaName}_data`] = contract?.data ? withComponents(contract.data, schemas) : open.response;
    paths[openPathOf(entry)] = {
      post: {
        operationId: open.name,
        tags: [open.tag],
        summary: entry.title,
        description: `${open.description}\n\n控制台中的同名操作：\`${open.name}\`（POST /api${entry.path}）。`,
        security: [{ accessKey: [], timestamp: [], nonce: [], signature: [] }],
        requestBody: {
          required: true,
          content: { 'application/json': { schema: to2020(bodySchemaOf(entry, contract?.param ?? definition.paramSchema)) } },
        },
        responses: {
          '200': {
            description: '信封：code 为 "200" 时 data 为结果，否则见错误码',
            content: { 'application/json': { schema: { oneOf: [successEnvelope(ref(`${schemaName}_data`)), ref('ErrorEnvelope')] } } },
          },
        },
      },
    };
  }
  const header = (name: string, description: string): JsonSchema => ({ type: 'apiKey', in: 'header', name, description });
  return {
    openapi: '3.1.0',
    info: { title: '物联网设备平台开放接口', version, description: DESCRIPTION },
    tags: OPEN_TAGS.map((tag) => ({ ...tag })),
    paths,
    components: {
      schemas,
      securitySchemes: {
        accessKey: header(OPEN_API_HEADERS.accessKey, '访问密钥 accessKey'),
        timestamp: header(OPEN_API_HEADERS.timestamp, 'Unix 时间（秒）'),
        nonce: header(OPEN_API_HEADERS.nonce, '一次性随机串'),
        signature: header(OPEN_API_HEADERS.signature, 'HMAC-SHA256 签名（小写十六进制）'),
      },
    },
  };
}

/** The console's envelope of a failure: any code of SPEC §8 ("301" ends the session). */
const CONSOLE_ERROR_ENVELOPE: JsonSchema = {
  type: 'object',
  title: '失败应答',
  properties: { code: { type: 'string', not: { const: '200' } }, message: { type: 'string' }, data: { type: 'null' }, requestId: { type: 'string' } },
  required: ['code', 'message'],
};

/** A catalogued operation as the console calls it: its body (or query), its answer. */
function consoleOperation(name: string, entry: CatalogueEntry, contracts: ContractsFile, components: Record<string, JsonSchema>): JsonSchema {
  const contract = contracts.operations[name];
  const param = contract?.param;
  const data = contract?.data ? withComponents(contract.data, components) : {};
  const answer =
    entry.kind === 'blob'
      ? { description: '文件（失败时为 JSON 信封）', content: { 'application/octet-stream': { schema: { type: 'string', contentEncoding: 'binary' } }, 'application/json': { schema: ref('ConsoleErrorEnvelope') } } }
      : { description: '信封：code 为 "200" 时 data 为结果', content: { 'application/json': { schema: { oneOf: [successEnvelope(data), ref('ConsoleErrorEnvelope')] } } } };
  const operation: Record<string, unknown> = {
    operationId: name,
    tags: [name.split('.')[0]],
    summary: entry.title,
    ...(param ? {} : { description: '参考服务端尚未实现（调用得到 501）。' }),
    security: accessOf(entry) === 'public' ? [] : [{ token: [], orgCode: [] }],
    responses: { '200': answer },
  };
  if (entry.kind === 'get') {
    const properties = (param?.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((param?.required as string[] | undefined) ?? []);
    operation.parameters = Object.entries(properties).map(([field, schema]) => ({ name: field, in: 'query', required: required.has(field), schema: to2020(schema) }));
  } else if (entry.kind === 'upload') {
    operation.requestBody = { required: true, content: { 'multipart/form-data': { schema: { type: 'object', properties: { file: { type: 'string', contentEncoding: 'binary' } }, required: ['file'] } } } };
  } else if (param) {
    operation.requestBody = { required: true, content: { 'application/json': { schema: to2020(bodySchemaOf(entry, param)) } } };
  }
  return operation;
}

/**
 * The console's whole API (every catalogued operation but the dev ones), from the same contracts:
 * what the console's own calls take and answer, signed in with the session's token.
 */
export function buildConsoleApiDocument(catalogue: Catalogue, version: string, contracts: ContractsFile = loadContracts()): OpenApiDocument {
  const paths: OpenApiDocument['paths'] = {};
  const areas = new Set<string>();
  const schemas: Record<string, JsonSchema> = { ConsoleErrorEnvelope: CONSOLE_ERROR_ENVELOPE };
  for (const [name, entry] of Object.entries(catalogue)) {
    if (accessOf(entry) === 'dev') continue;
    areas.add(name.split('.')[0]);
    paths[`/api${entry.path}`] = { [entry.kind === 'get' ? 'get' : 'post']: consoleOperation(name, entry, contracts, schemas) };
  }
  const header = (name: string, description: string): JsonSchema => ({ type: 'apiKey', in: 'header', name, description });
  return {
    openapi: '3.1.0',
    info: {
      title: '物联网设备平台控制台接口',
      version,
      description: '控制台调用的全部接口操作（schemas/operations.json），参数与应答取自操作的契约（schemas/contracts.json，由服务端生成）。请求体为 `{param}`，分页接口另有 `pageParam` 与 `sortParamList`；应答为信封 `{code, message, data}`。',
    },
    tags: [...areas].map((area) => ({ name: area, description: `${area}.* 操作` })),
    paths,
    components: {
      schemas,
      securitySchemes: { token: header('token', '登录令牌（accessToken）'), orgCode: header('orgCode', '所选组织编码') },
    },
  };
}
