import { CopyOutlined, EditOutlined, UploadOutlined, UserOutlined } from '@ant-design/icons';
import { Avatar, Button, Descriptions, Drawer, Form, Input, Space, Typography, Upload } from 'antd';
import { useAtom } from 'jotai';
import { useState } from 'react';
import { api } from '../api/client';
import { useOperationMutation, useOperationQuery } from '../api/data';
import { told } from '../api/failures';
import { notify } from '../api/notifier';
import { useConsoleFileUrls } from '../format/useConsoleFileUrls';
import { maskPhone, NO_VALUE } from '../format/phone';
import { antdRule } from '../screens/public/formRules';
import { sessionAtom } from '../session/session';
import type { UserInfo } from '../session/types';
import { avatarFile, AVATAR_TYPES, nickname } from '../validation/rules';
import { ACCOUNT_MESSAGES } from './accountRules';
import { copyToClipboard } from './clipboard';
import { MailDialog } from './MailDialog';
import { PasswordDialog } from './PasswordDialog';
import { PhoneDialog } from './PhoneDialog';
import { expectedFailures } from '../../renderers/runtime/errorReporter';

/** SPEC §6: only these roles see the open-platform access key. */
export const ACCESS_KEY_ROLES: readonly string[] = ['TENANT_ADMIN', 'ROLE_TENANT_ORDINARY'];
/** SPEC §9: the access key is shown masked until viewed. */
export const MASKED_ACCESS_KEY = '************************';
export const AVATAR_HINT = '请上传大于500*500像素的图片，仅支持JPEG、PNG和SVG格式';

export interface AccountDrawerProps {
  open: boolean;
  onClose: () => void;
}

export function canSeeAccessKey(roles: readonly string[] | undefined): boolean {
  return (roles ?? []).some((role) => ACCESS_KEY_ROLES.includes(role));
}

type Dialog = 'phone' | 'mail' | 'password' | null;

function NicknameEditor({ value, onSaved }: { value: string; onSaved: (name: string) => void }) {
  const [editing, setEditing] = useState(false);
  const rename = useOperationMutation('user.name.update', { invalidates: ['user.detail'] });
  const saving = rename.isPending;
  const [form] = Form.useForm<{ userName: string }>();

  const save = async ({ userName }: { userName: string }) => {
    const name = userName.trim();
    try {
      await rename.mutateAsync(name);
      notify.success(ACCOUNT_MESSAGES.edited);
      onSaved(name);
      setEditing(false);
    } catch (error) {
      expectedFailures('个人信息')(error);
      /* told by the cache; the input stays */
    }
  };

  if (!editing) {
    return (
      <Space>
        <Typography.Text data-testid="nickname">{value || NO_VALUE}</Typography.Text>
        <Button type="link" size="small" icon={<EditOutlined />} onClick={() => setEditing(true)} aria-label="编辑昵称">
          编辑
        </Button>
      </Space>
    );
  }
  return (
    <Form form={form} layout="inline" initialValues={{ userName: value }} onFinish={(values) => void save(values)}>
      <Form.Item name="userName" rules={[antdRule(nickname)]} style={{ marginInlineEnd: 8 }}>
        <Input placeholder="请输入用户昵称" maxLength={30} aria-label="用户昵称" autoFocus />
      </Form.Item>
      <Space size={4}>
        <Button type="primary" size="small" htmlType="submit" loading={saving}>
          保存
        </Button>
        <Button size="small" onClick={() => setEditing(false)}>
          取消
        </Button>
      </Space>
    </Form>
  );
}

function AccessKey() {
  // Asked for when 查看 is pressed, each time anew (never a cached copy); 隐藏 masks it again.
  const [viewing, setViewing] = useState(false);
  const asked = useOperationQuery('openApi.key.get', {}, { enabled: viewing, fresh: true });
  const key = viewing && !asked.loading && !asked.error ? String(asked.data ?? '') : null;
  const loading = viewing && asked.fetching;
  const view = () => (viewing ? asked.reload() : setViewing(true));

  return (
    <Space wrap>
      <Typography.Text code data-testid="access-key">
        {key ?? MASKED_ACCESS_KEY}
      </Typography.Text>
      {key === null ? (
        <Button type="link" size="small" loading={loading} onClick={view}>
          查看
        </Button>
      ) : (
        <>
          <Button type="link" size="small" icon={<CopyOutlined />} onClick={() => void copyToClipboard(key)} aria-label="复制密钥">
            复制
          </Button>
          <Button type="link" size="small" onClick={() => setViewing(false)}>
            隐藏
          </Button>
        </>
      )}
    </Space>
  );
}

/** The user's avatar, a stored file shown at the session's url for it (the icon until it is known). */
function StoredAvatar({ path }: { path: string | null | undefined }) {
  const urlOf = useConsoleFileUrls(path ? [path] : []);
  return <Avatar size={64} src={path ? urlOf(path) : undefined} icon={<UserOutlined />} alt="头像" />;
}

/**
 * The account info drawer (SPEC §2, §5, §6): avatar, nickname, login username, phone, mail, the
 * open-platform access key (TENANT_ADMIN and ROLE_TENANT_ORDINARY only) and the password change.
 */
