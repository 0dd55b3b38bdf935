import { TreeSelect, type TreeSelectProps } from 'antd';
import { useMemo } from 'react';
import { useOperationQuery } from '../../data/queries';
import { useResolvedParam } from '../../schema/scope';

export interface OperationTreeSelectProps extends Omit<TreeSelectProps, 'treeData' | 'loading'> {
  /** A `call` operation answering a tree (e.g. `organization.tree`). */
  operation: string;
  /** Its param, templates over the scope where it stands (as OperationSelect's). */
  param?: unknown;
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
export function OperationTreeSelect({ operation, param, labelField = 'organizationName', valueField = 'organizationCode', hideField = 'organizationType', hideValue = 5, ...props }: OperationTreeSelectProps) {
  const answer = useOperationQuery<unknown[]>(operation, useResolvedParam(param));
  const treeData = useMemo(
    () => toTree(Array.isArray(answer.data) ? answer.data : [], labelField, valueField, { field: hideField, value: hideValue }),
    [answer.data, labelField, valueField, hideField, hideValue],
  );
  const loading = answer.loading;
  return <TreeSelect allowClear showSearch treeNodeFilterProp="title" placeholder="请选择" treeDefaultExpandAll {...props} loading={loading} treeData={treeData} />;
}
