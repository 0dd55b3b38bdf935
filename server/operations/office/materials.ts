import type { EntityExtension } from '../../entities/operations';
import { dictLabel } from '../../core/values';
import { cents } from './scope';
import { optionalEnumOf } from '../../core/params';

/**
 * 物料管理: the spare parts and materials a tenant keeps for repair and maintenance — batteries,
 * modules, seals, meters, tools — with their specification, unit, stock and the level below
 * which the stock warns (补货预警). Codes are the tenant's own and unique within it.
 *
 * Served from its entity definition (schemas/entities/office/material.json, issue 25); what stays
 * here is what a definition does not say: the stock warning worked out from each record, the
 * 低于预警 filter and the spreadsheet's own columns.
 */

/** At or below its warning level (a level of 0 never warns). */
const LOW_STOCK = '(t.warning_level > 0 AND t.stock <= t.warning_level)';

type MaterialRecord = Record<string, unknown> & { stock: number; warningLevel: number; unitPrice: number | null };
const lowStock = (record: MaterialRecord): boolean => record.warningLevel > 0 && record.stock <= record.warningLevel;
const time = (value: unknown): Date | null => (value ? new Date(String(value)) : null);

export const materialExtension: EntityExtension = {
  computed: {
    schema: { lowStock: { type: 'boolean' }, stockValue: { type: ['number', 'null'] } },
    of: (record) => {
      const material = record as MaterialRecord;
      return { lowStock: lowStock(material), stockValue: material.unitPrice === null ? null : cents(material.unitPrice * material.stock) };
    },
  },
  filters: {
    lowStock: {
      schema: optionalEnumOf(['1', '0']),
      where: (value, where) => where.add(value === '1' ? LOW_STOCK : `NOT ${LOW_STOCK}`),
    },
  },
  exportColumns: [
    { title: '物料编码', value: (r) => String(r.code), width: 20 },
    { title: '物料名称', value: (r) => String(r.name), width: 24 },
    { title: '物料类型', value: (r) => dictLabel('material_type', String(r.type)) },
    { title: '规格型号', value: (r) => String(r.specification), width: 28 },
    { title: '单位', value: (r) => String(r.unit), width: 8 },
    { title: '库存', value: (r) => Number(r.stock), width: 12 },
    { title: '预警库存', value: (r) => Number(r.warningLevel), width: 12 },
    { title: '库存状态', value: (r) => (lowStock(r as MaterialRecord) ? '低于预警' : '正常'), width: 12 },
    { title: '单价（元）', value: (r) => (r.unitPrice === null ? null : Number(r.unitPrice)), width: 12 },
    { title: '供应商', value: (r) => String(r.supplier), width: 24 },
    { title: '存放位置', value: (r) => String(r.location), width: 20 },
    { title: '所属租户', value: (r) => String(r.tenantName), width: 24 },
    { title: '更新时间', value: (r) => time(r.updateTime) },
  ],
};
