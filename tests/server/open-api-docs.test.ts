// The open API's OpenAPI 3.1 document and its interactive reference at /api/docs (issue 23): it
// lists every open operation, generated from the server's own validation schemas, and the answers
// the operations give (each one the open-api tests receive goes through openCall's check) match it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bodySchemaOf } from '../../server/http/routes';
import { OPERATIONS } from '../../server/operations/index';
import { OPEN_API_ERROR_CODES } from '../../server/openApi/document';
import { OPEN_OPERATIONS, OPEN_TAGS, openPathOf } from '../../server/openApi/subset';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import { accessOf } from '../../server/catalogue';
import { loadContracts } from '../../server/contracts';
import { catalogue, startServer, type TestServer } from './harness';
import { checkedAnswers, issueKey, openCall, publishedDocument, responseValidator, type OpenKey } from './open-api-helpers';

let server: TestServer;
let key: OpenKey;
beforeAll(async () => {
  server = await startServer();
  key = await issueKey(server);
});
afterAll(() => server.close());

const PAGE = { pageParam: { pageNumber: 1, pageSize: 50 } };

describe('GET /api/docs/json', () => {
  it('is an OpenAPI 3.1 document listing every open operation at its open path, with Chinese titles grouped by area', async () => {
    const document = await publishedDocument(server);
    expect(document.openapi).toBe('3.1.0');
    expect(document.info.title).toBe('物联网设备平台开放接口');
    expect(document.tags.map((tag) => tag.name)).toEqual(OPEN_TAGS.map((tag) => tag.name));
    const listed = Object.entries(document.paths).map(([path, item]) => [item.post.operationId, path]);
    expect(Object.fromEntries(listed)).toEqual(Object.fromEntries(OPEN_OPERATIONS.map((open) => [open.name, openPathOf(catalogue[open.name])])));
    for (const open of OPEN_OPERATIONS) {
      const operation = document.paths[openPathOf(catalogue[open.name])].post;
      expect(operation.summary).toBe(catalogue[open.name].title);
      expect(operation.summary).toMatch(/[\u4e00-\u9fff]/);
      expect(operation.tags).toEqual([open.tag]);
    }
  });

  it('takes each request body from the schema the route validates with (the operation\'s own param schema)', async () => {
    const document = await publishedDocument(server);
    const definitions = new Map(OPERATIONS.map((definition) => [definition.name, definition]));
    for (const open of OPEN_OPERATIONS) {
      const entry = catalogue[open.name];
      const body = (document.paths[openPathOf(entry)].post.requestBody as { content: Record<string, { schema: unknown }> }).content['application/json'].schema;
      expect(body, open.name).toEqual(JSON.parse(JSON.stringify(bodySchemaOf(entry, definitions.get(open.name)!.paramSchema))));
    }
  });

  it('describes the envelope and every error code once', async () => {
    const document = await publishedDocument(server);
    for (const [code] of OPEN_API_ERROR_CODES) expect(document.info.description).toContain(`| ${code} |`);
    expect(document.info.description).toContain('{code, message, data}');
    const errorEnvelope = document.components.schemas.ErrorEnvelope as { properties: { code: { enum: string[] } } };
    expect(errorEnvelope.properties.code.enum).toEqual(OPEN_API_ERROR_CODES.map(([code]) => code));
    // Every operation's answer refers to it rather than repeating it.
    for (const open of OPEN_OPERATIONS) {
      expect(JSON.stringify(document.paths[openPathOf(catalogue[open.name])].post.responses)).toContain('#/components/schemas/ErrorEnvelope');
    }
  });
});

