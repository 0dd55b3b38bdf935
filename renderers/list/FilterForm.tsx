import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { Alert, Button, Form, Input, Select, Space, Spin, type FormRule } from 'antd';
import { lazy, Suspense, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { DictSelect } from '../form/widgets/DictSelect';
import { OperationSelect } from '../form/widgets/OperationSelect';
import { Registry, type PropSpecs } from '../registry';
import { expectedFailures } from '../runtime/errorReporter';
import { TemplateScopeProvider } from '../schema/scope';
import type { FormilySchema } from '../schema/types';
import { useRenderer, type NamedValidator } from '../services';
import type { FilterField, FilterValidator } from '../schema/types';

const NO_VALUES: Readonly<Record<string, unknown>> = Object.freeze({});

/** Fields shown while the filter form is collapsed. */
export const COLLAPSED_FIELDS = 3;

type AnyProps = Record<string, unknown>;

// The date range, the number and the tree select are fetched only by a filter that shows one.
const DateRange = lazy(() => import('./DateRange'));
const NumberInput = lazy(() => import('antd/es/input-number'));
const OperationTreeSelect = lazy(async () => ({ default: (await import('../form/widgets/OperationTreeSelect')).OperationTreeSelect }));

interface Props {
  schema: FormilySchema;
  /** The filters the list is shown with (restored from the address, or searched last). */
  values?: Record<string, unknown>;
  onSearch: (values: Record<string, unknown>) => void;
}

function withoutEmpty(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)),
  );
}

/** The fields of a filter schema, in order (`npm run check` keeps them to FILTER_COMPONENT_KINDS). */
function fieldsOf(schema: FormilySchema): Array<[string, FilterField]> {
  return Object.entries((schema.properties ?? {}) as Record<string, FilterField>);
}

/** The values a filter starts from (and a reset goes back to): each field's `default`. */
export function filterDefaults(schema: FormilySchema | undefined): Record<string, unknown> {
  if (!schema) return {};
  return withoutEmpty(Object.fromEntries(fieldsOf(schema).map(([name, field]) => [name, field.default])));
}

/** Every field's value in `values` (undefined for those it lacks), as antd's form takes them. */
function fieldValues(fields: ReadonlyArray<[string, FilterField]>, values: Record<string, unknown>): Record<string, NonNullable<unknown> | undefined> {
  return Object.fromEntries(fields.map(([name]) => [name, values[name] ?? undefined]));
}

/** A schema's validator entries as antd rules: SPEC §5 rules by name (their messages), patterns with theirs. */
export function filterRules(field: FilterField, validators: Readonly<Record<string, NamedValidator>>): FormRule[] {
  const entries: FilterValidator[] = field['x-validator'] === undefined ? [] : Array.isArray(field['x-validator']) ? field['x-validator'] : [field['x-validator']];
  return entries.map((entry): FormRule => {
    if (typeof entry === 'object' && 'pattern' in entry) return { pattern: new RegExp(entry.pattern), message: entry.message };
    const name = typeof entry === 'string' ? entry : entry.name;
    const compareWith = typeof entry === 'string' ? undefined : entry.field;
    return ({ getFieldsValue }) => ({
      validator: async (_rule, value: unknown) => {
        const values: Record<string, unknown> = { ...(getFieldsValue(true) as Record<string, unknown>) };
        if (compareWith) values.other = values[compareWith];
        const message = validators[name]?.(value, values);
        if (message) throw new Error(message);
      },
    });
  });
}

/**
 * One control a list's filter may name (`x-component`): a plain antd one (a list loads no
 * Formily), drawn from the field's schema props (its title as accessible name), with the props
 * `npm run check` reads (an operation of the right kind, a dictionary type).
 */
export interface FilterComponentKind {
  render: (props: AnyProps, field: FilterField) => ReactNode;
  props?: PropSpecs;
}

/**
 * The controls a filter may name: the built-ins below are entries like any other, so adding one
 * is one `register` and a test (tests/unit/renderer/registries.test.tsx); `npm run check` and
 * `npm run schemas` read the names from here.
 */
export const FILTER_COMPONENT_KINDS = new Registry<FilterComponentKind>('筛选组件');

const selectOptions = (field: FilterField) =>
  (field.enum ?? []).map((item) => (typeof item === 'object' && item !== null ? item : { label: String(item), value: item })) as Array<{ label: string; value: string | number }>;
const byOperation: PropSpecs = { operation: { operation: ['call', 'get'] } };

FILTER_COMPONENT_KINDS.register('Input', { render: (props) => <Input allowClear {...props} /> })
  .register('DictSelect', { render: (props) => <DictSelect {...(props as { dictType: string })} />, props: { dictType: { required: true, dictType: true } } })
  .register('OperationSelect', { render: (props) => <OperationSelect {...(props as { operation: string })} />, props: byOperation })
  .register('OperationTreeSelect', { render: (props) => <OperationTreeSelect {...(props as { operation: string })} />, props: byOperation })
  .register('DatePicker.RangePicker', { render: (props) => <DateRange {...props} /> })
  .register('Select', { render: (props, field) => <Select allowClear placeholder="请选择" {...props} options={selectOptions(field)} /> })
  .register('NumberPicker', { render: (props) => <NumberInput style={{ width: '100%' }} {...props} /> });

