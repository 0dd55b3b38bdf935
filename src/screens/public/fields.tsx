import { Form, Input, Space, type FormInstance } from 'antd';
import { api } from '../../api/client';
import { notify } from '../../api/notifier';
import { CodeSendButton } from '../../widgets/CodeSendButton';
import { confirms, mail, MESSAGES, password, phone, required, verificationCode } from '../../validation/rules';
import { antdRule } from './formRules';

/** New password and its confirmation, both under the SPEC §5 password rule. */
export function NewPasswordFields({ name = 'password', label = '新密码' }: { name?: string; label?: string }) {
  return (
    <>
      <Form.Item name={name} label={label} rules={[antdRule(password)]} hasFeedback>
        <Input.Password placeholder="8-16位，须包含数字、字母、符号中至少2种" autoComplete="new-password" />
      </Form.Item>
      <Form.Item
        name="confirmPassword"
        label="确认密码"
        dependencies={[name]}
        hasFeedback
        rules={[
          antdRule(password),
          ({ getFieldValue }) => antdRule(confirms(getFieldValue(name))),
        ]}
      >
        <Input.Password placeholder="请再次输入密码" autoComplete="new-password" />
      </Form.Item>
    </>
  );
}

type Channel = 'phone' | 'mail';

const CHANNELS: Record<Channel, { operation: string; label: string; rule: typeof phone; placeholder: string }> = {
  phone: { operation: 'verification.sms.send', label: '手机号', rule: phone, placeholder: '请输入手机号' },
  mail: {
    operation: 'verification.mail.send',
    label: '邮箱',
    rule: (value) => required(MESSAGES.mailRequired)(value) ?? mail(value),
    placeholder: '请输入邮箱',
  },
};

/** A phone number or mail address and the code sent to it. */
export function AccountCodeFields({ form, channel, name }: { form: FormInstance; channel: Channel; name: string }) {
  const spec = CHANNELS[channel];
  return (
    <>
      <Form.Item name={name} label={spec.label} rules={[antdRule(spec.rule)]}>
        <Input placeholder={spec.placeholder} autoComplete={channel === 'phone' ? 'tel' : 'email'} />
      </Form.Item>
      <Form.Item label="验证码" required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" noStyle rules={[antdRule(verificationCode)]}>
            <Input placeholder="请输入验证码" maxLength={6} inputMode="numeric" />
          </Form.Item>
          <CodeSendButton
            beforeSend={() =>
              form
                .validateFields([name])
                .then(() => true)
                .catch(() => false)
            }
            send={async () => {
              await api.call(spec.operation, String(form.getFieldValue(name)).trim());
              notify.success('验证码发送成功');
            }}
          />
        </Space.Compact>
      </Form.Item>
    </>
  );
}
