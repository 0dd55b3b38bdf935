import { ArrowDownOutlined, ArrowUpOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import type { ArrayField } from '@formily/core';
import { observer, RecursionField, useField, useFieldSchema, type Schema } from '@formily/react';
import { Button, Empty, Space } from 'antd';

export interface ArrayListProps {
  /** The add button's text. */
  addLabel?: string;
  /** Rows at most (the add button hides at the limit). */
  maxItems?: number;
  /** Allow reordering with up/down buttons. */
  sortable?: boolean;
}

/**
 * An array field: one row per item (rendered from the schema's `items`), with add, remove and
 * reorder. Formily's own ArrayItems/ArrayTable additions render nothing on React 19 here (their
 * Addition never appears), so arrays in page schemas use this.
 */
export const ArrayList = observer(function ArrayList({ addLabel = '添加', maxItems, sortable }: ArrayListProps) {
  const field = useField<ArrayField>();
  const schema = useFieldSchema();
  const rows = Array.isArray(field.value) ? field.value : [];
  const items = (Array.isArray(schema.items) ? schema.items[0] : schema.items) as Schema | undefined;
  const editable = field.pattern === 'editable';
  const blank = () => (items?.type === 'object' ? {} : items?.type === 'array' ? [] : undefined);
  return (
    <div>
      {rows.length === 0 && <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无" style={{ margin: '8px 0' }} />}
      {rows.map((_row, index) => (
        <div key={index} style={{ display: 'flex', alignItems: 'flex-start', gap: 8, marginBottom: 8 }} data-array-row={index}>
          <span style={{ lineHeight: '32px', color: 'rgba(0,0,0,0.45)', minWidth: 24 }}>{index + 1}.</span>
          <div style={{ flex: 1 }}>{items && <RecursionField schema={items} name={index} />}</div>
          {editable && (
            <Space size={0}>
              {sortable && (
                <>
                  <Button type="text" size="small" aria-label={`上移第${index + 1}项`} icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => void field.moveUp(index)} />
                  <Button type="text" size="small" aria-label={`下移第${index + 1}项`} icon={<ArrowDownOutlined />} disabled={index === rows.length - 1} onClick={() => void field.moveDown(index)} />
                </>
              )}
              <Button type="text" size="small" danger aria-label={`删除第${index + 1}项`} icon={<DeleteOutlined />} onClick={() => void field.remove(index)} />
            </Space>
          )}
        </div>
      ))}
      {editable && (maxItems === undefined || rows.length < maxItems) && (
        <Button type="dashed" block icon={<PlusOutlined />} onClick={() => void field.push(blank())}>
          {addLabel}
        </Button>
      )}
    </div>
  );
});
