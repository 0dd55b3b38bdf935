import type { FastifyInstance, FastifyRequest } from 'fastify';
import { accessOf, type Catalogue, type CatalogueEntry } from '../catalogue';
import type { Caller, OperationContext, PageRequest, ServerServices } from '../core/context';
import type { OperationDefinition } from '../core/operation';
import type { ParamSchema } from '../core/params';
import { authenticate, holdsButton, selectOrganization } from '../security/caller';
import { FileAnswer } from './spreadsheet';
import { nulFailureOf } from './errors';
import { readUpload } from './uploads';
import { fail, success, type Envelope } from './envelope';

export const API_PREFIX = '/api';

/** Who made a call, for its log line (server/http/operability.ts). */
export interface RequestCaller {
  userId: number;
  /** The selected organisation (header orgCode, or the caller's first). */
  organizationCode: string | null;
  /** The tenant of that organisation, or the platform's code above the tenants (Caller.tenantOfOrganization). */
  tenantCode: string | null;
}

/** Who made a call, for its log line (server/http/operability.ts): set once the caller is known. */
export const callersOfRequests = new WeakMap<FastifyRequest, RequestCaller>();
export const MAX_PAGE_SIZE = 1000;

const pageParamSchema = {
  type: 'object',
  properties: {
    pageNumber: { type: 'integer', minimum: 1, maximum: 1_000_000 },
    pageSize: { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE },
  },
  required: ['pageNumber', 'pageSize'],
  additionalProperties: false,
  default: { pageNumber: 1, pageSize: 10 },
};

const sortParamListSchema = {
  type: 'array',
  maxItems: 5,
  items: {
    type: 'object',
    properties: { field: { type: 'string', maxLength: 64, pattern: '^[A-Za-z][A-Za-z0-9_.]*$' }, order: { enum: ['asc', 'desc'] } },
    required: ['field', 'order'],
    additionalProperties: false,
  },
  default: [],
};

/** Body schemas by param schema and kind: the same objects for every app this process builds. */
const bodySchemas = new WeakMap<ParamSchema, Map<CatalogueEntry['kind'], ParamSchema>>();

/**
 * The request body schema of an operation: its `param`, plus paging for kind `page`. One object
 * per param schema and kind, so that Ajv (which caches compiled validators by schema object)
 * compiles it once per process however many apps are built (tests build one per file).
 */
export function bodySchemaOf(entry: CatalogueEntry, paramSchema: ParamSchema): ParamSchema {
  let byKind = bodySchemas.get(paramSchema);
  if (!byKind) bodySchemas.set(paramSchema, (byKind = new Map()));
  const known = byKind.get(entry.kind);
  if (known) return known;
  const schema = buildBodySchema(entry, paramSchema);
  byKind.set(entry.kind, schema);
  return schema;
}

function buildBodySchema(entry: CatalogueEntry, paramSchema: ParamSchema): ParamSchema {
  // An object param may be left out (it defaults to {}); a bare string param is required.
  const isObject = paramSchema.type === 'object';
  const properties: Record<string, unknown> = { param: isObject ? { ...paramSchema, default: {} } : paramSchema };
  if (entry.kind === 'page') Object.assign(properties, { pageParam: pageParamSchema, sortParamList: sortParamListSchema });
  return { type: 'object', properties, required: isObject ? [] : ['param'], additionalProperties: false };
}

interface Body {
  param?: unknown;
  pageParam?: { pageNumber: number; pageSize: number };
  sortParamList?: PageRequest['sortParamList'];
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return typeof value === 'string' && value !== '' ? value : undefined;
}

interface Admission {
  now: Date;
  caller: Caller | null;
  organizationCode: string | null;
}

/**
 * Who may call: "301" without a live token (unless public or dev), "403" for an orgCode outside
 * the caller's organisations or a missing button grant.
 */
async function admit(services: ServerServices, name: string, entry: CatalogueEntry, request: FastifyRequest, now: Date): Promise<Omit<Admission, 'now'>> {
  const caller = await authenticate(services.db, header(request, 'token'), now);
  const access = accessOf(entry);
  if (access === 'token' && !caller) throw fail.session();
  const organizationCode = caller && access === 'token' ? selectOrganization(caller, header(request, 'orgcode')) : null;
  if (entry.button && caller && !(await holdsButton(services.db, caller, name))) throw fail.forbidden();
  return { caller, organizationCode };
}

/** The value with every NUL character shown as U+FFFD (what an attempt is recorded with). */
function withoutNul(value: unknown): unknown {
  return JSON.parse(JSON.stringify(value ?? null), (_key, item: unknown) => (typeof item === 'string' ? item.replaceAll('\u0000', '\ufffd') : item)) as unknown;
}

