import { ArrowDownOutlined, ArrowUpOutlined, SettingOutlined } from '@ant-design/icons';
import { Button, Checkbox, Popover, Space, Tooltip } from 'antd';
import type { Column } from '../schema/types';
import { move, type ColumnPreferences } from './columnPreferences';

interface Props {
  columns: readonly Column[];
  preferences: ColumnPreferences;
  onChange: (next: ColumnPreferences) => void;
  onReset: () => void;
}

/** Show, hide and reorder the list's columns. */
export function ColumnSettings({ columns, preferences, onChange, onReset }: Props) {
  const byField = new Map(columns.map((c) => [c.field, c]));
  const content = (
    <div style={{ minWidth: 220 }} data-testid="column-settings">
      {preferences.order.map((field, index) => (
        <div key={field} style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 8, padding: '2px 0' }}>
          <Checkbox
            checked={!preferences.hidden.includes(field)}
            onChange={(event) =>
              onChange({
                ...preferences,
                hidden: event.target.checked ? preferences.hidden.filter((f) => f !== field) : [...preferences.hidden, field],
              })
            }
          >
            {byField.get(field)?.title ?? field}
          </Checkbox>
          <Space size={0}>
            <Button size="small" type="text" aria-label={`上移${byField.get(field)?.title ?? field}`} icon={<ArrowUpOutlined />} disabled={index === 0} onClick={() => onChange({ ...preferences, order: move(preferences.order, field, -1) })} />
            <Button size="small" type="text" aria-label={`下移${byField.get(field)?.title ?? field}`} icon={<ArrowDownOutlined />} disabled={index === preferences.order.length - 1} onClick={() => onChange({ ...preferences, order: move(preferences.order, field, 1) })} />
          </Space>
        </div>
      ))}
      <Button type="link" size="small" onClick={onReset} style={{ paddingInline: 0, marginTop: 8 }}>
        恢复默认
      </Button>
    </div>
  );
  return (
    <Popover trigger="click" placement="bottomRight" title="列设置" content={content}>
      <Tooltip title="列设置">
        <Button icon={<SettingOutlined />} aria-label="列设置" />
      </Tooltip>
    </Popover>
  );
}
