import { Button, Form, Input, Modal, Popconfirm, Space, Typography } from 'antd';
import { useState } from 'react';
import { useOperationMutation } from '../api/data';
import { notify } from '../api/notifier';
import { maskPhone } from '../format/phone';
import { antdRule } from '../screens/public/formRules';
import { MESSAGES, verificationCode } from '../validation/rules';
import { CodeSendButton } from '../widgets/CodeSendButton';
import { ACCOUNT_MESSAGES, dialogPhone } from './accountRules';
import { expectedFailures, expectedOr } from '../../renderers/runtime/errorReporter';

export interface PhoneDialogProps {
  open: boolean;
  /** The user's current number: empty binds a number (mode 1), otherwise changes it (mode 2). */
  currentPhone?: string | null;
  onClose: () => void;
  /** Told after the server has set the number. */
  onChanged: (phoneNumber: string) => void;
}

/** The phone change form state of SPEC §3. */
interface PhoneForm {
  codeOld?: string;
  phoneNumber?: string;
  code?: string;
}

export const VOICE_CODE_CONFIRM = '即将发送语音验证码';

/**
 * SPEC §4 "Phone change". Mode 1 (no number): phone, code, confirm. Mode 2: step A verifies the old
 * number with a code sent to it (校验成功！), then step B asks for a new, different number and a code
 * sent to it. Closing resets every flag and code; editing the number resets its code.
 */
export function PhoneDialog({ open, currentPhone, onClose, onChanged }: PhoneDialogProps) {
  const [form] = Form.useForm<PhoneForm>();
  const oldPhone = currentPhone?.trim() || '';
  const changing = Boolean(oldPhone);
  const [verified, setVerified] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const sendSmsCode = useOperationMutation('verification.sms.send');
  const sendVoiceCode = useOperationMutation('verification.voice.send');
  const verifyPhone = useOperationMutation('verification.phone.verify');
  const modifyPhone = useOperationMutation('user.phone.modify', { invalidates: ['user.detail'] });
  // Remounting with a new key resets the code buttons (pressed, counting down).
  const [round, setRound] = useState(0);
  const [newCodeRound, setNewCodeRound] = useState(0);
  const askingNew = !changing || verified;

  const reset = () => {
    form.resetFields();
    setVerified(false);
    setRound((r) => r + 1);
  };

  const close = () => {
    reset();
    onClose();
  };

  const phoneValid = () =>
    form
      .validateFields(['phoneNumber'])
      .then(() => true)
      .catch(expectedOr(false, '修改手机号'));

  const newPhone = () => String(form.getFieldValue('phoneNumber') ?? '').trim();

  const sendSms = async (phone: string) => {
    await sendSmsCode.mutateAsync(phone);
    notify.success(ACCOUNT_MESSAGES.smsSent);
  };

  const sendVoice = async () => {
    const phone = askingNew ? newPhone() : oldPhone;
    if (!phone) {
      notify.warning(MESSAGES.phoneRequired);
      return;
    }
    if (askingNew && !(await phoneValid())) return;
    try {
      await sendVoiceCode.mutateAsync(phone);
      notify.success(ACCOUNT_MESSAGES.smsSent);
    } catch (error) {
      expectedFailures('修改手机号')(error);
      /* told by the cache */
    }
  };

  const verifyOld = async () => {
    const { codeOld } = await form.validateFields(['codeOld']).catch(expectedOr({ codeOld: undefined }, '修改手机号'));
    if (!codeOld) return;
    setVerifying(true);
    try {
      await verifyPhone.mutateAsync({ uuid: oldPhone, code: codeOld.trim() });
      notify.success(ACCOUNT_MESSAGES.verified);
      form.setFieldsValue({ phoneNumber: undefined, code: undefined });
      setNewCodeRound((r) => r + 1);
      setVerified(true);
    } catch (error) {
      expectedFailures('修改手机号')(error);
      /* told by the cache; the code stays for another try */
    } finally {
      setVerifying(false);
    }
  };

  const submit = async () => {
    const values = await form.validateFields(['phoneNumber', 'code']).catch(expectedOr(null, '修改手机号'));
    if (!values?.phoneNumber || !values.code) return;
    const phoneNumber = values.phoneNumber.trim();
    setSubmitting(true);
    try {
      await modifyPhone.mutateAsync({ phoneNumber, code: values.code.trim() });
      notify.success(ACCOUNT_MESSAGES.set);
      reset();
      onChanged(phoneNumber);
      onClose();
    } catch (error) {
      expectedFailures('修改手机号')(error);
      /* told by the cache; the input stays */
    } finally {
      setSubmitting(false);
    }
  };

  const numberChanged = (changed: Partial<PhoneForm>) => {
    if (!('phoneNumber' in changed)) return;
    form.setFieldValue('code', undefined);
    setNewCodeRound((r) => r + 1);
  };

  const footer = (
    <Space>
      <Button onClick={close}>取消</Button>
      {askingNew ? (
        <Button type="primary" loading={submitting} onClick={() => void submit()}>
          确定
        </Button>
      ) : (
        <Button type="primary" loading={verifying} onClick={() => void verifyOld()}>
          下一步
        </Button>
      )}
    </Space>
  );

  return (
    <Modal open={open} title={changing ? '修改手机号' : '绑定手机号'} onCancel={close} footer={footer} width={480} destroyOnHidden>
      <Form<PhoneForm> key={round} form={form} layout="vertical" onValuesChange={numberChanged} requiredMark={false}>
        {changing && (
          <>
            <Form.Item label="原手机号">
              <Input value={maskPhone(oldPhone)} disabled data-testid="old-phone" />
            </Form.Item>
            <Form.Item label="验证码" required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="codeOld" noStyle rules={[antdRule(verificationCode)]}>
                  <Input placeholder="请输入验证码" maxLength={6} inputMode="numeric" disabled={verified} aria-label="原手机号验证码" />
                </Form.Item>
                <CodeSendButton disabled={verified} send={() => sendSms(oldPhone)} />
              </Space.Compact>
            </Form.Item>
          </>
        )}
        {askingNew && (
          <>
            <Form.Item
              name="phoneNumber"
              label={changing ? '新手机号' : '手机号'}
              rules={[antdRule(dialogPhone(changing ? MESSAGES.newPhoneRequired : MESSAGES.phoneRequired, oldPhone))]}
            >
              <Input placeholder={changing ? '请输入新手机号' : '请输入手机号'} maxLength={11} inputMode="tel" autoComplete="tel" />
            </Form.Item>
            <Form.Item label="验证码" required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="code" noStyle rules={[antdRule(verificationCode)]}>
                  <Input placeholder="请输入验证码" maxLength={6} inputMode="numeric" aria-label="验证码" />
                </Form.Item>
                <CodeSendButton key={newCodeRound} beforeSend={phoneValid} send={() => sendSms(newPhone())} />
              </Space.Compact>
            </Form.Item>
          </>
        )}
        <Popconfirm title={VOICE_CODE_CONFIRM} okText="确认" cancelText="取消" onConfirm={() => sendVoice()}>
          <Typography.Link>收不到验证码？</Typography.Link>
        </Popconfirm>
      </Form>
    </Modal>
  );
}
