import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Alert, Button, Col, Form, Input, InputNumber, Row, Select, Space, Switch } from 'antd';
import { MAX_PHOTO_COUNT, TEXT_LIMITS, type TemplateField, type TemplateFieldOption, type TemplateFieldType } from '../../../renderers/form/templateSchema';
import { FIELD_TYPES, newOption, type DesignerField } from './designer';

interface Props {
  field: DesignerField;
  problem: string | null;
  disabled: boolean;
  onChange: (patch: Partial<TemplateField>) => void;
}

const numberOrNull = (value: number | string | null): number | null => (typeof value === 'number' && Number.isFinite(value) ? value : null);

/** The settings of the selected field: name, key, required, hints, and its type's own (options, limits). */
export function FieldSettings({ field, problem, disabled, onChange }: Props) {
  const id = (name: string) => `field-${field.uid}-${name}`;
  const options = field.options ?? [];
  const setOptions = (next: TemplateFieldOption[]) => onChange({ options: next });
  const changeType = (type: TemplateFieldType) => {
    const patch: Partial<TemplateField> = { type };
    if ((type === 'select' || type === 'checkbox') && options.length === 0) patch.options = [{ value: 'o1', label: '选项1' }, { value: 'o2', label: '选项2' }];
    onChange(patch);
  };
  return (
    <Form layout="vertical" component="div" disabled={disabled} data-testid="field-settings">
      {problem && <Alert type="error" showIcon message={problem} style={{ marginBottom: 12 }} />}
      <Row gutter={12}>
        <Col span={12}>
          <Form.Item label="字段名称" htmlFor={id('label')} required>
            <Input id={id('label')} value={field.label} maxLength={32} onChange={(event) => onChange({ label: event.target.value })} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="字段标识" htmlFor={id('key')} required tooltip="保存表单数据用的英文标识，同一模板内不能重复">
            <Input id={id('key')} value={field.key} maxLength={32} onChange={(event) => onChange({ key: event.target.value.trim() })} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="字段类型" htmlFor={id('type')}>
            <Select id={id('type')} aria-label="字段类型" value={field.type} options={FIELD_TYPES.map((entry) => ({ value: entry.type, label: entry.label }))} onChange={changeType} />
          </Form.Item>
        </Col>
        <Col span={12}>
          <Form.Item label="必填" htmlFor={id('required')}>
            <Switch id={id('required')} aria-label="必填" checked={field.required === true} checkedChildren="必填" unCheckedChildren="选填" onChange={(required) => onChange({ required })} />
          </Form.Item>
        </Col>
      </Row>
      {field.type !== 'checkbox' && field.type !== 'photo' && (
        <Form.Item label="填写提示" htmlFor={id('placeholder')}>
          <Input id={id('placeholder')} value={field.placeholder ?? ''} maxLength={64} placeholder="输入框中的灰色提示" onChange={(event) => onChange({ placeholder: event.target.value })} />
        </Form.Item>
      )}
      <Form.Item label="说明" htmlFor={id('help')}>
        <Input id={id('help')} value={field.help ?? ''} maxLength={200} placeholder="显示在字段下方的填写说明" onChange={(event) => onChange({ help: event.target.value })} />
      </Form.Item>

      {(field.type === 'text' || field.type === 'textarea') && (
        <Form.Item label="最多字数" htmlFor={id('maxLength')} extra={`不填则最多 ${TEXT_LIMITS[field.type]} 字`}>
          <InputNumber id={id('maxLength')} min={1} max={TEXT_LIMITS[field.type]} precision={0} value={field.maxLength ?? null} style={{ width: '100%' }} onChange={(value) => onChange({ maxLength: numberOrNull(value) })} />
        </Form.Item>
      )}

      {field.type === 'number' && (
        <Row gutter={12}>
          <Col span={12}>
            <Form.Item label="最小值" htmlFor={id('min')}>
              <InputNumber id={id('min')} value={field.min ?? null} min={-1_000_000_000} max={1_000_000_000} style={{ width: '100%' }} onChange={(value) => onChange({ min: numberOrNull(value) })} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="最大值" htmlFor={id('max')}>
              <InputNumber id={id('max')} value={field.max ?? null} min={-1_000_000_000} max={1_000_000_000} style={{ width: '100%' }} onChange={(value) => onChange({ max: numberOrNull(value) })} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="小数位数" htmlFor={id('precision')}>
              <InputNumber id={id('precision')} value={field.precision ?? null} min={0} max={4} precision={0} style={{ width: '100%' }} onChange={(value) => onChange({ precision: numberOrNull(value) })} />
            </Form.Item>
          </Col>
          <Col span={12}>
            <Form.Item label="单位" htmlFor={id('unit')}>
              <Input id={id('unit')} value={field.unit ?? ''} maxLength={8} placeholder="如 dBm、V、m" onChange={(event) => onChange({ unit: event.target.value })} />
            </Form.Item>
          </Col>
        </Row>
      )}

      {field.type === 'photo' && (
        <Form.Item label="最多照片数" htmlFor={id('maxCount')}>
          <InputNumber id={id('maxCount')} min={1} max={MAX_PHOTO_COUNT} precision={0} value={field.maxCount ?? null} style={{ width: '100%' }} onChange={(value) => onChange({ maxCount: numberOrNull(value) })} />
        </Form.Item>
      )}

      {(field.type === 'select' || field.type === 'checkbox') && (
        <Form.Item label="选项" required>
          <Space direction="vertical" style={{ width: '100%' }} data-testid="option-list">
            {options.map((option, index) => (
              <Space.Compact key={index} style={{ width: '100%' }}>
                <Input aria-label={`选项${index + 1}名称`} value={option.label} maxLength={32} style={{ flex: 2 }} onChange={(event) => setOptions(options.map((item, at) => (at === index ? { ...item, label: event.target.value } : item)))} />
                <Input aria-label={`选项${index + 1}值`} value={option.value} maxLength={32} style={{ flex: 1 }} onChange={(event) => setOptions(options.map((item, at) => (at === index ? { ...item, value: event.target.value.trim() } : item)))} />
                <Button
                  icon={<ArrowUpOutlined />}
                  aria-label={`上移选项${index + 1}`}
                  disabled={index === 0}
                  onClick={() => setOptions(options.map((item, at) => (at === index - 1 ? options[index] : at === index ? options[index - 1] : item)))}
                />
                <Button
                  icon={<ArrowDownOutlined />}
                  aria-label={`下移选项${index + 1}`}
                  disabled={index === options.length - 1}
                  onClick={() => setOptions(options.map((item, at) => (at === index + 1 ? options[index] : at === index ? options[index + 1] : item)))}
                />
                <Button danger icon={<DeleteOutlined />} aria-label={`删除选项${index + 1}`} onClick={() => setOptions(options.filter((_item, at) => at !== index))} />
              </Space.Compact>
            ))}
            <Button type="dashed" block icon={<PlusOutlined />} disabled={options.length >= 50} onClick={() => setOptions([...options, newOption(field)])}>
              添加选项
            </Button>
          </Space>
        </Form.Item>
      )}
    </Form>
  );
}
