import { Form, Input, Space, type FormInstance } from 'antd';
import { useRef } from 'react';
import { api } from '../../api/client';
import { told } from '../../api/failures';
import { notify } from '../../api/notifier';
import { CodeSendButton } from '../../widgets/CodeSendButton';
import { confirms, mail, MESSAGES, password, phone, required, verificationCode } from '../../validation/rules';
import { CAPTCHA_FIELD, CAPTCHA_REQUIRED, CaptchaField, type CaptchaHandle } from './CaptchaField';
import { antdRule } from './formRules';
import { expectedOr } from '../../../renderers/runtime/errorReporter';

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

/**
 * What ties an anonymous code request to its flow (issue 18): the image captcha (forgot password)
 * or the bind key of the WeChat scan being registered.
 */
export type CodeProof = { kind: 'captcha' } | { kind: 'bindKey'; bindKey: string };

/** A phone number or mail address and the code sent to it. */
export function AccountCodeFields({ form, channel, name, proof }: { form: FormInstance; channel: Channel; name: string; proof: CodeProof }) {
  const spec = CHANNELS[channel];
  const captcha = useRef<CaptchaHandle>(null);

  /** The account is valid and, with a captcha, its answer is given (checked only when sending). */
  const readyToSend = async (): Promise<boolean> => {
    const account = await form
      .validateFields([name])
      .then(() => true)
      .catch(expectedOr(false, '账号'));
    if (!account || proof.kind !== 'captcha') return account;
    if (String(form.getFieldValue(CAPTCHA_FIELD) ?? '').trim()) return true;
    form.setFields([{ name: CAPTCHA_FIELD, errors: [CAPTCHA_REQUIRED] }]);
    return false;
  };

  const send = async () => {
    const target = String(form.getFieldValue(name)).trim();
    if (proof.kind === 'bindKey') {
      // A call outside the cache (the operation is the channel's): its failure is told here.
      await told(api.call(spec.operation, { target, bindKey: proof.bindKey }));
    } else {
      const captchaUuid = captcha.current?.uuid() ?? '';
      const captchaCode = String(form.getFieldValue(CAPTCHA_FIELD) ?? '').trim();
      // A captcha is good for one try, whatever the answer: the next send needs a new one.
      try {
        await told(api.call(spec.operation, { target, captchaUuid, captchaCode }));
      } finally {
        captcha.current?.refresh();
      }
    }
    notify.success('验证码发送成功');
  };

  return (
    <>
      <Form.Item name={name} label={spec.label} rules={[antdRule(spec.rule)]}>
        <Input placeholder={spec.placeholder} autoComplete={channel === 'phone' ? 'tel' : 'email'} />
      </Form.Item>
      {proof.kind === 'captcha' && <CaptchaField ref={captcha} />}
      <Form.Item label="验证码" required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item name="code" noStyle rules={[antdRule(verificationCode)]}>
            <Input placeholder="请输入验证码" maxLength={6} inputMode="numeric" />
          </Form.Item>
          <CodeSendButton beforeSend={readyToSend} send={send} />
        </Space.Compact>
      </Form.Item>
    </>
  );
}