describe('the answers match the document', () => {
  it('validates a success and a refusal of every open operation', async () => {
    const [device] = await server.db.query<{ code: string }>(
      "SELECT d.code FROM device d WHERE d.tenant_code = 'T0001' AND d.deleted_at IS NULL AND d.online_state = 'online' AND NOT d.sleeping AND EXISTS (SELECT 1 FROM device_telemetry t WHERE t.device_id = d.id) ORDER BY d.id LIMIT 1",
    );
    const [alarm] = await server.db.query<{ code: string }>("SELECT code FROM alarm_record WHERE tenant_code = 'T0001' AND source = 'device' AND state = 'pending' ORDER BY id DESC LIMIT 1");
    const [command] = await server.db.query<{ id: number }>("SELECT c.id FROM device_command c JOIN device d ON d.id = c.device_id WHERE d.tenant_code = 'T0001' ORDER BY c.id LIMIT 1");
    // A device the integrator provisions: created, given a credential, modified, recycled (in this order, as OPEN_OPERATIONS lists them).
    const [template] = await server.db.query<{ product_code: string; organization_code: string }>("SELECT product_code, organization_code FROM device WHERE tenant_code = 'T0001' AND deleted_at IS NULL ORDER BY id LIMIT 1");
    const provisioned = { code: 'OPENDOC00001', name: '开放接口设备', productCode: template.product_code, organizationCode: template.organization_code };
    const good: Record<string, unknown> = {
      'device.page': { ...PAGE, param: { onlineState: 'online' } },
      'device.detail': { param: { code: device.code } },
      'device.data.page': { ...PAGE, param: { code: device.code } },
      'deviceAccess.command.generate': { param: { code: device.code, commandType: 'reboot' } },
      'deviceAccess.command.detail': { param: { id: command.id } },
      'device.insert': { param: { device: provisioned } },
      'device.credential.reset': { param: { code: provisioned.code } },
      'device.modify': { param: { code: provisioned.code, device: { ...provisioned, name: '开放接口设备（改名）' } } },
      'device.delete': { param: { code: provisioned.code } },
      'alarm.record.page': { pageParam: { pageNumber: 1, pageSize: 200 } },
      'alarm.record.handle': { param: { code: alarm.code, state: 'ignored', remark: '误报' } },
      'repair.order.page': { pageParam: { pageNumber: 1, pageSize: 200 } },
      'card.sim.page': { pageParam: { pageNumber: 1, pageSize: 200 } },
    };
    for (const open of OPEN_OPERATIONS) {
      const answer = await openCall(server, key, open.name, good[open.name]);
      expect(answer.body.code, open.name).toBe('200');
      // A refusal: a bad signature.
      expect((await openCall(server, key, open.name, good[open.name], { signature: '0'.repeat(64) })).body.code, open.name).toBe('401');
    }
    // And the shapes the document forbids are caught: a record with a field it does not list.
    const validate = await responseValidator(server, 'card.sim.page');
    expect(validate({ code: '200', message: '成功', data: { records: [{ iccid: '1', extra: true }], total: 1, pageNumber: 1, pageSize: 10 } })).toBe(false);
    expect(validate({ code: '401', message: '签名错误', data: null })).toBe(true);
    expect(validate({ code: '200', message: '成功', data: null })).toBe(false);
    for (const open of OPEN_OPERATIONS) expect(checkedAnswers.get(open.name)?.success ?? 0, open.name).toBeGreaterThan(0);
  });
});

describe('GET /api/docs', () => {
  it('serves Swagger UI from the package\'s own assets, titled in Chinese, under a policy that loads nothing from elsewhere', async () => {
    const page = await server.app.inject({ method: 'GET', url: '/api/docs' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toMatch(/^text\/html/);
    expect(page.body).toContain('<title>物联网设备平台开放接口</title>');
    const assets = [...page.body.matchAll(/(?:src|href)="([^"]+)"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThan(2);
    for (const asset of assets) expect(asset, asset).toMatch(/^(\.\/|\/api\/docs\/)/);
    const policy = String(page.headers['content-security-policy']);
    expect(policy).toContain("default-src 'self'");
    expect(policy).not.toMatch(/https?:|validator\.swagger\.io|upgrade-insecure-requests/);
    expect(policy).toMatch(/script-src 'self'( 'sha256-[^']+')*;/);
    const bundle = await server.app.inject({ method: 'GET', url: '/api/docs/static/swagger-ui-bundle.js' });
    expect(bundle.statusCode).toBe(200);
    expect(bundle.body.length).toBeGreaterThan(100_000);
    const initializer = await server.app.inject({ method: 'GET', url: '/api/docs/static/swagger-initializer.js' });
    expect(initializer.statusCode).toBe(200);
    expect(initializer.body).toContain("resolveUrl('./json')");
  });
});

describe('GET /api/docs/console.json', () => {
  it('is the console\'s whole API from the same contracts: every catalogued operation but the dev ones, its param and its answer', async () => {
    const response = await server.app.inject({ method: 'GET', url: '/api/docs/console.json' });
    expect(response.statusCode).toBe(200);
    const document = response.json<{ openapi: string; paths: Record<string, Record<string, { operationId: string; summary: string; requestBody?: unknown; responses: unknown }>>; components: { schemas: Record<string, unknown> } }>();
    expect(document.openapi).toBe('3.1.0');
    const listed = Object.values(document.paths).flatMap((item) => Object.values(item).map((operation) => operation.operationId));
    expect(listed.sort()).toEqual(Object.keys(catalogue).filter((name) => accessOf(catalogue[name]) !== 'dev').sort());
    const contracts = loadContracts();
    const login = document.paths['/api/auth/web/_login'].post;
    expect(login.summary).toBe(catalogue['auth.login'].title);
    expect(JSON.stringify(login.requestBody)).toContain(JSON.stringify(contracts.operations['auth.login'].param!.properties));
    // A tree answer's type is a component its $refs reach: a real menu validates against the document.
    expect(document.components.schemas.MenuResource).toBeDefined();
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    addFormats.default(ajv);
    ajv.addSchema({ ...document, $id: 'https://console.test/openapi.json' });
    const validate = ajv.compile({ $ref: 'https://console.test/openapi.json#/paths/~1api~1resource~1menu~1_list/post/responses/200/content/application~1json/schema' });
    const menus = await server.call('resource.menu.list', { clientType: 1 }, { token: await server.login('tadmin') });
    expect(menus.code).toBe('200');
    expect(validate(menus), JSON.stringify(validate.errors)).toBe(true);
    expect(validate({ ...menus, data: [{ resourceCode: 'x' }] })).toBe(false);
  });
});
