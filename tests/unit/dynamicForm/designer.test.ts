import { describe, expect, it } from 'vitest';
import {
  designProblems,
  fieldProblem,
  insertField,
  kindOfPath,
  moveField,
  newField,
  newOption,
  removeField,
  sameFields,
  toPayload,
  updateField,
  withUids,
} from '../../../src/screens/dynamicForm/designer';

describe('the template designer’s state', () => {
  it('reads the kind from the designer’s url', () => {
    expect(kindOfPath('/dynamic/form/1/config')).toBe(1);
    expect(kindOfPath('/dynamic/form/3/config/')).toBe(3);
    expect(kindOfPath('/dynamic/form/4/config')).toBeNull();
    expect(kindOfPath('/exploration')).toBeNull();
  });

  it('adds fields with free keys and labels, after the selected one, with their type’s defaults', () => {
    const first = newField('text', []);
    expect(first).toMatchObject({ key: 'field1', label: '单行文本1', type: 'text', required: false });
    const second = newField('text', [first]);
    expect(second).toMatchObject({ key: 'field2', label: '单行文本2' });
    const choice = newField('select', [first, second]);
    expect(choice).toMatchObject({ key: 'field3', label: '单项选择1', options: [{ value: 'o1', label: '选项1' }, { value: 'o2', label: '选项2' }] });
    // Keys are compared without case, as the server does.
    expect(newField('text', [{ ...first, key: 'FIELD1' }]).key).toBe('field2');
    expect(newField('photo', [])).toMatchObject({ maxCount: 3 });
    const list = insertField(insertField([first], second), choice, first.uid);
    expect(list.map((field) => field.key)).toEqual(['field1', 'field3', 'field2']);
    expect(newOption(choice)).toEqual({ value: 'o3', label: '选项3' });
  });

  it('moves, changes and removes fields', () => {
    const fields = withUids([
      { key: 'a', label: '甲', type: 'text' },
      { key: 'b', label: '乙', type: 'number' },
      { key: 'c', label: '丙', type: 'date' },
    ]);
    expect(moveField(fields, fields[2].uid, -1).map((field) => field.key)).toEqual(['a', 'c', 'b']);
    expect(moveField(fields, fields[0].uid, -1).map((field) => field.key)).toEqual(['a', 'b', 'c']);
    expect(moveField(fields, fields[2].uid, 1).map((field) => field.key)).toEqual(['a', 'b', 'c']);
    expect(updateField(fields, fields[1].uid, { label: '读数', min: 0 })[1]).toMatchObject({ key: 'b', label: '读数', min: 0 });
    expect(removeField(fields, fields[1].uid).map((field) => field.key)).toEqual(['a', 'c']);
  });

  it('says what the server would refuse, field by field', () => {
    const fields = withUids([
      { key: 'a', label: '甲', type: 'text' },
      { key: 'A', label: '乙', type: 'text' },
      { key: '9x', label: '丙', type: 'text' },
      { key: 'd', label: '甲', type: 'text' },
      { key: 'e', label: '戊', type: 'select', options: [] },
      { key: 'f', label: '己', type: 'number', min: 5, max: 1 },
      { key: 'g', label: '庚', type: 'checkbox', options: [{ value: 'x', label: '一' }, { value: 'x', label: '二' }] },
      { key: 'h', label: '辛', type: 'text', maxLength: 900 },
      { key: 'toString', label: '壬', type: 'text' },
      { key: 'j', label: '<b>', type: 'text' },
      { key: 'k', label: '癸', type: 'photo', maxCount: 12 },
    ]);
    const problems = designProblems(fields);
    expect(fields.map((field) => problems.get(field.uid) ?? null)).toEqual([
      '字段标识 a 重复',
      '字段标识 A 重复',
      '字段标识须以字母开头，仅含字母、数字和下划线，最多 32 个字符',
      '字段名称“甲”重复',
      '至少需要一个选项',
      '最小值不能大于最大值',
      '选项值重复',
      '最多可设 200 个字',
      '字段标识 toString 是保留字，请换一个',
      '字段名称最多 32 个字，且不能包含 < 或 >',
      '照片数量为 1 到 9 张',
    ]);
    expect(fieldProblem({ key: 'ok', label: '正常', type: 'number', min: 1, max: 5, unit: 'V' }, [])).toBeNull();
  });

  it('sends each field with its type’s settings only, nothing empty, labels trimmed', () => {
    const fields = withUids([
      { key: 'a', label: ' 读数 ', type: 'number', min: 0, max: null, unit: '', options: [{ value: 'x', label: '留下的' }], placeholder: ' ' },
      { key: 'b', label: '选择', type: 'select', required: true, options: [{ value: 'o1', label: ' 一 ' }], maxLength: 10, help: '说明' },
    ]);
    expect(toPayload(fields)).toEqual([
      { key: 'a', label: '读数', type: 'number', required: false, min: 0 },
      { key: 'b', label: '选择', type: 'select', required: true, help: '说明', options: [{ value: 'o1', label: '一' }] },
    ]);
    expect(sameFields(fields, withUids(toPayload(fields)))).toBe(true);
    expect(sameFields(fields, updateField(fields, fields[0].uid, { label: '电压' }))).toBe(false);
  });
});
