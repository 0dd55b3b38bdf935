import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { PhoneDialog } from '../../../src/account/PhoneDialog';
import { api } from '../../../src/api/client';
import { answerCalls, paramsOf, refusal, renderConsole, type Handler } from './harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn() } }));

const OLD = '13812345678';
const NEW = '13987654321';
const ok: Handler = () => null;

function Opener({ currentPhone, onChanged }: { currentPhone: string; onChanged: (phone: string) => void }) {
  const [open, setOpen] = useState(true);
  return (
    <>
      <button type="button" onClick={() => setOpen(true)}>
        打开手机号弹窗
      </button>
      <PhoneDialog open={open} currentPhone={currentPhone} onClose={() => setOpen(false)} onChanged={onChanged} />
    </>
  );
}

function setup(currentPhone: string) {
  const onChanged = vi.fn();
  const user = userEvent.setup();
  const view = renderConsole(<Opener currentPhone={currentPhone} onChanged={onChanged} />);
  return { ...view, user, onChanged };
}

const dialog = () => screen.getByRole('dialog');
const button = (name: RegExp) => within(dialog()).getByRole('button', { name });
const codeButtons = () => within(dialog()).getAllByRole('button', { name: /获取验证码|秒后重新获取/ });

describe('phone dialog, mode 1 (no current number)', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
  });

  it('binds a number: phone, get code (发送成功！), code, confirm (设置成功！), with every message', async () => {
    answerCalls({ 'verification.sms.send': ok, 'user.phone.modify': ok });
    const { user, notes, onChanged } = setup('');
    expect(await screen.findByText('绑定手机号')).toBeInTheDocument();

    await user.click(button(/确\s*定/));
    expect(await within(dialog()).findByText('请输入手机号')).toBeInTheDocument();
    expect(await within(dialog()).findByText('请输入验证码')).toBeInTheDocument();

    const phone = within(dialog()).getByPlaceholderText('请输入手机号');
    await user.type(phone, '12345');
    await user.click(codeButtons()[0]);
    expect(await within(dialog()).findByText('请输入正确的手机号码!')).toBeInTheDocument();
    expect(paramsOf('verification.sms.send')).toEqual([]);

    await user.clear(phone);
    await user.type(phone, NEW);
    await user.click(codeButtons()[0]);
    await waitFor(() => expect(paramsOf('verification.sms.send')).toEqual([NEW]));
    expect(notes.success).toHaveBeenCalledWith('发送成功！');
    await waitFor(() => expect(codeButtons()[0]).toBeDisabled());

    await user.type(within(dialog()).getByLabelText('验证码'), '123456');
    await user.click(button(/确\s*定/));
    await waitFor(() => expect(paramsOf('user.phone.modify')).toEqual([{ phoneNumber: NEW, code: '123456' }]));
    expect(notes.success).toHaveBeenCalledWith('设置成功！');
    expect(onChanged).toHaveBeenCalledWith(NEW);
  });

  it('re-enables get-code when the send fails, without another message', async () => {
    answerCalls({ 'verification.sms.send': () => refusal() });
    const { user, notes } = setup('');
    await user.type(await screen.findByPlaceholderText('请输入手机号'), NEW);
    await user.click(codeButtons()[0]);
    await waitFor(() => expect(paramsOf('verification.sms.send')).toEqual([NEW]));
    await waitFor(() => expect(codeButtons()[0]).toBeEnabled());
    expect(codeButtons()[0]).toHaveTextContent('获取验证码');
    expect(notes.success).not.toHaveBeenCalled();
  });

  it('changing the number empties the code and frees the get-code button', async () => {
    answerCalls({ 'verification.sms.send': ok });
    const { user } = setup('');
    const phone = await screen.findByPlaceholderText('请输入手机号');
    await user.type(phone, NEW);
    await user.click(codeButtons()[0]);
    await waitFor(() => expect(codeButtons()[0]).toHaveTextContent('60秒后重新获取'));
    const code = within(dialog()).getByLabelText('验证码');
    await user.type(code, '654321');
    await user.type(phone, '{backspace}9');
    await waitFor(() => expect(within(dialog()).getByLabelText('验证码')).toHaveValue(''));
    expect(codeButtons()[0]).toBeEnabled();
    expect(codeButtons()[0]).toHaveTextContent('获取验证码');
  });

  it('offers a voice code behind 即将发送语音验证码 (确认/取消); an empty number warns 请输入手机号', async () => {
    answerCalls({ 'verification.voice.send': ok });
    const { user, notes } = setup('');
    await user.click(await screen.findByText('收不到验证码？'));
    const confirm = await screen.findByRole('tooltip');
    expect(within(confirm).getByText('即将发送语音验证码')).toBeInTheDocument();
    await user.click(within(confirm).getByRole('button', { name: /确\s*认/ }));
    await waitFor(() => expect(notes.warning).toHaveBeenCalledWith('请输入手机号'));
    expect(paramsOf('verification.voice.send')).toEqual([]);

    await user.click(screen.getByText('收不到验证码？'));
    await user.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: /取\s*消/ }));
    expect(paramsOf('verification.voice.send')).toEqual([]);

    await user.type(within(dialog()).getByPlaceholderText('请输入手机号'), NEW);
    await user.click(screen.getByText('收不到验证码？'));
    await waitFor(() => expect(screen.getAllByRole('tooltip').some((tip) => tip.textContent?.includes('即将发送语音验证码'))).toBe(true));
    const tip = screen.getAllByRole('tooltip').find((t) => t.textContent?.includes('即将发送语音验证码'));
    await user.click(within(tip as HTMLElement).getByRole('button', { name: /确\s*认/ }));
    await waitFor(() => expect(paramsOf('verification.voice.send')).toEqual([NEW]));
    expect(notes.success).toHaveBeenCalledWith('发送成功！');
  });
});

