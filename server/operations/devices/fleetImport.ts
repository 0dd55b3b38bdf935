import ExcelJS from 'exceljs';
import type { Queryable, SqlParam } from '../../db/database';
import { insertRows, type Row } from '../../db/bulk';
import { STORED_FILE_PATH, STORED_FILE_TYPES } from '../../domain/files';
import { ORGANIZATION_TYPE, tenantOf } from '../../domain/organizations';
import { fail } from '../../http/envelope';
import { FileAnswer, XLSX_TYPE } from '../../http/spreadsheet';
import { callerOf, type OperationContext } from '../../core/context';
import { defineOperation, type OperationDefinition } from '../../core/operation';
import { objectOf, timeRange, timeRangeOf, DEVICE_CODE_PATTERN } from '../../core/params';
import { Conditions, pageOf, type Listing } from '../../core/listQuery';
import { conflictOnClash } from '../../core/conflicts';
import { deviceScope, type DeviceScope } from '../../core/deviceScope';

/**
 * 批量导入: devices from a spreadsheet in the import template's columns. The file is uploaded first
 * (system.file.upload: only real .xlsx content is kept as xlsx), then device.batchInsert reads it,
 * checks every row, inserts the good ones in one transaction and records the import with the
 * reason each refused row was refused.
 */

/** The template's columns, in order; the starred ones are required. */
const COLUMNS = [
  { key: 'code', title: '设备编码*', width: 16 },
  { key: 'name', title: '设备名称*', width: 20 },
  { key: 'productCode', title: '产品编码*', width: 14 },
  { key: 'organizationCode', title: '组织编码*', width: 16 },
  { key: 'imei', title: 'IMEI', width: 18 },
  { key: 'longitude', title: '经度', width: 12 },
  { key: 'latitude', title: '纬度', width: 12 },
  { key: 'address', title: '安装地址', width: 36 },
  { key: 'remark', title: '备注', width: 24 },
] as const;

type ColumnKey = (typeof COLUMNS)[number]['key'];

/** The most devices one import takes. */
export const IMPORT_ROW_LIMIT = 5000;
const TEMPLATE_SHEET = '设备导入';
const CODE = new RegExp(DEVICE_CODE_PATTERN);
const IMEI = /^\d{15}$/;
const MARKUP = /[<>]/;

export const IMPORT_MESSAGES = {
  notXlsx: '请上传 .xlsx 格式的导入文件',
  unreadable: '导入文件无法读取，请使用导入模板',
  header: '导入文件的表头与模板不一致，请下载最新的导入模板',
  empty: '导入文件中没有设备数据',
  tooMany: `单次最多导入${IMPORT_ROW_LIMIT}台设备`,
  badCode: '请输入正确的设备编码格式',
} as const;

// ---------------------------------------------------------------- reading the file

function cellText(value: ExcelJS.CellValue): string {
  if (value === null || value === undefined) return '';
  if (value instanceof Date) return value.toISOString();
  if (typeof value === 'object') {
    if ('richText' in value) return value.richText.map((part) => part.text).join('');
    if ('text' in value) return String(value.text);
    if ('result' in value) return value.result === undefined ? '' : cellText(value.result as ExcelJS.CellValue);
    if ('error' in value) return '';
  }
  return String(value).trim();
}

type SheetRow = { row: number; values: Record<ColumnKey, string> };

async function readSheet(content: Buffer): Promise<SheetRow[]> {
  const workbook = new ExcelJS.Workbook();
  try {
    await workbook.xlsx.load(content as unknown as ExcelJS.Buffer);
  } catch {
    throw fail.badRequest(IMPORT_MESSAGES.unreadable);
  }
  const sheet = workbook.getWorksheet(TEMPLATE_SHEET) ?? workbook.worksheets[0];
  if (!sheet) throw fail.badRequest(IMPORT_MESSAGES.unreadable);
  // Columns are found by their header (with or without the star), wherever they stand.
  const header = new Map<string, number>();
  sheet.getRow(1).eachCell((cell, column) => header.set(cellText(cell.value).replace(/\*$/, ''), column));
  const positions = COLUMNS.map((column) => ({ key: column.key, at: header.get(column.title.replace(/\*$/, '')) }));
  if (positions.some((position) => position.at === undefined)) throw fail.badRequest(IMPORT_MESSAGES.header);
  const rows: SheetRow[] = [];
  sheet.eachRow({ includeEmpty: false }, (row, number) => {
    if (number === 1) return;
    const values = Object.fromEntries(positions.map(({ key, at }) => [key, cellText(row.getCell(at!).value)])) as Record<ColumnKey, string>;
    if (Object.values(values).every((value) => value === '')) return;
    rows.push({ row: number, values });
  });
  if (rows.length === 0) throw fail.badRequest(IMPORT_MESSAGES.empty);
  if (rows.length > IMPORT_ROW_LIMIT) throw fail.badRequest(IMPORT_MESSAGES.tooMany);
  return rows;
}