export function AccountDrawer({ open, onClose }: AccountDrawerProps) {
  const [session, setSession] = useAtom(sessionAtom);
  // The user's detail, asked for anew on each opening (a failure is told; the session's user shows).
  const detail = useOperationQuery('user.detail', {}, { enabled: open, fresh: true });
  /** What this drawer changed since the detail was loaded. */
  const [changed, setChanged] = useState<Partial<UserInfo>>({});
  const [dialog, setDialog] = useState<Dialog>(null);
  const [uploading, setUploading] = useState(false);
  const setAvatar = useOperationMutation('user.avatar.update', { invalidates: ['user.detail'] });
  // Each opening starts with a fresh drawer (nickname display, access key masked).
  const [round, setRound] = useState(0);

  if (!session) return null;
  const user: UserInfo = { ...session.user, ...(detail.data as Partial<UserInfo> | undefined), ...changed };

  /** Keeps the drawer and the frame (user name in the top bar) in step with the server. */
  const updateUser = (patch: Partial<UserInfo>) => {
    setChanged((current) => ({ ...current, ...patch }));
    setSession((current) => (current ? { ...current, user: { ...current.user, ...patch } } : current));
  };

  const close = () => {
    setRound((r) => r + 1);
    setChanged({});
    onClose();
  };

  const uploadAvatar = async (file: File) => {
    setUploading(true);
    try {
      // The upload is a call outside the cache: its failure is told here (told); the avatar's change is a mutation.
      const { url } = await told(api.upload<{ url: string }>('system.file.upload', file, file.name));
      await setAvatar.mutateAsync(url);
      notify.success(ACCOUNT_MESSAGES.edited);
      updateUser({ avatar: url });
    } catch (error) {
      expectedFailures('个人信息')(error);
      /* told already */
    } finally {
      setUploading(false);
    }
  };

  const beforeUpload = (file: File) => {
    const refusal = avatarFile(file);
    if (refusal) {
      notify.error(refusal);
      return Upload.LIST_IGNORE;
    }
    void uploadAvatar(file);
    return false;
  };

  const items = [
    {
      key: 'avatar',
      label: '头像',
      children: (
        <Space align="start">
          <StoredAvatar path={user.avatar} />
          <Space direction="vertical" size={4}>
            <Upload accept={AVATAR_TYPES.join(',')} showUploadList={false} beforeUpload={beforeUpload} maxCount={1}>
              <Button size="small" icon={<UploadOutlined />} loading={uploading}>
                更换头像
              </Button>
            </Upload>
            <Typography.Text type="secondary" style={{ fontSize: 12 }}>
              {AVATAR_HINT}
            </Typography.Text>
          </Space>
        </Space>
      ),
    },
    { key: 'nickname', label: '用户昵称', children: <NicknameEditor value={user.userName} onSaved={(userName) => updateUser({ userName })} /> },
    {
      key: 'loginUserName',
      label: '登录账号',
      children: (
        <Space>
          <Typography.Text data-testid="login-user-name">{user.loginUserName}</Typography.Text>
          <Button type="link" size="small" icon={<CopyOutlined />} onClick={() => void copyToClipboard(user.loginUserName)} aria-label="复制登录账号" />
        </Space>
      ),
    },
    {
      key: 'phone',
      label: '手机号',
      children: (
        <Space>
          <Typography.Text data-testid="phone">{maskPhone(user.phoneNumber)}</Typography.Text>
          <Button type="link" size="small" onClick={() => setDialog('phone')}>
            {user.phoneNumber ? '修改' : '绑定'}
          </Button>
        </Space>
      ),
    },
    {
      key: 'mail',
      label: '邮箱',
      children: (
        <Space>
          <Typography.Text data-testid="mail">{user.mail || NO_VALUE}</Typography.Text>
          <Button type="link" size="small" onClick={() => setDialog('mail')}>
            {user.mail ? '修改' : '绑定'}
          </Button>
        </Space>
      ),
    },
    ...(canSeeAccessKey(user.roleList) ? [{ key: 'accessKey', label: '开放平台密钥', children: <AccessKey /> }] : []),
    {
      key: 'password',
      label: '登录密码',
      children: (
        <Button size="small" onClick={() => setDialog('password')}>
          修改密码
        </Button>
      ),
    },
  ];

  return (
    <>
      <Drawer open={open} onClose={close} title="账号信息" width={480}>
        <Descriptions key={round} column={1} bordered size="small" items={items} styles={{ label: { width: 110 } }} />
      </Drawer>
      <PhoneDialog open={dialog === 'phone'} currentPhone={user.phoneNumber} onClose={() => setDialog(null)} onChanged={(phoneNumber) => updateUser({ phoneNumber })} />
      <MailDialog open={dialog === 'mail'} currentMail={user.mail} onClose={() => setDialog(null)} onChanged={(mail) => updateUser({ mail })} />
      <PasswordDialog open={dialog === 'password'} onClose={() => setDialog(null)} />
    </>
  );
}
