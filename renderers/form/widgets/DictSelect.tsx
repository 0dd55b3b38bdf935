import { Select, type SelectProps } from 'antd';
import { useMemo } from 'react';
import { useRenderer } from '../../services';

export interface DictSelectProps extends Omit<SelectProps, 'options'> {
  /** The dictionary type (`dict/tree/_list`) whose items are the options. */
  dictType: string;
}

/** A select whose options are a dictionary's items. */
export function DictSelect({ dictType, ...props }: DictSelectProps) {
  const { dictionaries } = useRenderer();
  const options = useMemo(() => dictionaries.options(dictType), [dictionaries, dictType]);
  return <Select allowClear placeholder="请选择" {...props} options={options} />;
}
