import { DownloadOutlined, ReloadOutlined } from '@ant-design/icons';
import { Button, Space, Tooltip } from 'antd';
import { memo } from 'react';
import { ActionButton } from '../actions/ActionButton';
import { actionScope, actionVisible, type ActionRuntime } from '../actions/runAction';
import type { Action, Column } from '../schema/types';
import { SecondaryText } from '../runtime/text';
import { ColumnSettings } from './ColumnSettings';
import type { ColumnPreferences } from './columnPreferences';

import type { Selection } from './useListController';

export type { Selection };

interface Props {
  toolbar: readonly Action[];
  batchActions: readonly Action[];
  params: Record<string, unknown>;
  filters: Record<string, unknown>;
  selection: Selection;
  onClearSelection: () => void;
  runtime: ActionRuntime;
  /** The export button's label, or null for none. */
  exportLabel: string | null;
  /** false when idle; null while an export starts; the fraction done once it reports one. */
  exporting: number | null | false;
  onExport: () => void;
  columns: readonly Column[];
  preferences: ColumnPreferences;
  onPreferences: (next: ColumnPreferences) => void;
  onResetPreferences: () => void;
}

/**
 * The row of actions above a list: toolbar and batch actions, the selection count, export,
 * refresh and the column settings. A memo component whose props do not change when rows arrive:
 * its antd buttons then stay out of the render that draws the rows. When they took part, an update
 * antd's Button queued while the page was revealed (a sync one, bailed out early) was left over,
 * and React ran the table's effects before painting the rows, a forced layout of all of them.
 */
export const ListToolbar = memo(function ListToolbar(props: Props) {
  const { toolbar, batchActions, params, filters, selection, onClearSelection, runtime, exportLabel, exporting } = props;
  const batchRuntime = { ...runtime, refresh: () => (onClearSelection(), runtime.refresh()) };
  // The list's filters are its `values`; batch actions read the checked rows as `selection`.
  const toolbarScope = actionScope({ params, values: filters }, runtime.services);
  const batchScope = actionScope({ params, values: filters, selection: { keys: selection.keys, rows: selection.rows } }, runtime.services);
  const { buttons } = runtime.services;
  return (
    <div style={{ display: 'flex', justifyContent: 'space-between', marginBottom: 12, gap: 8, flexWrap: 'wrap' }}>
      <Space wrap>
        {toolbar
          .filter((action) => actionVisible(action, buttons, toolbarScope))
          .map((action) => (
            <ActionButton key={action.label} action={action} scope={toolbarScope} runtime={runtime} />
          ))}
        {batchActions
          .filter((action) => actionVisible(action, buttons, batchScope))
          .map((action) => (
          <ActionButton
            key={action.label}
            action={action}
            scope={batchScope}
            runtime={batchRuntime}
            disabled={selection.keys.length === 0}
          />
        ))}
        {selection.keys.length > 0 && <SecondaryText>已选择 {selection.keys.length} 项</SecondaryText>}
      </Space>
      <Space>
        {exportLabel !== null && (
          <Button icon={<DownloadOutlined />} loading={exporting !== false} onClick={props.onExport}>
            {exporting === false ? exportLabel : exporting === null ? '导出中' : `导出中 ${Math.round(exporting * 100)}%`}
          </Button>
        )}
        <Tooltip title="刷新">
          <Button icon={<ReloadOutlined />} aria-label="刷新" onClick={runtime.refresh} />
        </Tooltip>
        <ColumnSettings columns={props.columns} preferences={props.preferences} onChange={props.onPreferences} onReset={props.onResetPreferences} />
      </Space>
    </div>
  );
});
