import { Select, type SelectProps } from 'antd';
import { useMemo } from 'react';
import { useOperationQuery } from '../../data/queries';
import { useResolvedParam } from '../../schema/scope';

export interface OperationSelectProps extends Omit<SelectProps, 'options' | 'loading'> {
  /** A `call` operation answering a list of records. */
  operation: string;
  /**
   * Its param; templates read the scope where the select stands: `{{values.x}}` another field of
   * its form or filter form, `{{params.x}}` the route, `{{user.x}}` the signed-in user.
   */
  param?: unknown;
  labelField?: string;
  valueField?: string;
}

/** A select whose options come from a call operation (suppliers, projects, products…). */
export function OperationSelect({ operation, param, labelField = 'name', valueField = 'id', ...props }: OperationSelectProps) {
  // Compared by value: a schema's param object may be a new one on every render.
  const resolved = useResolvedParam(param);
  // Selects of the same operation and param (a filter and a form's field) share one request.
  const answer = useOperationQuery<unknown>(operation, resolved);
  const options = useMemo(() => {
    const result = answer.data;
    const rows = Array.isArray(result) ? result : ((result as { records?: unknown[] } | null | undefined)?.records ?? []);
    return rows.map((row) => {
      const record = row as Record<string, unknown>;
      return { label: String(record[labelField] ?? ''), value: record[valueField] as string | number };
    });
  }, [answer.data, labelField, valueField]);
  const loading = answer.loading;
  return <Select allowClear showSearch optionFilterProp="label" placeholder="请选择" {...props} loading={loading} options={options} />;
}
