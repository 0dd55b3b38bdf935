import { Button, Form, Input } from 'antd';
import { useState } from 'react';
import { MESSAGES, required } from '../../validation/rules';
import { AccountCodeFields, NewPasswordFields } from './fields';
import { antdRule } from './formRules';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';

export interface Registration {
  tenantName: string;
  userName: string;
  phoneNumber: string;
  code: string;
  password: string;
}

/**
 * Registers a new tenant and its administrator, bound to the scanned WeChat account: the scan's
 * bind key is what lets the code go to a phone nobody owns yet.
 */
export function RegisterForm({ bindKey, onSubmit }: { bindKey: string; onSubmit: (values: Registration) => Promise<void> }) {
  const [form] = Form.useForm<Registration & { confirmPassword: string }>();
  const [submitting, setSubmitting] = useState(false);
  const submit = async ({ confirmPassword: _confirm, ...values }: Registration & { confirmPassword: string }) => {
    setSubmitting(true);
    try {
      await onSubmit({ ...values, tenantName: values.tenantName.trim(), userName: values.userName.trim() });
    } catch (error) {
      expectedFailures('注册')(error);
      /* the message has been shown; the input stays */
    } finally {
      setSubmitting(false);
    }
  };
  return (
    <Form form={form} layout="vertical" onFinish={(values) => void submit(values)}>
      <Form.Item name="tenantName" label="企业名称" rules={[antdRule(required('请输入企业名称'))]}>
        <Input maxLength={64} placeholder="请输入企业名称" />
      </Form.Item>
      <Form.Item name="userName" label="用户名称" rules={[antdRule(required(MESSAGES.userNameRequired))]}>
        <Input maxLength={32} placeholder="请输入用户名称" />
      </Form.Item>
      <AccountCodeFields form={form} channel="phone" name="phoneNumber" proof={{ kind: 'bindKey', bindKey }} />
      <NewPasswordFields label="密码" />
      <Button type="primary" htmlType="submit" block loading={submitting}>
        注册并登录
      </Button>
    </Form>
  );
}
