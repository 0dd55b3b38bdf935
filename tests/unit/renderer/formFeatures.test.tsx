import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import PageRenderer from '../../../renderers/PageRenderer';
import { fakeData, fakeServices, renderWith } from './harness';

function recordingData() {
  const data = fakeData([{ id: 1, name: '泵站' }]);
  data.call = vi.fn(async (operation: string, param?: unknown) => {
    data.calls.push({ kind: 'call', operation, param });
    return null as never;
  });
  return data;
}

describe('form features', () => {
  it('field linkage declared in the schema (x-reactions) shows a field only when another asks for it', async () => {
    const page = {
      schemaVersion: 1,
      kind: 'form',
      title: '告警规则',
      submit: { operation: 'alarm.config.insert' },
      schema: {
        type: 'object',
        properties: {
          notify: { type: 'boolean', title: '短信通知', 'x-decorator': 'FormItem', 'x-component': 'Switch' },
          phone: {
            type: 'string',
            title: '通知手机号',
            'x-decorator': 'FormItem',
            'x-component': 'Input',
            'x-validator': 'phone',
            'x-reactions': { dependencies: ['notify'], fulfill: { state: { visible: '{{!!$deps[0]}}' } } },
          },
        },
      },
    };
    const data = recordingData();
    renderWith(<PageRenderer view="fixture/linkage" schema={page} />, fakeServices({ data }));
    await screen.findByRole('switch', { name: '短信通知' });
    expect(screen.queryByRole('textbox', { name: '通知手机号' })).toBeNull();
    await userEvent.click(screen.getByRole('switch', { name: '短信通知' }));
    const phone = await screen.findByRole('textbox', { name: '通知手机号' });
    await userEvent.type(phone, '123');
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    expect(await screen.findByText('请输入正确的手机号码')).toBeInTheDocument();
  });

  it('array fields add and remove rows, and submit them without internal keys', async () => {
    const page = {
      schemaVersion: 1,
      kind: 'form',
      title: '物料清单',
      submit: { operation: 'material.insert' },
      schema: {
        type: 'object',
        properties: {
          items: {
            type: 'array',
            title: '物料',
            'x-decorator': 'FormItem',
            'x-component': 'ArrayList',
            'x-component-props': { addLabel: '添加物料', sortable: true },
            items: { type: 'object', properties: { name: { type: 'string', title: '名称', 'x-decorator': 'FormItem', 'x-component': 'Input', required: true } } },
          },
        },
      },
    };
    const data = recordingData();
    renderWith(<PageRenderer view="fixture/array" schema={page} />, fakeServices({ data }));
    await userEvent.click(await screen.findByRole('button', { name: /添加物料/ }));
    await userEvent.click(screen.getByRole('button', { name: /添加物料/ }));
    const names = await screen.findAllByRole('textbox', { name: '名称' });
    expect(names).toHaveLength(2);
    await userEvent.type(names[0], '水泵');
    await userEvent.type(names[1], '阀门');
    await userEvent.click(screen.getByRole('button', { name: '上移第2项' }));
    await userEvent.click(screen.getByRole('button', { name: /添加物料/ }));
    await userEvent.click(screen.getByRole('button', { name: '删除第3项' }));
    await userEvent.click(screen.getByRole('button', { name: /提\s*交/ }));
    await waitFor(() => expect(data.calls.find((c) => c.operation === 'material.insert')?.param).toEqual({ items: [{ name: '阀门' }, { name: '水泵' }] }));
  });

  it('steps move with 上一步 and 下一步', async () => {
    const page = {
      schemaVersion: 1,
      kind: 'form',
      title: '批量录入',
      submit: { operation: 'device.batchInsert' },
      schema: {
        type: 'object',
        properties: {
          steps: {
            type: 'void',
            'x-component': 'FormStep',
            properties: {
              first: { type: 'void', 'x-component': 'FormStep.StepPane', 'x-component-props': { title: '基本信息' }, properties: { batch: { type: 'string', title: '批次', 'x-decorator': 'FormItem', 'x-component': 'Input' } } },
              second: { type: 'void', 'x-component': 'FormStep.StepPane', 'x-component-props': { title: '确认' }, properties: { remark: { type: 'string', title: '备注', 'x-decorator': 'FormItem', 'x-component': 'Input' } } },
            },
          },
        },
      },
    };
    renderWith(<PageRenderer view="fixture/steps" schema={page} />, fakeServices({ data: recordingData() }));
    expect(await screen.findByRole('textbox', { name: '批次' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: /下一步/ }));
    expect(await screen.findByRole('textbox', { name: '备注' })).toBeVisible();
    await userEvent.click(screen.getByRole('button', { name: /上一步/ }));
    expect(await screen.findByRole('textbox', { name: '批次' })).toBeVisible();
  });

  it('closing a drawer form with unsaved input asks first', async () => {
    const list = {
      schemaVersion: 1,
      kind: 'list',
      title: '设备',
      operation: 'device.page',
      columns: [{ field: 'name', title: '名称' }],
      toolbar: [{ type: 'openForm', label: '新增', page: 'system/userForm' }],
    };
    renderWith(<PageRenderer view="fixture/list" schema={list} />, fakeServices({ data: recordingData() }));
    await userEvent.click(await screen.findByRole('button', { name: /新\s*增/ }));
    const drawer = await screen.findByRole('dialog');
    await userEvent.type(await within(drawer).findByRole('textbox', { name: '账号' }), 'draft');
    await userEvent.click(within(drawer).getByRole('button', { name: /取\s*消/ }));
    expect((await screen.findAllByText('表单有未保存的修改，确定离开吗？')).length).toBeGreaterThan(0);
    await userEvent.click(screen.getByRole('button', { name: /留\s*下/ }));
    expect(within(drawer).getByRole('textbox', { name: '账号' })).toHaveValue('draft');
  });
});
