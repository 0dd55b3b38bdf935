import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { MailDialog } from '../../../src/account/MailDialog';
import { api } from '../../../src/api/client';
import { answerCalls, paramsOf, refusal, renderConsole, type Handler } from './harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn() } }));

const OLD = 'old@example.com';
const NEW = 'new@example.com';
const ok: Handler = () => null;

function setup(currentMail: string) {
  const onChanged = vi.fn();
  const onClose = vi.fn();
  const user = userEvent.setup();
  const view = renderConsole(<MailDialog open currentMail={currentMail} onClose={onClose} onChanged={onChanged} />);
  return { ...view, user, onChanged, onClose };
}

const dialog = () => screen.getByRole('dialog');
const button = (name: RegExp) => within(dialog()).getByRole('button', { name });
const codeButtons = () => within(dialog()).getAllByRole('button', { name: /获取验证码|秒后重新获取/ });

describe('mail dialog without a mail', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
  });

  it('binds a mail: mail, send code (发送成功), code, submit (设置成功！), with every message', async () => {
    answerCalls({ 'verification.mail.send': ok, 'user.mail.modify': ok });
    const { user, notes, onChanged, onClose } = setup('');
    expect(await screen.findByText('绑定邮箱')).toBeInTheDocument();

    await user.click(button(/确\s*定/));
    expect(await within(dialog()).findByText('请输入邮箱')).toBeInTheDocument();
    expect(await within(dialog()).findByText('请输入验证码')).toBeInTheDocument();

    const mail = within(dialog()).getByPlaceholderText('请输入邮箱');
    await user.type(mail, 'not-a-mail');
    await user.click(codeButtons()[0]);
    expect(await within(dialog()).findByText('请输入正确的邮箱!')).toBeInTheDocument();
    expect(paramsOf('verification.mail.send')).toEqual([]);

    await user.clear(mail);
    await user.type(mail, NEW);
    await user.click(codeButtons()[0]);
    await waitFor(() => expect(paramsOf('verification.mail.send')).toEqual([NEW]));
    expect(notes.success).toHaveBeenCalledWith('发送成功');
    await waitFor(() => expect(codeButtons()[0]).toBeDisabled());

    await user.type(within(dialog()).getByLabelText('验证码'), 'A1B2C3');
    await user.click(button(/确\s*定/));
    await waitFor(() => expect(paramsOf('user.mail.modify')).toEqual([{ mail: NEW, code: 'A1B2C3' }]));
    expect(notes.success).toHaveBeenCalledWith('设置成功！');
    expect(onChanged).toHaveBeenCalledWith(NEW);
    expect(onClose).toHaveBeenCalled();
  });

  it('a failed send re-enables the send button without another message', async () => {
    answerCalls({ 'verification.mail.send': () => refusal() });
    const { user, notes } = setup('');
    await user.type(await screen.findByPlaceholderText('请输入邮箱'), NEW);
    await user.click(codeButtons()[0]);
    await waitFor(() => expect(paramsOf('verification.mail.send')).toEqual([NEW]));
    await waitFor(() => expect(codeButtons()[0]).toBeEnabled());
    expect(notes.success).not.toHaveBeenCalled();
  });
});

describe('mail dialog with a mail', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
  });

  it('verifies the old mail first; the new-mail fields then unlock; new must differ', async () => {
    answerCalls({ 'verification.mail.send': ok, 'verification.captcha.check': ok, 'user.mail.modify': ok });
    const { user, notes, onChanged } = setup(OLD);
    expect(await screen.findByText('修改邮箱')).toBeInTheDocument();
    expect(within(dialog()).getByTestId('old-mail')).toHaveValue(OLD);
    const newMail = within(dialog()).getByPlaceholderText('请输入新邮箱');
    expect(newMail).toBeDisabled();
    expect(within(dialog()).getByLabelText('验证码')).toBeDisabled();
    expect(button(/确\s*定/)).toBeDisabled();

    await user.click(button(/校\s*验/));
    expect(await within(dialog()).findByText('请输入验证码')).toBeInTheDocument();
    expect(paramsOf('verification.captcha.check')).toEqual([]);

    await user.click(codeButtons()[0]);
    await waitFor(() => expect(paramsOf('verification.mail.send')).toEqual([OLD]));
    expect(notes.success).toHaveBeenCalledWith('发送成功');
    await user.type(within(dialog()).getByLabelText('原邮箱验证码'), 'OLD123');
    await user.click(button(/校\s*验/));
    await waitFor(() => expect(paramsOf('verification.captcha.check')).toEqual([{ uuid: OLD, code: 'OLD123' }]));
    expect(notes.success).toHaveBeenCalledWith('校验成功！');
    await waitFor(() => expect(newMail).toBeEnabled());
    expect(within(dialog()).getByLabelText('原邮箱验证码')).toBeDisabled();

    await user.click(button(/确\s*定/));
    expect(await within(dialog()).findByText('请输入新邮箱')).toBeInTheDocument();

    await user.type(newMail, OLD);
    await user.click(codeButtons()[1]);
    expect(await within(dialog()).findByText('请输入不同的邮箱!')).toBeInTheDocument();
    expect(paramsOf('verification.mail.send')).toEqual([OLD]);

    await user.clear(newMail);
    await user.type(newMail, NEW);
    await user.click(codeButtons()[1]);
    await waitFor(() => expect(paramsOf('verification.mail.send')).toEqual([OLD, NEW]));
    await user.type(within(dialog()).getByLabelText('验证码'), 'NEW456');
    await user.click(button(/确\s*定/));
    await waitFor(() => expect(paramsOf('user.mail.modify')).toEqual([{ mail: NEW, code: 'NEW456' }]));
    expect(notes.success).toHaveBeenCalledWith('设置成功！');
    expect(onChanged).toHaveBeenCalledWith(NEW);
  });

  it('a refused old code keeps the new-mail fields locked', async () => {
    answerCalls({ 'verification.captcha.check': () => refusal('验证码错误', '400') });
    const { user, notes } = setup(OLD);
    await user.type(await screen.findByLabelText('原邮箱验证码'), 'BAD000');
    await user.click(button(/校\s*验/));
    await waitFor(() => expect(paramsOf('verification.captcha.check')).toHaveLength(1));
    expect(notes.success).not.toHaveBeenCalled();
    expect(within(dialog()).getByPlaceholderText('请输入新邮箱')).toBeDisabled();
  });
});
