import { Button, Form, Input, Modal, Space } from 'antd';
import { useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { useOperationMutation } from '../api/data';
import { notify } from '../api/notifier';
import { antdRule } from '../screens/public/formRules';
import { logout } from '../session/session';
import { all, confirms, MESSAGES, password, passwordFormat, required } from '../validation/rules';
import { ACCOUNT_MESSAGES } from './accountRules';
import { expectedFailures, expectedOr } from '../../renderers/runtime/errorReporter';

export interface PasswordDialogProps {
  open: boolean;
  onClose: () => void;
}

interface PasswordForm {
  oldPassWord?: string;
  updatePassWord?: string;
  confirmPassWord?: string;
}

/** SPEC §5 "Change password" in the main frame; SPEC §8: 修改成功, then back to login. */
export function PasswordDialog({ open, onClose }: PasswordDialogProps) {
  const [form] = Form.useForm<PasswordForm>();
  const [submitting, setSubmitting] = useState(false);
  const navigate = useNavigate();
  const changePassword = useOperationMutation('user.password.update');

  const close = () => {
    form.resetFields();
    onClose();
  };

  const submit = async () => {
    const values = await form.validateFields().catch(expectedOr(null, '修改密码'));
    if (!values?.oldPassWord || !values.updatePassWord) return;
    setSubmitting(true);
    try {
      await changePassword.mutateAsync({ oldPassWord: values.oldPassWord, updatePassWord: values.updatePassWord });
    } catch (error) {
      expectedFailures('修改密码')(error);
      setSubmitting(false);
      return;
    }
    notify.success(ACCOUNT_MESSAGES.passwordChanged);
    form.resetFields();
    onClose();
    await logout();
    navigate('/login', { replace: true });
  };

  return (
    <Modal
      open={open}
      title="修改密码"
      onCancel={close}
      width={440}
      destroyOnHidden
      footer={
        <Space>
          <Button onClick={close}>取消</Button>
          <Button type="primary" loading={submitting} onClick={() => void submit()}>
            确定
          </Button>
        </Space>
      }
    >
      <Form<PasswordForm> form={form} layout="vertical">
        <Form.Item name="oldPassWord" label="旧密码" rules={[antdRule(required(MESSAGES.oldPasswordRequired))]}>
          <Input.Password placeholder="请输入旧密码" autoComplete="current-password" />
        </Form.Item>
        <Form.Item name="updatePassWord" label="新密码" rules={[antdRule(all(required(MESSAGES.newPasswordRequired), passwordFormat))]}>
          <Input.Password placeholder="8-16位，须包含数字、字母、符号中至少2种" autoComplete="new-password" />
        </Form.Item>
        <Form.Item
          name="confirmPassWord"
          label="确认密码"
          dependencies={['updatePassWord']}
          rules={[antdRule(password), ({ getFieldValue }) => antdRule(confirms(getFieldValue('updatePassWord')))]}
        >
          <Input.Password placeholder="请再次输入新密码" autoComplete="new-password" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
