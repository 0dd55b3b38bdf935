import { Button, Form, Tabs } from 'antd';
import { useState } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { useOperationMutation } from '../../api/data';
import { notify } from '../../api/notifier';
import { AccountCodeFields, NewPasswordFields } from './fields';
import { PublicShell } from './PublicShell';
import { WechatQrPanel } from './WechatQrPanel';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';

type Way = 'mail' | 'phone' | 'wechat';

interface ResetValues {
  account?: string;
  code?: string;
  password: string;
  confirmPassword: string;
}

/** SPEC §8: 修改成功, then back to login. */
export const PASSWORD_CHANGED_MESSAGE = '修改成功';

function ResetForm({ way }: { way: Way }) {
  const [form] = Form.useForm<ResetValues>();
  const [ticket, setTicket] = useState('');
  const [submitting, setSubmitting] = useState(false);
  const navigate = useNavigate();
  const resetPassword = useOperationMutation('user.password.forget');

  const submit = async ({ confirmPassword: _confirm, account, code, password }: ResetValues) => {
    setSubmitting(true);
    try {
      const param = way === 'wechat' ? { way, ticket, password } : { way, account: account?.trim(), code: code?.trim(), password };
      await resetPassword.mutateAsync(param);
      notify.success(PASSWORD_CHANGED_MESSAGE);
      navigate('/login', { replace: true });
    } catch (error) {
      expectedFailures('忘记密码')(error);
      /* told by the cache; the input stays */
    } finally {
      setSubmitting(false);
    }
  };

  return (
    <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
      {way === 'wechat' ? (
        <Form.Item>
          <WechatQrPanel hint="请使用已绑定账号的微信扫码，然后设置新密码" onTicket={setTicket} />
        </Form.Item>
      ) : (
        <AccountCodeFields form={form} channel={way} name="account" proof={{ kind: 'captcha' }} />
      )}
      <NewPasswordFields />
      <Button type="primary" htmlType="submit" block loading={submitting}>
        重置密码
      </Button>
    </Form>
  );
}

export default function ForgotPasswordPage() {
  return (
    <PublicShell title="找回密码" width={460}>
      <Tabs
        destroyOnHidden
        items={[
          { key: 'mail', label: '邮箱找回', children: <ResetForm way="mail" /> },
          { key: 'phone', label: '手机找回', children: <ResetForm way="phone" /> },
          { key: 'wechat', label: '微信找回', children: <ResetForm way="wechat" /> },
        ]}
      />
      <div style={{ marginTop: 16, textAlign: 'right' }}>
        <Link to="/login">返回登录</Link>
      </div>
    </PublicShell>
  );
}
