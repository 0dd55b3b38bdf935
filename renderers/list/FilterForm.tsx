import { DownOutlined, UpOutlined } from '@ant-design/icons';
import { createForm } from '@formily/core';
import { FormProvider, type ISchema } from '@formily/react';
import { FormLayout } from '@formily/antd-v5';
import { Button, Space, Spin } from 'antd';
import { Suspense, useMemo, useState } from 'react';
import { prepareSchema, SchemaField } from '../form/formily';
import type { FormilySchema } from '../schema/types';
import { useRenderer } from '../services';

/** Fields shown while the filter form is collapsed. */
export const COLLAPSED_FIELDS = 3;

interface Props {
  schema: FormilySchema;
  onSearch: (values: Record<string, unknown>) => void;
}

function withoutEmpty(values: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(values).filter(([, value]) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0)),
  );
}

/** The list page's filter form (Formily), collapsible to its first fields. */
export function FilterForm({ schema, onSearch }: Props) {
  const { validators } = useRenderer();
  const form = useMemo(() => createForm(), []);
  const [expanded, setExpanded] = useState(false);
  const properties = (schema.properties ?? {}) as Record<string, unknown>;
  const names = Object.keys(properties);
  const collapsible = names.length > COLLAPSED_FIELDS;
  const shown = useMemo(() => {
    const visible = expanded ? names : names.slice(0, COLLAPSED_FIELDS);
    const grid = {
      type: 'void',
      'x-component': 'FormGrid',
      'x-component-props': { maxColumns: 4, minColumns: 1, minWidth: 220 },
      properties: Object.fromEntries(visible.map((name) => [name, properties[name]])),
    };
    return prepareSchema({ type: 'object', properties: { grid } }, validators);
    // names is derived from properties
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [schema, expanded, validators]);

  const search = async () => {
    try {
      await form.validate();
    } catch {
      return; // the messages are on the fields
    }
    onSearch(withoutEmpty({ ...form.values }));
  };

  return (
    <FormProvider form={form}>
      <FormLayout labelCol={6} wrapperCol={18} feedbackLayout="terse">
        <div style={{ display: 'flex', alignItems: 'flex-start', gap: 16 }} data-testid="list-filters">
          <div style={{ flex: 1 }} onKeyDown={(event) => event.key === 'Enter' && void search()}>
            <Suspense fallback={<Spin size="small" />}>
              <SchemaField schema={shown as ISchema} />
            </Suspense>
          </div>
          <Space>
            <Button type="primary" onClick={() => void search()}>
              查询
            </Button>
            <Button
              onClick={() => {
                void form.reset('*', { forceClear: true }).then(() => onSearch({}));
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
      </FormLayout>
    </FormProvider>
  );
}
