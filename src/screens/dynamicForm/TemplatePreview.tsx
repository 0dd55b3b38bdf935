import { FormLayout } from '@formily/antd-v5';
import { createForm, onFormValuesChange } from '@formily/core';
import { FormProvider, type ISchema } from '@formily/react';
import { toJS } from '@formily/reactive';
import { Button, Card, Empty, Space, Spin } from 'antd';
import { Suspense, useEffect, useMemo, useState } from 'react';
import { SchemaField, withAccessibleNames } from '../../../renderers/form/formily';
import { templateToFormily } from '../../../renderers/form/templateSchema';
import { toPayload, type DesignerField } from './designer';
import { notify } from '../../api/notifier';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';

/** The type of each key in a payload signature. */
const typesOf = (signature: string): Record<string, string> => Object.fromEntries((JSON.parse(signature) as Array<{ key: string; type: string }>).map((field) => [field.key, field.type]));

interface Props {
  fields: readonly DesignerField[];
  title: string;
}

/**
 * The live preview: the template as the implementer will fill it, drawn by the form renderer's
 * own SchemaField from the same conversion the work orders use. What is typed into the preview
 * survives edits of other fields (a field whose key or type changed starts empty).
 */
export function TemplatePreview({ fields, title }: Props) {
  const payload = useMemo(() => toPayload(fields), [fields]);
  const signature = JSON.stringify(payload);
  const schema = useMemo(() => withAccessibleNames(templateToFormily(JSON.parse(signature) as typeof payload)) as ISchema, [signature]);
  /**
   * The preview's last values and the type each key had then (written by the form's change
   * handler, read when the next form is made).
   */
  const [memory] = useState<{ values: Record<string, unknown>; types: Record<string, string> }>(() => ({ values: {}, types: {} }));
  const form = useMemo(() => {
    const types = typesOf(signature);
    const kept = Object.fromEntries(Object.entries(memory.values).filter(([key]) => types[key] !== undefined && types[key] === memory.types[key]));
    return createForm({ values: kept, validateFirst: true });
  }, [signature, memory]);
  useEffect(() => {
    const id = 'preview-memory';
    const types = typesOf(signature);
    form.addEffects(id, () =>
      onFormValuesChange((changed) => {
        memory.values = toJS(changed.values) as Record<string, unknown>;
        memory.types = types;
      }),
    );
    return () => form.removeEffects(id);
  }, [form, memory, signature]);

  const check = () => {
    form
      .validate()
      .then(() => notify.success('预览校验通过'))
      .catch((error: unknown) => {
        expectedFailures('表单预览')(error);
        notify.warning('请按提示修改预览中的填写内容');
      });
  };

  return (
    <Card
      size="small"
      title="实时预览"
      data-testid="template-preview"
      extra={
        <Space>
          <Button size="small" onClick={() => form.reset('*', { forceClear: true })} disabled={payload.length === 0}>
            清空
          </Button>
          <Button size="small" type="primary" ghost onClick={check} disabled={payload.length === 0}>
            校验预览
          </Button>
        </Space>
      }
    >
      {payload.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="添加字段后在此预览" />
      ) : (
        <section aria-label={`预览：${title}`}>
          <FormProvider form={form}>
            <FormLayout layout="vertical">
              <Suspense fallback={<Spin />}>
                <SchemaField key={signature} schema={schema} />
              </Suspense>
            </FormLayout>
          </FormProvider>
        </section>
      )}
    </Card>
  );
}
