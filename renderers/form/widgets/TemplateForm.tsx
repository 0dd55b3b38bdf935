import type { ObjectField } from '@formily/core';
import { PreviewText } from '@formily/antd-v5';
import { observer, RecursionField, useField, useFieldSchema, useForm, type ISchema } from '@formily/react';
import { Alert, Button, Empty, Spin, Typography } from 'antd';
import { useEffect, useMemo } from 'react';
import { useOperationQuery } from '../../data/queries';
import { withAccessibleNames } from '../formily';
import { templateToFormily, type TemplateField } from '../templateSchema';

export interface TemplateFormProps {
  /** The call that reads a template version (`{ id, version }` or `{ id, published: true }`). */
  operation?: string;
  /** The form field holding the template id (the order's, or the one just chosen). */
  templateField?: string;
  /** The loaded record's field holding the version the order keeps. */
  versionField?: string;
  /** The loaded record's field saying whether the caller fills the form now (the assignee). */
  fillableField?: string;
  /** What shows while nobody has filled the form yet. */
  emptyText?: string;
  'aria-label'?: string;
}

interface LoadedTemplate {
  id: number;
  name: string;
  version: number;
  fields: TemplateField[];
}

const idOf = (value: unknown): number | null => (typeof value === 'number' && Number.isInteger(value) && value > 0 ? value : null);
const hasValues = (value: unknown): boolean =>
  value !== null && typeof value === 'object' && Object.values(value).some((item) => item !== undefined && item !== null && item !== '' && !(Array.isArray(item) && item.length === 0));

/**
 * The dynamic form of a work order, drawn by the form renderer itself: an object field
 * (`formData`) whose properties come from the order's template version. The assignee fills it
 * (the fields validate like any other, and submit with the page); anyone else sees the filled
 * values read-only. Choosing another template in the same form clears the values (the server
 * does the same); until a template is chosen, or while it loads, it says so.
 */
export const TemplateForm = observer(function TemplateForm({
  operation = 'activeForm.template.get',
  templateField = 'formTemplateId',
  versionField = 'formTemplateVersion',
  fillableField = 'canFill',
  emptyText = '尚未填写：由作业人员在现场填写',
  'aria-label': ariaLabel,
}: TemplateFormProps) {
  const field = useField<ObjectField>();
  const schema = useFieldSchema();
  const form = useForm();
  const values = form.values as Record<string, unknown>;
  const initial = form.initialValues as Record<string, unknown>;
  const templateId = idOf(values[templateField]);
  const kept = templateId !== null && templateId === idOf(initial[templateField]);
  const version = kept ? idOf(values[versionField]) : null;
  const fillable = kept && values[fillableField] === true;
  // The order's own version, or the published one of a template just chosen.
  const param = useMemo(() => (templateId === null ? null : version !== null ? { id: templateId, version } : { id: templateId, published: true }), [templateId, version]);

  // Another template than the order's: the values filled for the old one go.
  useEffect(() => {
    if (templateId !== null && !kept && field.value !== undefined) field.setValue(undefined);
  }, [templateId, kept, field]);

  const loaded = useOperationQuery<LoadedTemplate>(operation, param, { enabled: param !== null });
  const template = param !== null && !loaded.loading ? (loaded.data ?? null) : null;
  const formily = useMemo(() => (template ? withAccessibleNames(templateToFormily(template.fields, { pattern: fillable ? 'editable' : 'readPretty' })) : null), [template, fillable]);
  const title = typeof schema.title === 'string' ? schema.title : '表单';

  let body;
  if (param === null) body = <Typography.Text type="secondary">未选择表单模板</Typography.Text>;
  else if (loaded.error !== null)
    body = (
      <Alert
        type="error"
        showIcon
        message="表单模板加载失败"
        description={loaded.error}
        action={
          <Button size="small" onClick={loaded.reload}>
            重试
          </Button>
        }
      />
    );
  else if (!template || !formily) body = <Spin style={{ display: 'block', margin: '16px auto' }} />;
  else if (template.fields.length === 0) body = <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="该模板没有字段" />;
  else if (!fillable && !hasValues(field.value)) body = <Alert type="info" showIcon message={emptyText} />;
  else
    body = (
      <PreviewText.Placeholder value="-">
        <RecursionField schema={formily as ISchema} onlyRenderProperties basePath={field.address} />
      </PreviewText.Placeholder>
    );

  return (
    <section aria-label={ariaLabel ?? title} data-testid="template-form" style={{ border: '1px solid rgba(5, 5, 5, 0.06)', borderRadius: 8, padding: '12px 16px', marginBottom: 24 }}>
      <Typography.Title level={5} style={{ marginTop: 0 }}>
        {title}
        {template ? `：${template.name}（v${template.version}）` : ''}
      </Typography.Title>
      {body}
    </section>
  );
});