/** An export (a `blob` operation) is timed for the operator's metrics, whether it answers or fails. */
async function timedExport<T>(services: ServerServices, operation: string, work: () => Promise<T>): Promise<T> {
  const started = performance.now();
  try {
    const answer = await work();
    services.events.exported(operation, (performance.now() - started) / 1000, 'done');
    return answer;
  } catch (error) {
    services.events.exported(operation, (performance.now() - started) / 1000, 'failed');
    throw error;
  }
}

/**
 * "400" 参数错误：<field>（不能包含空字符） for a body or query with a NUL character anywhere (issue 18,
 * finding 8): one check for every operation, so none reaches SQL. The operation may record the
 * attempt first (onRefusedInput).
 */
async function refuseNul(services: ServerServices, definition: OperationDefinition, request: FastifyRequest, body: unknown, caller: Caller | null, now: Date): Promise<void> {
  const refusal = nulFailureOf(body);
  if (!refusal) return;
  if (definition.onRefusedInput) {
    const param = typeof body === 'object' && body !== null && 'param' in body ? withoutNul(body.param) : null;
    await definition.onRefusedInput({ ...services, param, caller, client: { ip: request.ip, userAgent: header(request, 'user-agent') ?? '' }, now, reason: refusal.message });
  }
  throw refusal;
}

/**
 * Routes every catalogued operation under /api: the implemented ones to their handlers (param
 * validated by its schema), the others to "501" 该接口尚未实现. Dev operations only in dev mode.
 */
export function registerOperations(
  app: FastifyInstance,
  catalogue: Catalogue,
  definitions: readonly OperationDefinition[],
  services: ServerServices,
): void {
  const implemented = new Map(definitions.map((definition) => [definition.name, definition]));
  for (const name of implemented.keys()) {
    if (!catalogue[name]) throw new Error(`operation ${name} has a handler but is not in schemas/operations.json`);
  }
  for (const [name, entry] of Object.entries(catalogue)) {
    if (accessOf(entry) === 'dev' && !services.config.dev) continue;
    const definition = implemented.get(name);
    const method = entry.kind === 'get' ? 'GET' : 'POST';
    const url = `${API_PREFIX}${entry.path}`;
    if (!definition) {
      app.route({
        method,
        url,
        config: { operation: name },
        handler: async (request): Promise<Envelope> => {
          await admit(services, name, entry, request, services.config.now());
          throw fail.notImplemented();
        },
      });
      continue;
    }
    // An upload's body is multipart (field `file`), read by the handler rather than validated here.
    const schema =
      entry.kind === 'get' ? { querystring: definition.paramSchema } : entry.kind === 'upload' ? {} : { body: bodySchemaOf(entry, definition.paramSchema) };
    // Who may call is settled before the input is validated: "301"/"403" come before "400".
    const admissions = new WeakMap<FastifyRequest, Admission>();
    app.route({
      method,
      url,
      schema,
      config: { operation: name },
      preValidation: async (request) => {
        const now = services.config.now();
        const admission = await admit(services, name, entry, request, now);
        admissions.set(request, { now, ...admission });
        // No text may hold a NUL (PostgreSQL refuses it): "400" naming the field, before the schema.
        await refuseNul(services, definition, request, entry.kind === 'get' ? { param: request.query } : request.body, admission.caller, now);
        if (admission.caller) {
          const { userId, tenantOfOrganization } = admission.caller;
          const organizationCode = admission.organizationCode;
          callersOfRequests.set(request, { userId, organizationCode, tenantCode: organizationCode ? (tenantOfOrganization.get(organizationCode) ?? null) : null });
        }
      },
      handler: async (request, reply): Promise<Envelope | Buffer> => {
        const admission = admissions.get(request);
        if (!admission) throw fail.session();
        const { now, caller, organizationCode } = admission;
        const body = (entry.kind === 'get' ? { param: request.query } : entry.kind === 'upload' ? { param: {} } : request.body) as Body;
        const context: OperationContext<unknown> = {
          ...services,
          param: body.param,
          page: body.pageParam ? { ...body.pageParam, sortParamList: body.sortParamList ?? [] } : null,
          caller,
          organizationCode,
          client: { ip: request.ip, userAgent: header(request, 'user-agent') ?? '' },
          now,
          file: entry.kind === 'upload' ? await readUpload(request, definition.fileLimitBytes) : null,
        };
        const answer = entry.kind === 'blob' ? await timedExport(services, name, () => definition.handler(context)) : await definition.handler(context);
        // A blob operation answers the file itself, named for the browser (RFC 6266).
        if (answer instanceof FileAnswer) {
          const ascii = answer.fileName.replace(/[^\x20-\x7e]/g, '_').replace(/"/g, '');
          void reply
            .header('content-type', answer.contentType)
            .header('content-disposition', `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(answer.fileName)}`)
            .header('x-content-type-options', 'nosniff');
          return answer.body;
        }
        return success(answer);
      },
    });
  }
}
