import { Button, Popconfirm } from 'antd';
import { useState } from 'react';
import type { Scope } from '../schema/template';
import type { Action } from '../schema/types';
import { expectedFailures } from '../runtime/errorReporter';
import { ACTION_ICONS } from './icons';
import { actionDisabled, actionScope, runAction, type ActionRuntime } from './runAction';

interface Props {
  action: Action;
  scope: Scope;
  runtime: ActionRuntime;
  /** Row actions are links; toolbar actions are buttons. */
  variant?: 'link' | 'button';
  /** Disabled whatever the action's `disabledWhen` says (a batch action with nothing selected). */
  disabled?: boolean;
}

/** One schema action as a button: confirmation first where it asks, busy while it runs. */
export function ActionButton({ action, scope, runtime, variant = 'button', disabled: forced }: Props) {
  const [busy, setBusy] = useState(false);
  const disabled = forced || actionDisabled(action, actionScope(scope, runtime.services));
  const [progress, setProgress] = useState<number | null>(null);
  const run = async () => {
    setBusy(true);
    setProgress(null);
    try {
      await runAction(action, scope, { ...runtime, onProgress: (fraction) => setProgress(fraction) });
    } catch (error) {
      // A failed call was told by the http client; anything else is a programming error, reported.
      expectedFailures(`操作 ${action.label}`)(error);
    } finally {
      setBusy(false);
      setProgress(null);
    }
  };
  const label = busy && action.type === 'download' && progress !== null ? `${action.label} ${Math.round(progress * 100)}%` : action.label;
  // A toolbar button shows its icon (hidden from the accessible name: the label says it); a row's links stay text.
  const Icon = variant === 'button' && action.icon ? ACTION_ICONS[action.icon] : undefined;
  const button = (
    <Button
      icon={Icon ? <Icon aria-hidden /> : undefined}
      type={variant === 'link' ? 'link' : action.primary ? 'primary' : 'default'}
      size={variant === 'link' ? 'small' : 'middle'}
      danger={action.danger}
      loading={busy}
      disabled={disabled}
      onClick={action.confirm ? undefined : () => void run()}
      style={variant === 'link' ? { paddingInline: 4 } : undefined}
    >
      {label}
    </Button>
  );
  if (action.confirm) {
    return (
      <Popconfirm title={action.confirm} okText="确定" cancelText="取消" onConfirm={() => run()} disabled={disabled}>
        {button}
      </Popconfirm>
    );
  }
  return button;
}
