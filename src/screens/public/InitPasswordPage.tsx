import { Alert, Button, Form, Input } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useOperationMutation } from '../../api/data';
import { notify } from '../../api/notifier';
import { markPasswordChanged } from '../../session/session';
import { MESSAGES, required } from '../../validation/rules';
import { NewPasswordFields } from './fields';
import { antdRule } from './formRules';
import { PASSWORD_CHANGED_MESSAGE } from './ForgotPasswordPage';
import { PublicShell } from './PublicShell';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';

interface ChangeValues {
  oldPassWord: string;
  updatePassWord: string;
  confirmPassword: string;
}

/** SPEC §2: the forced password change. Leaving it for anything but /dashboard ends the session. */
export default function InitPasswordPage() {
  const [submitting, setSubmitting] = useState(false);
  const navigate = useNavigate();
  const changePassword = useOperationMutation('user.password.update');

  const submit = async ({ oldPassWord, updatePassWord }: ChangeValues) => {
    setSubmitting(true);
    try {
      await changePassword.mutateAsync({ oldPassWord, updatePassWord });
      notify.success(PASSWORD_CHANGED_MESSAGE);
      markPasswordChanged();
      navigate('/dashboard', { replace: true });
    } catch (error) {
      expectedFailures('初始化密码')(error);
      /* told by the cache; the input stays */
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <PublicShell title="修改初始密码" width={460}>
      <Alert type="warning" showIcon message="为了账号安全，首次登录请修改密码后再使用。" style={{ marginBottom: 16 }} />
      <Form<ChangeValues> layout="vertical" onFinish={(values) => void submit(values)}>
        <Form.Item name="oldPassWord" label="旧密码" rules={[antdRule(required(MESSAGES.oldPasswordRequired))]}>
          <Input.Password autoComplete="current-password" placeholder="请输入旧密码" />
        </Form.Item>
        <NewPasswordFields name="updatePassWord" />
        <Button type="primary" htmlType="submit" block loading={submitting}>
          确认修改
        </Button>
      </Form>
      <div style={{ marginTop: 16, textAlign: 'right' }}>
        <Link to="/login">退出登录</Link>
      </div>
    </PublicShell>
  );
}
