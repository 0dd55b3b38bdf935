import { Alert } from 'antd';
import type { LoginFeedback } from './loginAttempts';

/**
 * A refused sign-in, told in the form until the next attempt. Its own chunk: antd's Alert and its
 * icons load on the first refusal, not in /login's first paint (issue 8's budget).
 */
export function LoginFeedbackAlert({ feedback }: { feedback: LoginFeedback }) {
  return (
    <Alert
      type={feedback.type}
      showIcon
      message={feedback.message}
      description={feedback.description}
      style={{ marginBottom: 16 }}
      data-testid={feedback.locked ? 'login-locked' : 'login-refused'}
    />
  );
}
