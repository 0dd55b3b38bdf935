import { DownOutlined } from '@ant-design/icons';
import { Button, Checkbox, Empty, theme } from 'antd';
import type { Key, ReactNode } from 'react';
import { ActionMenu } from '../actions/RowActions';
import { actionScope, actionVisible, type ActionRuntime } from '../actions/runAction';
import { renderCell } from '../displays/displays';
import type { Scope } from '../schema/template';
import type { Action, Column } from '../schema/types';
import { IDENTIFIER_CLASS, isIdentifier } from './identifiers';

type Row = Record<string, unknown>;

/** A card shows at most this many fields under its title. */
const KEY_FIELDS = 4;
export const CARD_ACTIONS_LABEL = '操作';

/**
 * What a card shows of a row (issue 34, phone width): its title (the first column, an identifier
 * as a rule), its status (the first tag column) and the next few columns as key fields.
 */
export function cardLayout(columns: readonly Column[]): { title: Column | undefined; status: Column | undefined; fields: Column[] } {
  const [title, ...rest] = columns;
  const status = rest.find((column) => column.display === 'tag');
  return { title, status, fields: rest.filter((column) => column !== status).slice(0, KEY_FIELDS) };
}

/** A card's actions in one menu (操作 ▾). */
function CardActions({ visible, scope, runtime }: { visible: readonly Action[]; scope: Scope; runtime: ActionRuntime }) {
  if (visible.length === 0) return null;
  return (
    <ActionMenu actions={visible} scope={scope} runtime={runtime}>
      <Button size="small" aria-haspopup="menu" data-testid="card-actions">
        {CARD_ACTIONS_LABEL}
        <DownOutlined />
      </Button>
    </ActionMenu>
  );
}

interface Props {
  rows: readonly Row[];
  columns: readonly Column[];
  rowKey: string;
  actions: readonly Action[];
  params: Record<string, unknown>;
  runtime: ActionRuntime;
  /** The selection, when the list has batch actions. */
  selection?: { keys: readonly Key[]; onToggle: (key: string, record: Row, selected: boolean) => void; label: (key: string) => string };
  /** The mark of a row the live stream brought, when it has one. */
  mark: (record: Row) => ReactNode;
  loading: boolean;
}

/**
 * A list at a phone's width: one card a row instead of a table that scrolls sideways under a
 * fixed 操作 column. Each card names its row (the title whole, an identifier in its monospace
 * face), shows its status and key fields as label and value, and keeps the row's actions in one
 * keyboard-reachable menu.
 */
export default function ListCards({ rows, columns, rowKey, actions, params, runtime, selection, mark, loading }: Props) {
  const { services } = runtime;
  const { title, status, fields } = cardLayout(columns);
  if (rows.length === 0 && !loading) return <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="暂无数据" />;
  return (
    <ul data-testid="list-cards" style={{ listStyle: 'none', margin: 0, padding: 0, display: 'grid', gap: 8 }}>
      {rows.map((record) => {
        const key = String(record[rowKey]);
        const scope = actionScope({ record, params }, services);
        const visible = actions.filter((action) => actionVisible(action, services.buttons, scope));
        return (
          <li key={key} data-testid="list-card" data-row-key={key} style={{ border: '1px solid #f0f0f0', borderRadius: 8, padding: '10px 12px', background: '#fff', minWidth: 0 }}>
            <div style={{ display: 'flex', alignItems: 'center', gap: 8, minWidth: 0 }}>
              {selection && (
                <Checkbox
                  checked={selection.keys.includes(key) || selection.keys.includes(record[rowKey] as Key)}
                  onChange={(event) => selection.onToggle(key, record, event.target.checked)}
                  aria-label={selection.label(key)}
                />
              )}
              <div data-testid="list-card-title" className={title && isIdentifier(title) ? `${IDENTIFIER_CLASS}-value` : undefined} style={{ fontWeight: 600, flex: '1 1 auto', minWidth: 0 }}>
                {mark(record)}
                {title ? renderCell(title, record, services) : key}
              </div>
              {status && <span style={{ flex: 'none' }}>{renderCell(status, record, services)}</span>}
            </div>
            {fields.length > 0 && (
              <dl style={{ display: 'grid', gridTemplateColumns: 'auto minmax(0, 1fr)', columnGap: 12, rowGap: 2, margin: '8px 0 0' }}>
                {fields.map((column) => (
                  <CardField key={column.field} column={column} value={renderCell(column, record, services)} />
                ))}
              </dl>
            )}
            {visible.length > 0 && (
              <div style={{ display: 'flex', justifyContent: 'flex-end', marginTop: 8 }}>
                <CardActions visible={visible} scope={scope} runtime={runtime} />
              </div>
            )}
          </li>
        );
      })}
    </ul>
  );
}

/** One key field: its label and value; an identifier whole (wrapping only where it must), free text on one line, cut. */
function CardField({ column, value }: { column: Column; value: ReactNode }) {
  const identifier = isIdentifier(column);
  // The theme's secondary text (darker than antd's 45 % grey: 4.5:1 on white at least).
  const { token } = theme.useToken();
  return (
    <>
      <dt style={{ color: token.colorTextSecondary, whiteSpace: 'nowrap' }}>{column.title}</dt>
      <dd
        className={identifier ? `${IDENTIFIER_CLASS}-value` : undefined}
        title={!identifier && (typeof value === 'string' || typeof value === 'number') ? String(value) : undefined}
        style={identifier ? { margin: 0, minWidth: 0 } : { margin: 0, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}
      >
        {value}
      </dd>
    </>
  );
}
