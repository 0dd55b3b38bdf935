import { DownOutlined } from '@ant-design/icons';
import { Button, Dropdown, Popconfirm, type MenuProps } from 'antd';
import { useState, type ReactElement } from 'react';
import type { Scope } from '../schema/template';
import type { Action } from '../schema/types';
import { ActionButton } from './ActionButton';
import { expectedFailures } from '../runtime/errorReporter';
import { actionDisabled, actionScope, runAction, type ActionRuntime } from './runAction';

/** A row shows at most this many links; the rest of its actions are under 更多. */
export const MAX_ROW_LINKS = 3;
export const MORE_LABEL = '更多';

/**
 * Which of a row's actions are links and which go under 更多: the first three the record shows
 * are links (a record's own state hides the others: 停用 or 启用, 关注 or 取消关注), the rest
 * are under 更多.
 */
export function splitRowActions(visible: readonly Action[]): { links: Action[]; more: Action[] } {
  return { links: visible.slice(0, MAX_ROW_LINKS), more: visible.slice(MAX_ROW_LINKS) };
}

/** Pixels a label takes at the table's 14 px font: a CJK character is square, Latin about half. */
export function textWidth(text: string): number {
  let width = 0;
  for (const char of text) width += /[\u2e80-\uffff]/.test(char) ? 14 : 8;
  return width;
}

/** A small link button's inline padding (ActionButton: 4 px either side). */
const LINK_PADDING = 8;
/** 更多 with its arrow icon and gap. */
const MORE_WIDTH = textWidth(MORE_LABEL) + 20 + LINK_PADDING;
/** The cell's own padding (a middle-size table: 8 px either side) and a little air. */
const CELL_PADDING = 16 + 8;

/** Beyond this many conditional actions the width is bounded instead of worked out exactly. */
const EXACT_LIMIT = 12;

/** The width of one row's links: its first three shown actions, and 更多 when there are more. */
function linksWidth(shown: readonly Action[]): number {
  const { links, more } = splitRowActions(shown);
  return links.reduce((sum, action) => sum + textWidth(action.label) + LINK_PADDING, 0) + (more.length ? MORE_WIDTH : 0);
}

/**
 * The 操作 column's width for the page's permitted row actions: wide enough for the widest set of
 * links any row can show, on one line. An action without a `visibleWhen` shows on every row; the
 * conditional ones are tried shown and hidden (a user's 重置密码 only while active, say).
 */
export function rowActionsWidth(permitted: readonly Action[]): number {
  if (permitted.length === 0) return 0;
  const conditional = permitted.flatMap((action, index) => (action.visibleWhen ? [index] : []));
  if (conditional.length > EXACT_LIMIT) {
    const widest = permitted.map((action) => textWidth(action.label) + LINK_PADDING).sort((a, b) => b - a);
    return widest.slice(0, MAX_ROW_LINKS).reduce((sum, w) => sum + w, 0) + (permitted.length > MAX_ROW_LINKS ? MORE_WIDTH : 0) + CELL_PADDING;
  }
  let widest = 0;
  for (let mask = 0; mask < 1 << conditional.length; mask += 1) {
    const hidden = new Set(conditional.filter((_, bit) => !(mask & (1 << bit))));
    widest = Math.max(widest, linksWidth(permitted.filter((_, index) => !hidden.has(index))));
  }
  return widest + CELL_PADDING;
}

interface Props {
  /** The actions this record shows (permitted, condition holds), in the page's order. */
  visible: readonly Action[];
  scope: Scope;
  runtime: ActionRuntime;
}

/**
 * A row's actions on one line: at most three links, the rest under 更多 (a keyboard-reachable
 * menu). An entry of 更多 that asks first asks as a link does: a confirmation popover, here at 更多.
 */
export function RowActions({ visible, scope, runtime }: Props) {
  const { links, more } = splitRowActions(visible);
  return (
    <span style={{ display: 'inline-flex', flexWrap: 'nowrap', whiteSpace: 'nowrap', alignItems: 'center' }} data-testid="row-actions">
      {links.map((action) => (
        <ActionButton key={action.label} action={action} scope={scope} runtime={runtime} variant="link" />
      ))}
      {more.length > 0 && (
        <ActionMenu actions={more} scope={scope} runtime={runtime}>
          <Button type="link" size="small" style={{ paddingInline: 4 }} aria-haspopup="menu">
            {MORE_LABEL}
            <DownOutlined />
          </Button>
        </ActionMenu>
      )}
    </span>
  );
}

/**
 * Actions as a keyboard-reachable menu opened by its trigger (a row's 更多, a card's 操作 at phone
 * width): an entry that asks first asks as a link does, in a confirmation popover at the trigger.
 */
export function ActionMenu({ actions, scope, runtime, children }: { actions: readonly Action[]; scope: Scope; runtime: ActionRuntime; children: ReactElement }) {
  const [asking, setAsking] = useState<Action | null>(null);
  const go = (action: Action) => runAction(action, scope, runtime).catch(expectedFailures(`操作 ${action.label}`));
  const run = (action: Action) => {
    if (action.confirm) setAsking(action);
    else void go(action);
  };
  const full = actionScope(scope, runtime.services);
  const items: MenuProps['items'] = actions.map((action, index) => ({ key: String(index), label: action.label, danger: action.danger, disabled: actionDisabled(action, full) }));
  return (
    <Popconfirm
      open={asking !== null}
      title={asking?.confirm}
      // 确定 and 取消: the console's zh_CN locale (ConfigProvider in src/app/App.tsx) names them.
      okButtonProps={{ danger: asking?.danger }}
      onConfirm={() => {
        const action = asking;
        setAsking(null);
        return action ? go(action) : undefined;
      }}
      onCancel={() => setAsking(null)}
      // Opened only by a menu entry, never by clicking the trigger itself.
      onOpenChange={(open) => {
        if (!open) setAsking(null);
      }}
    >
      <Dropdown trigger={['click']} autoFocus menu={{ items, onClick: ({ key }) => run(actions[Number(key)]) }}>
        {children}
      </Dropdown>
    </Popconfirm>
  );
}