/** The control a filter field names (its registry entry); one nobody registered says so in its place. */
function control(field: FilterField, props: AnyProps): ReactNode {
  const kind = FILTER_COMPONENT_KINDS.get(field['x-component']);
  return kind ? kind.render(props, field) : <Alert type="error" showIcon message={`未注册的筛选组件 ${field['x-component']}`} />;
}

/**
 * The list page's filter form: a plain antd Form (a list loads no Formily, issue 8), laid out on a
 * grid of up to four columns and collapsible to its first fields. Its fields are the controls of
 * FILTER_COMPONENT_KINDS, with the console's named validators and their messages.
 */
export function FilterForm({ schema, values, onSearch }: Props) {
  const { validators } = useRenderer();
  const [form] = Form.useForm<Record<string, unknown>>();
  const fields = useMemo(() => fieldsOf(schema), [schema]);
  const initialValues = useMemo(() => filterDefaults(schema), [schema]);
  // A list restored with filters beyond the first fields shows them all.
  const [expanded, setExpanded] = useState(() => fields.slice(COLLAPSED_FIELDS).some(([name]) => values?.[name] !== undefined));
  const collapsible = fields.length > COLLAPSED_FIELDS;
  const shown = expanded ? fields : fields.slice(0, COLLAPSED_FIELDS);
  // A select whose param reads `{{values.x}}` follows the other fields; without one, typing
  // renders nothing more (the selector's answer never changes).
  const followsValues = useMemo(() => fields.some(([, field]) => JSON.stringify(field['x-component-props'] ?? {}).includes('values')), [fields]);
  const watched = Form.useWatch((all: Record<string, unknown>) => (followsValues ? all : NO_VALUES), form);
  const scope = useMemo(() => ({ values: watched ?? NO_VALUES }), [watched]);

  // The fields show the filters the list is shown with: at first (a reload or a link restores
  // them), and when Back or Forward brings other ones. Not on the first render: antd's form is
  // not connected yet, and the fields start from these values anyway.
  const shownValues = useRef(values);
  useEffect(() => {
    if (!values || shownValues.current === values) return;
    shownValues.current = values;
    form.setFieldsValue(fieldValues(fields, values));
  }, [form, fields, values]);

  const search = async () => {
    try {
      await form.validateFields();
    } catch (error) {
      expectedFailures('筛选')(error); // a refused validation has its messages on the fields
      return;
    }
    onSearch(withoutEmpty(form.getFieldsValue(true) as Record<string, unknown>));
  };

  return (
    <Form form={form} initialValues={values ?? initialValues} labelCol={{ span: 6 }} wrapperCol={{ span: 18 }} colon={false}>
      <TemplateScopeProvider value={scope}>
      <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16 }} data-testid="list-filters">
        <div
          style={{ flex: 1, display: 'grid', gridTemplateColumns: 'repeat(auto-fill, minmax(max(220px, calc(25% - 12px)), 1fr))', columnGap: 16 }}
          onKeyDown={(event) => {
            // Enter in a text field searches; in a select or a date picker it picks, as antd's own.
            if (event.key === 'Enter' && !(event.target as HTMLElement).closest('.ant-select, .ant-picker')) void search();
          }}
        >
          {shown.map(([name, field]) => {
            const props: AnyProps = { ...(field['x-component-props'] ?? {}), 'aria-label': field.title };
            return (
              // A field whose control is still loading holds its place with a spinner.
              <Suspense key={name} fallback={<Spin size="small" style={{ marginBottom: 12 }} />}>
                <Form.Item name={name} label={field.title} rules={filterRules(field, validators)} style={{ marginBottom: 12 }}>
                  {control(field, props)}
                </Form.Item>
              </Suspense>
            );
          })}
        </div>
        <Space>
          <Button type="primary" onClick={() => void search()}>
            查询
          </Button>
          <Button
            onClick={() => {
              // Back to each field's default (the form's initial values are the filters it was shown with).
              form.resetFields();
              form.setFieldsValue(fieldValues(fields, initialValues));
              onSearch(withoutEmpty(form.getFieldsValue(true) as Record<string, unknown>));
            }}
          >
            重置
          </Button>
          {collapsible && (
            <Button type="link" onClick={() => setExpanded((e) => !e)} icon={expanded ? <UpOutlined /> : <DownOutlined />}>
              {expanded ? '收起' : '展开'}
            </Button>
          )}
        </Space>
      </div>
      </TemplateScopeProvider>
    </Form>
  );
}
