import { TreeSelect, type TreeSelectProps } from 'antd';
import { useEffect, useState } from 'react';
import { useRenderer } from '../../services';

export interface OperationTreeSelectProps extends Omit<TreeSelectProps, 'treeData' | 'loading'> {
  /** A `call` operation answering a tree (e.g. `organization.tree`). */
  operation: string;
  labelField?: string;
  valueField?: string;
  /** Nodes of this `organizationType` (or matching `hideField`/`hideValue`) are left out. */
  hideField?: string;
  hideValue?: string | number;
}

interface TreeNode {
  title: string;
  value: string | number;
  children?: TreeNode[];
}

function toTree(nodes: unknown[], label: string, value: string, hide?: { field: string; value: unknown }): TreeNode[] {
  return nodes
    .map((node) => node as Record<string, unknown>)
    .filter((node) => !hide || node[hide.field] !== hide.value)
    .map((node) => ({
      title: String(node[label] ?? ''),
      value: node[value] as string | number,
      children: Array.isArray(node.children) ? toTree(node.children, label, value, hide) : undefined,
    }));
}

/** A tree select fed by a call operation (organisation trees, categories). */
export function OperationTreeSelect({ operation, labelField = 'organizationName', valueField = 'organizationCode', hideField = 'organizationType', hideValue = 5, ...props }: OperationTreeSelectProps) {
  const { data } = useRenderer();
  const [treeData, setTreeData] = useState<TreeNode[]>([]);
  const [loading, setLoading] = useState(true);
  useEffect(() => {
    const controller = new AbortController();
    data
      .call<unknown[]>(operation, {}, { signal: controller.signal })
      .then((rows) => setTreeData(toTree(rows ?? [], labelField, valueField, { field: hideField, value: hideValue })))
      .catch(() => setTreeData([]))
      .finally(() => setLoading(false));
    return () => controller.abort();
  }, [data, operation, labelField, valueField, hideField, hideValue]);
  return <TreeSelect allowClear showSearch treeNodeFilterProp="title" placeholder="请选择" treeDefaultExpandAll {...props} loading={loading} treeData={treeData} />;
}
