import { Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useOperationMutation } from '../api/data';
import { notify } from '../api/notifier';
import { antdRule } from '../screens/public/formRules';
import { MESSAGES, verificationCode } from '../validation/rules';
import { CodeSendButton } from '../widgets/CodeSendButton';
import { ACCOUNT_MESSAGES, dialogMail } from './accountRules';
import { expectedFailures, expectedOr } from '../../renderers/runtime/errorReporter';

export interface MailDialogProps {
  open: boolean;
  /** The user's current mail: empty binds one, otherwise the old mail is verified first. */
  currentMail?: string | null;
  onClose: () => void;
  /** Told after the server has set the mail. */
  onChanged: (mail: string) => void;
}

interface MailForm {
  codeOld?: string;
  mail?: string;
  code?: string;
}

/**
 * SPEC §4 "Mail change". With a mail: send a code to the old mail, verify it (the new-mail fields
 * then unlock), send a code to the new mail, submit. Without: mail, code, submit.
 */
export function MailDialog({ open, currentMail, onClose, onChanged }: MailDialogProps) {
  const [form] = Form.useForm<MailForm>();
  const oldMail = currentMail?.trim() || '';
  const changing = Boolean(oldMail);
  const [verified, setVerified] = useState(false);
  const [verifying, setVerifying] = useState(false);
  const [submitting, setSubmitting] = useState(false);
  const sendMailCode = useOperationMutation('verification.mail.send');
  const checkMailCode = useOperationMutation('verification.captcha.check');
  const modifyMail = useOperationMutation('user.mail.modify', { invalidates: ['user.detail'] });
  const [round, setRound] = useState(0);
  const [newCodeRound, setNewCodeRound] = useState(0);
  const unlocked = !changing || verified;

  const reset = () => {
    form.resetFields();
    setVerified(false);
    setRound((r) => r + 1);
  };

  const close = () => {
    reset();
    onClose();
  };

  const sendMail = async (mail: string) => {
    await sendMailCode.mutateAsync(mail);
    notify.success(ACCOUNT_MESSAGES.mailSent);
  };

  const mailValid = () =>
    form
      .validateFields(['mail'])
      .then(() => true)
      .catch(expectedOr(false, '修改邮箱'));

  const verifyOld = async () => {
    const { codeOld } = await form.validateFields(['codeOld']).catch(expectedOr({ codeOld: undefined }, '修改邮箱'));
    if (!codeOld) return;
    setVerifying(true);
    try {
      await checkMailCode.mutateAsync({ uuid: oldMail, code: codeOld.trim() });
      notify.success(ACCOUNT_MESSAGES.verified);
      setVerified(true);
    } catch (error) {
      expectedFailures('修改邮箱')(error);
      /* told by the cache */
    } finally {
      setVerifying(false);
    }
  };

  const submit = async () => {
    const values = await form.validateFields(['mail', 'code']).catch(expectedOr(null, '修改邮箱'));
    if (!values?.mail || !values.code) return;
    const mail = values.mail.trim();
    setSubmitting(true);
    try {
      await modifyMail.mutateAsync({ mail, code: values.code.trim() });
      notify.success(ACCOUNT_MESSAGES.set);
      reset();
      onChanged(mail);
      onClose();
    } catch (error) {
      expectedFailures('修改邮箱')(error);
      /* told by the cache; the input stays */
    } finally {
      setSubmitting(false);
    }
  };

  const mailChanged = (changed: Partial<MailForm>) => {
    if (!('mail' in changed)) return;
    form.setFieldValue('code', undefined);
    setNewCodeRound((r) => r + 1);
  };

  return (
    <Modal
      open={open}
      title={changing ? '修改邮箱' : '绑定邮箱'}
      onCancel={close}
      width={480}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>取消</Button>
          <Button type="primary" disabled={!unlocked} loading={submitting} onClick={() => void submit()}>
            确定
          </Button>
        </Space>
      }
    >
      <Form<MailForm> key={round} form={form} layout="vertical" onValuesChange={mailChanged} requiredMark={false}>
        {changing && (
          <>
            <Form.Item label="原邮箱">
              <Input value={oldMail} disabled data-testid="old-mail" />
            </Form.Item>
            <Form.Item label="验证码" required>
              <Space.Compact style={{ width: '100%' }}>
                <Form.Item name="codeOld" noStyle rules={[antdRule(verificationCode)]}>
                  <Input placeholder="请输入验证码" disabled={verified} aria-label="原邮箱验证码" />
                </Form.Item>
                <CodeSendButton disabled={verified} send={() => sendMail(oldMail)} />
                <Button type="primary" ghost disabled={verified} loading={verifying} onClick={() => void verifyOld()}>
                  校验
                </Button>
              </Space.Compact>
            </Form.Item>
          </>
        )}
        <Form.Item name="mail" label={changing ? '新邮箱' : '邮箱'} rules={[antdRule(dialogMail(changing ? MESSAGES.newMailRequired : MESSAGES.mailRequired, oldMail))]}>
          <Input placeholder={changing ? '请输入新邮箱' : '请输入邮箱'} disabled={!unlocked} autoComplete="email" />
        </Form.Item>
        <Form.Item label="验证码" required>
          <Space.Compact style={{ width: '100%' }}>
            <Form.Item name="code" noStyle rules={[antdRule(verificationCode)]}>
              <Input placeholder="请输入验证码" disabled={!unlocked} aria-label="验证码" />
            </Form.Item>
            <CodeSendButton key={newCodeRound} disabled={!unlocked} beforeSend={mailValid} send={() => sendMail(String(form.getFieldValue('mail') ?? '').trim())} />
          </Space.Compact>
        </Form.Item>
      </Form>
    </Modal>
  );
}
