import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { AccountDrawer, MASKED_ACCESS_KEY } from '../../../src/account/AccountDrawer';
import { api } from '../../../src/api/client';
import { consoleStore, sessionAtom } from '../../../src/session/session';
import type { UserInfo } from '../../../src/session/types';
import { answerCalls, paramsOf, refusal, renderConsole, signIn, userInfo, type Handler } from './harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn() } }));

const ok: Handler = () => null;

function setup(user: UserInfo = userInfo(), extra: Record<string, Handler> = {}) {
  signIn(user);
  answerCalls({ 'user.detail': () => ({ ...user, avatar: 'avatar/zhangwei.png' }), ...extra });
  const events = userEvent.setup();
  const onClose = vi.fn();
  const view = renderConsole(<AccountDrawer open onClose={onClose} />);
  return { ...view, events, onClose };
}

const drawer = () => screen.getAllByRole('dialog')[0];
const passwordDialog = async () => (await screen.findByText('修改密码', { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;

describe('account drawer', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
    vi.mocked(api.upload).mockReset();
  });

  it('shows the user detail: avatar through the file path, masked phone, mail, 修改 buttons', async () => {
    setup();
    expect(await screen.findByText('账号信息')).toBeInTheDocument();
    await waitFor(() => expect(paramsOf('user.detail')).toHaveLength(1));
    await waitFor(() => expect(within(drawer()).getByAltText('头像')).toHaveAttribute('src', '/files/avatar/zhangwei.png'));
    expect(within(drawer()).getByTestId('phone')).toHaveTextContent('1381****5678');
    expect(within(drawer()).getByTestId('mail')).toHaveTextContent('zhangwei@example.com');
    expect(within(drawer()).getByTestId('login-user-name')).toHaveTextContent('zhangwei');
    expect(within(drawer()).getAllByRole('button', { name: /^修\s*改$/ })).toHaveLength(2);
    expect(within(drawer()).getByText('请上传大于500*500像素的图片，仅支持JPEG、PNG和SVG格式')).toBeInTheDocument();
  });

  it('offers 绑定 with 暂无 when there is no phone or mail, and opens the bind dialogs', async () => {
    const { events } = setup(userInfo({ phoneNumber: '', mail: '' }));
    await waitFor(() => expect(paramsOf('user.detail')).toHaveLength(1));
    expect(within(drawer()).getByTestId('phone')).toHaveTextContent('暂无');
    expect(within(drawer()).getByTestId('mail')).toHaveTextContent('暂无');
    const [bindPhone, bindMail] = within(drawer()).getAllByRole('button', { name: /绑\s*定/ });
    await events.click(bindPhone);
    expect(await screen.findByText('绑定手机号')).toBeInTheDocument();
    await events.click(bindMail);
    expect(await screen.findByText('绑定邮箱')).toBeInTheDocument();
  });

  it('a number bound through the phone dialog shows in the drawer and the session', async () => {
    const { events } = setup(userInfo({ phoneNumber: '' }), { 'verification.sms.send': ok, 'user.phone.modify': ok });
    await waitFor(() => expect(paramsOf('user.detail')).toHaveLength(1));
    await events.click(within(drawer()).getAllByRole('button', { name: /^绑\s*定$/ })[0]);
    const dialog = (await screen.findByText('绑定手机号', { selector: '.ant-modal-title' })).closest('.ant-modal') as HTMLElement;
    await events.type(within(dialog).getByPlaceholderText('请输入手机号'), '13987654321');
    await events.click(within(dialog).getByRole('button', { name: /获取验证码/ }));
    await events.type(within(dialog).getByLabelText('验证码'), '123456');
    await events.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(within(drawer()).getByTestId('phone')).toHaveTextContent('1398****4321'));
    expect(consoleStore.get(sessionAtom)?.user.phoneNumber).toBe('13987654321');
    expect(within(drawer()).getAllByRole('button', { name: /^修\s*改$/ })).toHaveLength(2);
  });

  it('edits the nickname: required 请输入用户昵称, save → 编辑成功！ and back to display', async () => {
    const { events, notes } = setup(userInfo(), { 'user.name.update': ok });
    await events.click(await within(drawer()).findByRole('button', { name: '编辑昵称' }));
    const input = within(drawer()).getByLabelText('用户昵称');
    expect(input).toHaveValue('张伟');
    await events.clear(input);
    await events.click(within(drawer()).getByRole('button', { name: /保\s*存/ }));
    expect(await within(drawer()).findByText('请输入用户昵称')).toBeInTheDocument();
    expect(paramsOf('user.name.update')).toEqual([]);

    await events.type(input, '张伟伟');
    await events.click(within(drawer()).getByRole('button', { name: /保\s*存/ }));
    await waitFor(() => expect(paramsOf('user.name.update')).toEqual(['张伟伟']));
    expect(notes.success).toHaveBeenCalledWith('编辑成功！');
    expect(await within(drawer()).findByTestId('nickname')).toHaveTextContent('张伟伟');
    expect(within(drawer()).queryByLabelText('用户昵称')).not.toBeInTheDocument();
    expect(consoleStore.get(sessionAtom)?.user.userName).toBe('张伟伟');
  });

  it('refuses an avatar that is not JPEG, PNG or SVG and uploads one that is', async () => {
    vi.mocked(api.upload).mockResolvedValue({ url: 'avatar/new.png' } as never);
    const { events, notes } = setup(userInfo(), { 'user.avatar.update': ok });
    await waitFor(() => expect(paramsOf('user.detail')).toHaveLength(1));
    const picker = drawer().querySelector('input[type=file]') as HTMLInputElement;
    const upload = userEvent.setup({ applyAccept: false });

    await upload.upload(picker, new File(['GIF89a'], 'face.gif', { type: 'image/gif' }));
    await waitFor(() => expect(notes.error).toHaveBeenCalledWith('只可以上传JPEG、PNG和SVG格式的图片!'));
    expect(api.upload).not.toHaveBeenCalled();

    // rc-upload renders a fresh input after each choice.
    await events.upload(drawer().querySelector('input[type=file]') as HTMLInputElement, new File(['png'], 'face.png', { type: 'image/png' }));
    await waitFor(() => expect(paramsOf('user.avatar.update')).toEqual(['avatar/new.png']));
    expect(vi.mocked(api.upload).mock.calls[0][0]).toBe('system.file.upload');
    expect(vi.mocked(api.upload).mock.calls[0][2]).toBe('face.png');
    expect(notes.success).toHaveBeenCalledWith('编辑成功！');
    await waitFor(() => expect(within(drawer()).getByAltText('头像')).toHaveAttribute('src', '/files/avatar/new.png'));
  });

  it('copies the login username and says whether the clipboard took it', async () => {
    const { events, notes } = setup();
    const writeText = vi.spyOn(navigator.clipboard, 'writeText');
    writeText.mockResolvedValueOnce(undefined);
    await events.click(await within(drawer()).findByRole('button', { name: '复制登录账号' }));
    await waitFor(() => expect(notes.success).toHaveBeenCalledWith('内容已复制到粘贴板！'));
    expect(writeText).toHaveBeenCalledWith('zhangwei');

    writeText.mockRejectedValueOnce(new DOMException('denied', 'NotAllowedError'));
    await events.click(within(drawer()).getByRole('button', { name: '复制登录账号' }));
    await waitFor(() => expect(notes.error).toHaveBeenCalledWith('复制到粘贴板失败!'));
  });

  it.each([
    ['TENANT_ADMIN', true],
    ['ROLE_TENANT_ORDINARY', true],
    ['ROLE_TENANT_REPAIR', false],
    ['ROLE_TENANT_PATROL', false],
    ['PLATFORM_ADMIN', false],
  ])('access key section for %s: shown %s', async (role, shown) => {
    setup(userInfo({ roleList: [role] }));
    await waitFor(() => expect(paramsOf('user.detail')).toHaveLength(1));
    expect(within(drawer()).queryByText('开放平台密钥') !== null).toBe(shown);
  });

  it('keeps the access key masked until 查看, then fetches it and offers copy', async () => {
    const { events, notes } = setup(userInfo({ roleList: ['ROLE_TENANT_ORDINARY'] }), { 'openApi.key.get': () => 'ak-7f3e9c2b' });
    expect(await within(drawer()).findByTestId('access-key')).toHaveTextContent(MASKED_ACCESS_KEY);
    expect(paramsOf('openApi.key.get')).toEqual([]);
    await events.click(within(drawer()).getByRole('button', { name: /查\s*看/ }));
    await waitFor(() => expect(within(drawer()).getByTestId('access-key')).toHaveTextContent('ak-7f3e9c2b'));
    expect(paramsOf('openApi.key.get')).toHaveLength(1);

    const writeText = vi.spyOn(navigator.clipboard, 'writeText').mockResolvedValueOnce(undefined);
    await events.click(within(drawer()).getByRole('button', { name: '复制密钥' }));
    await waitFor(() => expect(writeText).toHaveBeenCalledWith('ak-7f3e9c2b'));
    expect(notes.success).toHaveBeenCalledWith('内容已复制到粘贴板！');

    await events.click(within(drawer()).getByRole('button', { name: /隐\s*藏/ }));
    expect(within(drawer()).getByTestId('access-key')).toHaveTextContent(MASKED_ACCESS_KEY);
  });

  it('changes the password with the SPEC §5 messages, then 修改成功 and back to login', async () => {
    const { events, notes } = setup(userInfo(), { 'user.password.update': ok, 'auth.logout': ok });
    await events.click(await within(drawer()).findByRole('button', { name: '修改密码' }));
    const dialog = await passwordDialog();
    const confirm = within(dialog).getByRole('button', { name: /确\s*定/ });
    await events.click(confirm);
    expect(await within(dialog).findByText('请输入旧密码!')).toBeInTheDocument();
    expect(await within(dialog).findByText('请输入新密码!')).toBeInTheDocument();
    expect(await within(dialog).findByText('请输入密码')).toBeInTheDocument();

    await events.type(within(dialog).getByPlaceholderText('请输入旧密码'), 'Old#2024');
    await events.type(within(dialog).getByPlaceholderText('8-16位，须包含数字、字母、符号中至少2种'), 'short');
    await events.type(within(dialog).getByPlaceholderText('请再次输入新密码'), 'different1');
    await events.click(confirm);
    expect(await within(dialog).findByText('密码长度需8-16位，须包含数字、字母、符号中至少2种元素')).toBeInTheDocument();
    expect(await within(dialog).findByText('两次密码不一致')).toBeInTheDocument();
    expect(paramsOf('user.password.update')).toEqual([]);

    await events.clear(within(dialog).getByPlaceholderText('8-16位，须包含数字、字母、符号中至少2种'));
    await events.type(within(dialog).getByPlaceholderText('8-16位，须包含数字、字母、符号中至少2种'), 'New#2025a');
    await events.clear(within(dialog).getByPlaceholderText('请再次输入新密码'));
    await events.type(within(dialog).getByPlaceholderText('请再次输入新密码'), 'New#2025a');
    await events.click(confirm);
    await waitFor(() => expect(paramsOf('user.password.update')).toEqual([{ oldPassWord: 'Old#2024', updatePassWord: 'New#2025a' }]));
    expect(notes.success).toHaveBeenCalledWith('修改成功');
    await waitFor(() => expect(screen.getByTestId('location')).toHaveTextContent('/login'));
    expect(paramsOf('auth.logout')).toHaveLength(1);
    expect(consoleStore.get(sessionAtom)).toBeNull();
    expect(window.sessionStorage.getItem('accessToken')).toBeNull();
  });

  it('keeps the password input when the server refuses the old password', async () => {
    const { events, notes } = setup(userInfo(), { 'user.password.update': () => refusal('旧密码错误', '400') });
    await events.click(await within(drawer()).findByRole('button', { name: '修改密码' }));
    const dialog = await passwordDialog();
    await events.type(within(dialog).getByPlaceholderText('请输入旧密码'), 'Wrong#2024');
    await events.type(within(dialog).getByPlaceholderText('8-16位，须包含数字、字母、符号中至少2种'), 'New#2025a');
    await events.type(within(dialog).getByPlaceholderText('请再次输入新密码'), 'New#2025a');
    await events.click(within(dialog).getByRole('button', { name: /确\s*定/ }));
    await waitFor(() => expect(paramsOf('user.password.update')).toHaveLength(1));
    expect(notes.success).not.toHaveBeenCalled();
    expect(within(dialog).getByPlaceholderText('请输入旧密码')).toHaveValue('Wrong#2024');
    expect(screen.getByTestId('location')).toHaveTextContent('/dashboard');
  });
});
