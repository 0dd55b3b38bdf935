import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../../src/api/client';
import ForgotPasswordPage from '../../../src/screens/public/ForgotPasswordPage';
import { RegisterForm } from '../../../src/screens/public/RegisterForm';
import { answerCalls, paramsOf, refusal, renderConsole, type Handler } from '../account/harness';

vi.mock('../../../src/api/client', () => ({ api: { call: vi.fn(), upload: vi.fn() } }));

/**
 * Issue 18: an anonymous code request carries what ties it to its flow: the forgot-password form
 * the image captcha (one try each, a new one after every send), the WeChat registration its bind key.
 */

let issued = 0;
const newCaptcha: Handler = () => {
  issued += 1;
  return { uuid: `captcha-${issued}`, image: 'data:image/svg+xml;base64,PHN2Zy8+', expiresIn: 300 };
};
const ok: Handler = () => '发送成功';

beforeEach(() => {
  vi.mocked(api.call).mockReset();
  issued = 0;
});

const phonePanel = () => screen.getByRole('tabpanel', { name: '手机找回' });

async function openPhoneTab(user: ReturnType<typeof userEvent.setup>) {
  await user.click(await screen.findByRole('tab', { name: '手机找回' }));
  await waitFor(() => expect(within(phonePanel()).getByTestId('captcha')).toHaveAttribute('data-uuid', expect.stringMatching(/^captcha-/)));
}

describe('forgot password: the code needs the image captcha', () => {
  it('shows a captcha, asks for its answer before sending, and sends the phone with the captcha', async () => {
    answerCalls({ 'verification.captcha.get': newCaptcha, 'verification.sms.send': ok });
    const user = userEvent.setup();
    const { notes } = renderConsole(<ForgotPasswordPage />, { path: '/forgot/password' });
    await openPhoneTab(user);
    const panel = phonePanel();
    expect(within(panel).getByRole('img', { name: '图形验证码' })).toHaveAttribute('src', 'data:image/svg+xml;base64,PHN2Zy8+');

    await user.type(within(panel).getByLabelText('手机号'), '13800000001');
    await user.click(within(panel).getByRole('button', { name: '获取验证码' }));
    expect(await within(panel).findByText('请输入图形验证码')).toBeInTheDocument();
    expect(paramsOf('verification.sms.send')).toEqual([]);

    const uuid = within(panel).getByTestId('captcha').getAttribute('data-uuid');
    await user.type(within(panel).getByLabelText('图形验证码'), '2468');
    await user.click(within(panel).getByRole('button', { name: '获取验证码' }));
    await waitFor(() => expect(paramsOf('verification.sms.send')).toEqual([{ target: '13800000001', captchaUuid: uuid, captchaCode: '2468' }]));
    expect(notes.success).toHaveBeenCalledWith('验证码发送成功');
    // Spent by the send: a new captcha is shown and its input is empty.
    await waitFor(() => expect(within(panel).getByTestId('captcha')).not.toHaveAttribute('data-uuid', uuid ?? ''));
    expect(within(panel).getByLabelText('图形验证码')).toHaveValue('');
  });

  it('a wrong captcha: the server message is shown by the client, a new captcha comes, get-code works again', async () => {
    answerCalls({ 'verification.captcha.get': newCaptcha, 'verification.mail.send': () => refusal('图形验证码错误或已过期', '400') });
    const user = userEvent.setup();
    const { notes } = renderConsole(<ForgotPasswordPage />, { path: '/forgot/password' });
    const panel = () => screen.getByRole('tabpanel', { name: '邮箱找回' });
    await waitFor(() => expect(within(panel()).getByTestId('captcha')).toHaveAttribute('data-uuid', 'captcha-1'));
    await user.type(within(panel()).getByLabelText('邮箱'), 'tadmin@example.com');
    await user.type(within(panel()).getByLabelText('图形验证码'), '0000');
    await user.click(within(panel()).getByRole('button', { name: '获取验证码' }));
    await waitFor(() => expect(paramsOf('verification.mail.send')).toEqual([{ target: 'tadmin@example.com', captchaUuid: 'captcha-1', captchaCode: '0000' }]));
    await waitFor(() => expect(within(panel()).getByTestId('captcha')).toHaveAttribute('data-uuid', 'captcha-2'));
    expect(within(panel()).getByRole('button', { name: '获取验证码' })).toBeEnabled();
    expect(notes.success).not.toHaveBeenCalled();
  });

  it('the reset itself does not need the captcha (it was spent on the send)', async () => {
    answerCalls({ 'verification.captcha.get': newCaptcha, 'user.password.forget': () => null });
    const user = userEvent.setup();
    renderConsole(<ForgotPasswordPage />, { path: '/forgot/password' });
    await openPhoneTab(user);
    const panel = phonePanel();
    await user.type(within(panel).getByLabelText('手机号'), '13800000001');
    await user.type(within(panel).getByPlaceholderText('请输入验证码'), '123456');
    await user.type(within(panel).getByLabelText('新密码'), 'Phone@2027');
    await user.type(within(panel).getByLabelText('确认密码'), 'Phone@2027');
    await user.click(within(panel).getByRole('button', { name: '重置密码' }));
    await waitFor(() =>
      expect(paramsOf('user.password.forget')).toEqual([{ way: 'phone', account: '13800000001', code: '123456', password: 'Phone@2027' }]),
    );
  });
});

describe('WeChat registration: the code goes with the bind key', () => {
  it('sends the phone with the bind key and shows no captcha', async () => {
    answerCalls({ 'verification.sms.send': ok });
    const user = userEvent.setup();
    renderConsole(<RegisterForm bindKey="key-1" onSubmit={vi.fn(async () => undefined)} />, { path: '/login' });
    expect(screen.queryByTestId('captcha')).not.toBeInTheDocument();
    await user.type(await screen.findByLabelText('手机号'), '13700000077');
    await user.click(screen.getByRole('button', { name: '获取验证码' }));
    await waitFor(() => expect(paramsOf('verification.sms.send')).toEqual([{ target: '13700000077', bindKey: 'key-1' }]));
    expect(paramsOf('verification.captcha.get')).toEqual([]);
  });
});