describe('phone dialog, mode 2 (changing the current number)', () => {
  beforeEach(() => {
    vi.mocked(api.call).mockReset();
  });

  it('verifies the old number (校验成功！), then sets a different new number', async () => {
    answerCalls({ 'verification.sms.send': ok, 'verification.phone.verify': ok, 'user.phone.modify': ok });
    const { user, notes, onChanged } = setup(OLD);
    expect(await screen.findByText('修改手机号')).toBeInTheDocument();
    expect(within(dialog()).getByTestId('old-phone')).toHaveValue('1381****5678');
    expect(within(dialog()).getByTestId('old-phone')).toBeDisabled();
    expect(within(dialog()).queryByPlaceholderText('请输入新手机号')).not.toBeInTheDocument();

    await user.click(button(/下一步/));
    expect(await within(dialog()).findByText('请输入验证码')).toBeInTheDocument();
    expect(paramsOf('verification.phone.verify')).toEqual([]);

    await user.click(codeButtons()[0]);
    await waitFor(() => expect(paramsOf('verification.sms.send')).toEqual([OLD]));
    expect(notes.success).toHaveBeenCalledWith('发送成功！');
    await user.type(within(dialog()).getByLabelText('原手机号验证码'), '111111');
    await user.click(button(/下一步/));
    await waitFor(() => expect(paramsOf('verification.phone.verify')).toEqual([{ uuid: OLD, code: '111111' }]));
    expect(notes.success).toHaveBeenCalledWith('校验成功！');

    const newPhone = await within(dialog()).findByPlaceholderText('请输入新手机号');
    expect(within(dialog()).getByLabelText('验证码')).toHaveValue('');
    expect(within(dialog()).queryByRole('button', { name: /下一步/ })).not.toBeInTheDocument();

    await user.click(button(/确\s*定/));
    expect(await within(dialog()).findByText('请输入新手机号')).toBeInTheDocument();

    // The same number is refused on code request and on confirm.
    await user.type(newPhone, OLD);
    await user.click(codeButtons()[1]);
    expect(await within(dialog()).findByText('请输入不同的手机号码!')).toBeInTheDocument();
    expect(paramsOf('verification.sms.send')).toEqual([OLD]);
    await user.type(within(dialog()).getByLabelText('验证码'), '222222');
    await user.click(button(/确\s*定/));
    await waitFor(() => expect(within(dialog()).getByText('请输入不同的手机号码!')).toBeInTheDocument());
    expect(paramsOf('user.phone.modify')).toEqual([]);

    await user.clear(newPhone);
    await user.type(newPhone, NEW);
    await user.click(codeButtons()[1]);
    await waitFor(() => expect(paramsOf('verification.sms.send')).toEqual([OLD, NEW]));
    await user.type(within(dialog()).getByLabelText('验证码'), '333333');
    await user.click(button(/确\s*定/));
    await waitFor(() => expect(paramsOf('user.phone.modify')).toEqual([{ phoneNumber: NEW, code: '333333' }]));
    expect(notes.success).toHaveBeenCalledWith('设置成功！');
    expect(onChanged).toHaveBeenCalledWith(NEW);
  });

  it('a failed send to the old number re-enables get-code; a refused code keeps step A', async () => {
    answerCalls({ 'verification.sms.send': () => refusal(), 'verification.phone.verify': () => refusal('验证码错误', '400') });
    const { user, notes } = setup(OLD);
    await user.click(await within(await screen.findByRole('dialog')).findByRole('button', { name: /获取验证码/ }));
    await waitFor(() => expect(paramsOf('verification.sms.send')).toEqual([OLD]));
    await waitFor(() => expect(codeButtons()[0]).toBeEnabled());
    expect(codeButtons()[0]).toHaveTextContent('获取验证码');

    await user.type(within(dialog()).getByLabelText('原手机号验证码'), '000000');
    await user.click(button(/下一步/));
    await waitFor(() => expect(paramsOf('verification.phone.verify')).toHaveLength(1));
    expect(notes.success).not.toHaveBeenCalled();
    expect(within(dialog()).getByLabelText('原手机号验证码')).toHaveValue('000000');
    expect(within(dialog()).queryByPlaceholderText('请输入新手机号')).not.toBeInTheDocument();
  });

  it('step A voice code goes to the old number', async () => {
    answerCalls({ 'verification.voice.send': ok });
    const { user } = setup(OLD);
    await user.click(await screen.findByText('收不到验证码？'));
    await user.click(within(await screen.findByRole('tooltip')).getByRole('button', { name: /确\s*认/ }));
    await waitFor(() => expect(paramsOf('verification.voice.send')).toEqual([OLD]));
  });

  it('cancelling resets the verification and every code', async () => {
    answerCalls({ 'verification.sms.send': ok, 'verification.phone.verify': ok });
    const { user } = setup(OLD);
    await user.type(await screen.findByLabelText('原手机号验证码'), '111111');
    await user.click(button(/下一步/));
    await within(dialog()).findByPlaceholderText('请输入新手机号');
    await user.type(within(dialog()).getByPlaceholderText('请输入新手机号'), NEW);

    await user.click(button(/取\s*消/));
    await user.click(screen.getByRole('button', { name: '打开手机号弹窗' }));
    await waitFor(() => expect(within(dialog()).getByLabelText('原手机号验证码')).toHaveValue(''));
    expect(within(dialog()).getByLabelText('原手机号验证码')).toBeEnabled();
    expect(within(dialog()).queryByPlaceholderText('请输入新手机号')).not.toBeInTheDocument();
    expect(button(/下一步/)).toBeInTheDocument();
  });
});
