import { Button } from 'antd';
import { useEffect, useState } from 'react';
import { expectedFailures } from '../../renderers/runtime/errorReporter';

/** Seconds before another code can be requested (the server allows one per target per 60 s). */
export const RESEND_SECONDS = 60;

interface Props {
  /** Sends the code; a rejection re-enables the button (SPEC §4, §8). */
  send: () => Promise<unknown>;
  /** Checked before sending; answering false leaves the button enabled. */
  beforeSend?: () => Promise<boolean> | boolean;
  disabled?: boolean;
  label?: string;
}

/** "获取验证码": disabled once pressed, counting down after a successful send. */
export function CodeSendButton({ send, beforeSend, disabled, label = '获取验证码' }: Props) {
  const [sending, setSending] = useState(false);
  const [secondsLeft, setSecondsLeft] = useState(0);

  useEffect(() => {
    if (secondsLeft <= 0) return;
    const timer = setTimeout(() => setSecondsLeft((s) => s - 1), 1000);
    return () => clearTimeout(timer);
  }, [secondsLeft]);

  const press = async () => {
    if (beforeSend && !(await beforeSend())) return;
    setSending(true);
    try {
      await send();
      setSecondsLeft(RESEND_SECONDS);
    } catch (error) {
      expectedFailures('发送验证码')(error);
      /* the http client has shown the reason; the button is usable again */
    } finally {
      setSending(false);
    }
  };

  const counting = secondsLeft > 0;
  return (
    <Button onClick={() => void press()} loading={sending} disabled={disabled || sending || counting} style={{ minWidth: 120 }}>
      {counting ? `${secondsLeft}秒后重新获取` : label}
    </Button>
  );
}
