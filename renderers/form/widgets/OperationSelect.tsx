import { Select, type SelectProps } from 'antd';
import { useEffect, useState } from 'react';
import { resolveTemplate } from '../../schema/template';
import { useRenderer } from '../../services';

export interface OperationSelectProps extends Omit<SelectProps, 'options' | 'loading'> {
  /** A `call` operation answering a list of records. */
  operation: string;
  param?: unknown;
  labelField?: string;
  valueField?: string;
}

/** A select whose options come from a call operation (suppliers, projects, products…). */
export function OperationSelect({ operation, param, labelField = 'name', valueField = 'id', ...props }: OperationSelectProps) {
  const { data } = useRenderer();
  const [options, setOptions] = useState<Array<{ label: string; value: string | number }>>([]);
  const [loading, setLoading] = useState(true);
  const key = JSON.stringify(param ?? {});
  useEffect(() => {
    const controller = new AbortController();
    data
      .call<unknown>(operation, resolveTemplate(JSON.parse(key), {}), { signal: controller.signal })
      .then((result) => {
        const rows = Array.isArray(result) ? result : ((result as { records?: unknown[] } | null)?.records ?? []);
        setOptions(
          rows.map((row) => {
            const record = row as Record<string, unknown>;
            return { label: String(record[labelField] ?? ''), value: record[valueField] as string | number };
          }),
        );
      })
      .catch(() => setOptions([]))
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [data, operation, key, labelField, valueField]);
  return <Select allowClear showSearch optionFilterProp="label" placeholder="请选择" {...props} loading={loading} options={options} />;
}