// ---------------------------------------------------------------- checking the rows

interface Site {
  type: number;
  tenantCode: string | null;
}

interface Lookup {
  sites: Map<string, Site>;
  products: Map<string, string | null>;
  takenCodes: Set<string>;
}

async function lookup(db: Queryable, scope: DeviceScope, rows: readonly SheetRow[]): Promise<Lookup> {
  const orgCodes = [...new Set(rows.map((r) => r.values.organizationCode).filter((code) => scope.organizationCodes.includes(code)))];
  const orgs = await db.query<{ code: string; type: number }>('SELECT code, type FROM organization WHERE code = ANY($1::text[])', [orgCodes]);
  const sites = new Map<string, Site>();
  for (const org of orgs) sites.set(org.code, { type: org.type, tenantCode: await tenantOf(db, org.code) });
  const products = await db.query<{ code: string; tenant_code: string | null }>('SELECT code, tenant_code FROM product WHERE code = ANY($1::text[])', [
    [...new Set(rows.map((r) => r.values.productCode))],
  ]);
  const codes = rows.map((r) => r.values.code.toUpperCase()).filter((code) => CODE.test(code));
  const taken = await db.query<{ code: string }>('SELECT upper(code) AS code FROM device WHERE upper(code) = ANY($1::text[])', [codes]);
  return { sites, products: new Map(products.map((p) => [p.code, p.tenant_code])), takenCodes: new Set(taken.map((t) => t.code)) };
}

function textProblem(value: string, label: string, max: number): string | null {
  if ([...value].length > max) return `${label}不能超过${max}个字符`;
  if (MARKUP.test(value)) return `${label}不能包含 < 或 >`;
  return null;
}

function coordinateProblem(value: string, label: string, limit: number): string | null {
  if (value === '') return null;
  const number = Number(value);
  return Number.isFinite(number) && Math.abs(number) <= limit ? null : `${label}须为-${limit}至${limit}之间的数字`;
}

/** The first problem of a row, or the device row to insert. */
function checkRow(values: Record<ColumnKey, string>, known: Lookup, seen: Map<string, number>): { problem: string } | { device: Omit<Row, 'created_at'> } {
  const code = values.code.toUpperCase();
  if (!code) return { problem: '请输入设备编码' };
  if (!CODE.test(code)) return { problem: IMPORT_MESSAGES.badCode };
  if (seen.has(code)) return { problem: `设备编码与第${seen.get(code)}行重复` };
  if (known.takenCodes.has(code)) return { problem: '设备编码已存在' };
  if (!values.name) return { problem: '请输入设备名称' };
  const nameProblem = textProblem(values.name, '设备名称', 64);
  if (nameProblem) return { problem: nameProblem };
  if (!values.productCode) return { problem: '请输入产品编码' };
  if (!values.organizationCode) return { problem: '请输入组织编码' };
  const site = known.sites.get(values.organizationCode);
  if (!site) return { problem: '组织不存在或无权访问' };
  if ((site.type !== ORGANIZATION_TYPE.project && site.type !== ORGANIZATION_TYPE.area) || !site.tenantCode) return { problem: '设备只能安装在项目或区域下' };
  const productTenant = known.products.get(values.productCode);
  if (productTenant === undefined || (productTenant !== null && productTenant !== site.tenantCode)) return { problem: '产品不存在' };
  if (values.imei && !IMEI.test(values.imei)) return { problem: 'IMEI须为15位数字' };
  const problem =
    coordinateProblem(values.longitude, '经度', 180) ??
    coordinateProblem(values.latitude, '纬度', 90) ??
    textProblem(values.address, '安装地址', 128) ??
    textProblem(values.remark, '备注', 256);
  if (problem) return { problem };
  return {
    device: {
      code,
      name: values.name,
      product_code: values.productCode,
      organization_code: values.organizationCode,
      tenant_code: site.tenantCode,
      imei: values.imei,
      online_state: 'inactive',
      longitude: values.longitude === '' ? null : Number(values.longitude),
      latitude: values.latitude === '' ? null : Number(values.latitude),
      address: values.address,
      remark: values.remark,
    },
  };
}

// ---------------------------------------------------------------- operations

