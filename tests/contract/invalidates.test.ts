import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checkPage, formatProblem, loadContext } from '../../scripts/check';

const root = new URL('../..', import.meta.url).pathname;
const context = loadContext(root, mkdtempSync(join(tmpdir(), 'pages-')));

// Issue 20: a call action or a form submit may declare what else it makes stale (renderers/data).
describe('npm run check on declared invalidations', () => {
  it('accepts catalogued query operations in a call action and a form submit', () => {
    const list = {
      schemaVersion: 1,
      kind: 'list',
      title: '全部设备',
      operation: 'device.page',
      columns: [{ field: 'deviceCode', title: '设备编码' }],
      rowActions: [{ type: 'call', label: '删除', operation: 'device.delete', param: { id: '{{record.id}}' }, invalidates: ['alarm.record.page', 'organization.tree'] }],
    };
    expect(checkPage('l.json', list, context).map(formatProblem)).toEqual([]);
    const form = {
      schemaVersion: 1,
      kind: 'form',
      title: '设备',
      submit: { operation: 'device.modify', invalidates: ['alarm.record.page'] },
      schema: { type: 'object', properties: {} },
    };
    expect(checkPage('f.json', form, context).map(formatProblem)).toEqual([]);
  });

  it('names each listed operation that is not catalogued, or is no query (a file, an upload)', () => {
    const list = {
      schemaVersion: 1,
      kind: 'list',
      title: '全部设备',
      operation: 'device.page',
      columns: [{ field: 'deviceCode', title: '设备编码' }],
      toolbar: [{ type: 'call', label: '同步', operation: 'device.delete', invalidates: ['device.page', 'device.nosuch', 'device.export'] }],
    };
    expect(checkPage('l.json', list, context).map(formatProblem)).toEqual([
      'l.json /toolbar/0/invalidates/1 接口操作 device.nosuch 未在 schemas/operations.json 中登记（相近的有：device.insert、device.modify、device.delete、device.detail、device.export）',
      'l.json /toolbar/0/invalidates/2 接口操作 device.export 的类型是 blob，此处需要 call 或 get 或 page',
    ]);
    const form = { schemaVersion: 1, kind: 'form', title: '设备', submit: { operation: 'device.modify', invalidates: ['no.such.list'] }, schema: { type: 'object', properties: {} } };
    expect(checkPage('f.json', form, context).map(formatProblem)).toEqual(['f.json /submit/invalidates/0 接口操作 no.such.list 未在 schemas/operations.json 中登记']);
  });

  it('refuses a list that is not of operation names (the page meta-schema)', () => {
    const list = {
      schemaVersion: 1,
      kind: 'list',
      title: '全部设备',
      operation: 'device.page',
      columns: [{ field: 'deviceCode', title: '设备编码' }],
      toolbar: [{ type: 'call', label: '同步', operation: 'device.delete', invalidates: 'device.page' }],
    };
    expect(checkPage('l.json', list, context).map(formatProblem).join('\n')).toMatch(/l\.json \/toolbar\/0\/invalidates /);
  });
});