/** The organisation an import is filed under: the one selected when importing. */
function filingOrganization(context: OperationContext<unknown>): string {
  const caller = callerOf(context);
  const code = context.organizationCode ?? caller.organizationCodes[0];
  if (!code) throw fail.forbidden();
  return code;
}

async function uploadedSpreadsheet(context: OperationContext<{ fileUrl: string }>): Promise<{ content: Buffer; name: string }> {
  const path = context.param.fileUrl;
  const [file] = STORED_FILE_PATH.test(path)
    ? await context.db.query<{ content_type: string; original_name: string }>('SELECT content_type, original_name FROM uploaded_file WHERE path = $1 AND user_id = $2', [
        path,
        callerOf(context).userId,
      ])
    : [];
  if (!file) throw fail.badRequest('请先上传导入文件');
  if (file.content_type !== STORED_FILE_TYPES.xlsx) throw fail.badRequest(IMPORT_MESSAGES.notXlsx);
  const content = await context.files.read(path);
  if (!content) throw fail.badRequest('请先上传导入文件');
  return { content, name: file.original_name };
}

const batchInsert = defineOperation('device.batchInsert', {
  paramSchema: objectOf({ fileUrl: { type: 'string', minLength: 1, maxLength: 128 } }, ['fileUrl']),
  handler: async (context) => {
    const organizationCode = filingOrganization(context);
    const file = await uploadedSpreadsheet(context);
    const rows = await readSheet(file.content);
    const scope = await deviceScope(context);
    const known = await lookup(context.db, scope, rows);
    const seen = new Map<string, number>();
    const devices: Row[] = [];
    const errors: Array<{ row: number; message: string }> = [];
    for (const { row, values } of rows) {
      const checked = checkRow(values, known, seen);
      if ('problem' in checked) errors.push({ row, message: checked.problem });
      else {
        seen.set(String(checked.device.code), row);
        devices.push({ ...checked.device, created_at: context.now.toISOString() });
      }
    }
    return context.db.transaction(async (tx) => {
      await conflictOnClash(() => insertRows(tx, 'device', devices), { unique: '设备编码已存在，请重新导入' });
      const [record] = await tx.query<{ id: number }>(
        `INSERT INTO device_import (organization_code, file_name, file_path, total, inserted, failed, created_by, created_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
        [organizationCode, file.name, context.param.fileUrl, rows.length, devices.length, errors.length, callerOf(context).loginName, context.now],
      );
      if (errors.length) {
        await insertRows(
          tx,
          'device_import_error',
          errors.map((error) => ({ import_id: record.id, row_number: error.row, message: error.message })),
        );
      }
      return { id: record.id, total: rows.length, inserted: devices.length, failed: errors.length, errors };
    });
  },
});

/** A device code of the tenant's own series that no device uses yet, for the template's example row. */
async function exampleCode(db: Queryable, tenantCode: string | null): Promise<string> {
  const stem = `WMNB${(tenantCode ?? 'T0000').slice(-2)}`;
  const taken = new Set(
    (await db.query<{ code: string }>("SELECT code FROM device WHERE code LIKE $1 || '9%'", [stem])).map((row) => row.code),
  );
  for (let serial = 900_001; ; serial += 1) {
    const code = `${stem}${serial}`;
    if (!taken.has(code)) return code;
  }
}

const importTemplate = defineOperation('device.importTemplate', {
  handler: async (context) => {
    const scope = await deviceScope(context);
    const sites = await context.db.query<{ code: string; name: string; type: number }>(
      'SELECT code, name, type FROM organization WHERE code = ANY($1::text[]) AND type = ANY($2::int[]) ORDER BY sort, id',
      [scope.organizationCodes, [ORGANIZATION_TYPE.project, ORGANIZATION_TYPE.area]],
    );
    const tenantCode = sites[0] ? await tenantOf(context.db, sites[0].code) : null;
    const productParams: SqlParam[] = tenantCode ? [tenantCode] : [];
    const products = await context.db.query<{ code: string; name: string; model: string }>(
      `SELECT code, name, model FROM product WHERE ${tenantCode ? '(tenant_code IS NULL OR tenant_code = $1)' : 'TRUE'} ORDER BY tenant_code NULLS FIRST, code`,
      productParams,
    );
    const workbook = new ExcelJS.Workbook();
    workbook.created = context.now;
    const sheet = workbook.addWorksheet(TEMPLATE_SHEET);
    sheet.columns = COLUMNS.map((column) => ({ header: column.title, key: column.key, width: column.width }));
    sheet.getRow(1).font = { bold: true };
    const product = products.find((p) => p.code === 'PRD-WM-NB') ?? products[0];
    // The example stands where the site's devices stand.
    const [neighbour] = sites[0]
      ? await context.db.query<{ longitude: number; latitude: number; address: string }>(
          "SELECT longitude, latitude, address FROM device WHERE organization_code = $1 AND longitude IS NOT NULL AND address <> '' ORDER BY id LIMIT 1",
          [sites[0].code],
        )
      : [];
    sheet.addRow({
      code: await exampleCode(context.db, tenantCode),
      name: '智能水表-示例',
      productCode: product?.code ?? '',
      organizationCode: sites[0]?.code ?? '',
      imei: '868120300000017',
      longitude: neighbour?.longitude ?? null,
      latitude: neighbour?.latitude ?? null,
      address: neighbour?.address ?? '',
      remark: '示例行，可直接导入或删除',
    });
    const productSheet = workbook.addWorksheet('产品编码');
    productSheet.columns = [
      { header: '产品编码', width: 14 },
      { header: '产品名称', width: 24 },
      { header: '型号', width: 12 },
    ];
    productSheet.getRow(1).font = { bold: true };
    for (const p of products) productSheet.addRow([p.code, p.name, p.model]);
    const siteSheet = workbook.addWorksheet('组织编码');
    siteSheet.columns = [
      { header: '组织编码', width: 16 },
      { header: '组织名称', width: 24 },
      { header: '类型', width: 8 },
    ];
    siteSheet.getRow(1).font = { bold: true };
    for (const site of sites) siteSheet.addRow([site.code, site.name, site.type === ORGANIZATION_TYPE.project ? '项目' : '区域']);
    return new FileAnswer('设备导入模板.xlsx', XLSX_TYPE, Buffer.from(await workbook.xlsx.writeBuffer()));
  },
});

const RESULT_SQL = "CASE WHEN i.failed = 0 THEN 'success' WHEN i.inserted = 0 THEN 'failed' ELSE 'partial' END";
/** How many refused rows the list spells out (the rest are counted). */
const LISTED_ERRORS = 20;

interface ImportRow {
  id: number;
  file_name: string;
  total: number;
  inserted: number;
  failed: number;
  result: string;
  created_by: string;
  created_at: Date;
  organization_name: string;
  errors: Array<{ row: number; message: string }> | null;
}

function importRecord(row: ImportRow) {
  const listed = (row.errors ?? []).map((error) => `第${error.row}行：${error.message}`).join('；');
  return {
    id: row.id,
    fileName: row.file_name,
    organizationName: row.organization_name,
    total: row.total,
    inserted: row.inserted,
    failed: row.failed,
    result: row.result,
    errors: row.errors ?? [],
    errorSummary: row.failed > LISTED_ERRORS ? `${listed}；等共${row.failed}行` : listed,
    createdBy: row.created_by,
    createTime: row.created_at.toISOString(),
  };
}

/**
 * The imports (device_import has no tenant column: scoped by organisation): counted and chosen
 * over the imports alone, the organisation's name and the first refused rows read for the page's rows.
 */
const importListing: Listing<ImportRow, ReturnType<typeof importRecord>> = {
  from: 'device_import i JOIN organization o ON o.code = i.organization_code',
  narrowFrom: 'device_import i',
  key: 'i.id',
  columns: `i.id, i.file_name, i.total, i.inserted, i.failed, ${RESULT_SQL} AS result, i.created_by, i.created_at, o.name AS organization_name,
    (SELECT json_agg(json_build_object('row', e.row_number, 'message', e.message) ORDER BY e.row_number)
       FROM (SELECT row_number, message FROM device_import_error WHERE import_id = i.id ORDER BY row_number LIMIT ${LISTED_ERRORS}) e) AS errors`,
  sorts: { createTime: 'i.created_at', total: 'i.total', failed: 'i.failed' },
  fallback: 'i.created_at DESC, i.id DESC',
  record: importRecord,
};

const importPage = defineOperation('device.import.page', {
  paramSchema: objectOf({ result: { type: 'string', enum: ['success', 'partial', 'failed'] }, timeRange }),
  handler: async (context) => {
    const where = new Conditions().scope(await deviceScope(context), 'i');
    if (context.param.result) where.add(`${RESULT_SQL} = $?`, context.param.result);
    if (context.param.timeRange) {
      const [start, end] = timeRangeOf(context.param.timeRange, context.config.timeZone);
      where.add('i.created_at >= $?', start).add('i.created_at <= $?', end);
    }
    return pageOf(context, importListing, where);
  },
});

export const fleetImportOperations: OperationDefinition[] = [batchInsert, importTemplate, importPage];
