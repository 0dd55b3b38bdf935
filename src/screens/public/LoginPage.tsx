import { LockOutlined, UserOutlined } from '@ant-design/icons';
import { Button, Form, Segmented, Spin } from 'antd';
// The input and the password input alone: `Input` from 'antd' also carries TextArea, Search and
// OTP, which the sign-in page does not show (issue 8's first-paint budget).
import Input from 'antd/es/input/Input';
import Password from 'antd/es/input/Password';
import { lazy, Suspense, useCallback, useState } from 'react';
import { Link, useLocation, useNavigate, useSearchParams } from 'react-router-dom';
import { typedApi } from '../../api/typed';
import { ApiError } from '../../api/http';
import { told } from '../../api/failures';
import { endSession, initialiseSession, loginWithPassword, storeTokens, type Session } from '../../session/session';
import { isForeignSession } from '../../session/storage';
import type { TokenPair } from '../../session/types';
import { MESSAGES, required } from '../../validation/rules';
import { antdRule } from './formRules';
import { countWrongPassword, loginFeedback, LOCKED_CODE, LOGIN_ATTEMPTS_BEFORE_LOCK, WRONG_CREDENTIALS_CODE, wrongPasswords, type LoginFeedback } from './loginAttempts';
import { PublicShell } from './PublicShell';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';
// The QR code only loads when the WeChat login is chosen (it is not in /login's first paint).
const RegisterForm = lazy(() => import('./RegisterForm').then((m) => ({ default: m.RegisterForm })));
// A refusal's message loads with the first refusal (antd's Alert is not in /login's first paint).
const LoginFeedbackAlert = lazy(() => import('./LoginFeedbackAlert').then((m) => ({ default: m.LoginFeedbackAlert })));
const WechatQrPanel = lazy(() => import('./WechatQrPanel').then((m) => ({ default: m.WechatQrPanel })));

interface Credentials {
  loginName: string;
  password: string;
}

/** Where a fresh session goes: the forced password change, the page asked for, or the dashboard. */
function useEnterConsole() {
  const navigate = useNavigate();
  const location = useLocation();
  const from = (location.state as { from?: string } | null)?.from;
  return useCallback(
    (session: Session) => {
      if (session.user.needModifyPassword && !isForeignSession()) navigate('/init/password', { replace: true });
      else navigate(from && from !== '/login' ? from : '/dashboard', { replace: true });
    },
    [from, navigate],
  );
}

/**
 * Account and password. The account field has the focus when the page opens. A refusal stays on
 * the page as an Alert under the fields (not a toast that goes after 3 s): 用户名或密码错误 with how
 * many attempts remain before the lock, the lock itself with what to do about it.
 */
function PasswordLoginForm({ submitLabel, onSubmit }: { submitLabel: string; onSubmit: (values: Credentials) => Promise<void> }) {
  const [submitting, setSubmitting] = useState(false);
  const [feedback, setFeedback] = useState<LoginFeedback | null>(null);
  const submit = async (values: Credentials) => {
    setSubmitting(true);
    setFeedback(null);
    const loginName = values.loginName.trim();
    try {
      await onSubmit(values);
    } catch (error) {
      // The input stays; what went wrong is told under it.
      const refusal = error instanceof ApiError ? { code: error.code, message: error.message } : { code: null, message: '' };
      if (error instanceof ApiError && error.kind === 'session') return;
      const failures =
        refusal.code === WRONG_CREDENTIALS_CODE ? countWrongPassword(loginName) : refusal.code === LOCKED_CODE ? LOGIN_ATTEMPTS_BEFORE_LOCK : wrongPasswords(loginName);
      setFeedback(loginFeedback(refusal, failures));
    } finally {
      setSubmitting(false);
    }
  };
  return (
    <Form<Credentials> layout="vertical" size="large" onFinish={(values) => void submit(values)} autoComplete="on">
      <Form.Item name="loginName" rules={[antdRule(required('请输入账号'))]}>
        <Input prefix={<UserOutlined aria-hidden />} placeholder="账号 / 手机号" autoComplete="username" aria-label="账号" autoFocus />
      </Form.Item>
      <Form.Item name="password" rules={[antdRule(required(MESSAGES.passwordRequired))]}>
        <Password prefix={<LockOutlined aria-hidden />} placeholder="密码" autoComplete="current-password" aria-label="密码" />
      </Form.Item>
      {feedback && (
        <Suspense fallback={<div role="alert">{feedback.message}</div>}>
          <LoginFeedbackAlert feedback={feedback} />
        </Suspense>
      )}
      <Button type="primary" htmlType="submit" block loading={submitting}>
        {submitLabel}
      </Button>
    </Form>
  );
}

export default function LoginPage() {
  const [params, setParams] = useSearchParams();
  const enter = useEnterConsole();
  const mode = params.get('mode');
  const [method, setMethod] = useState<'password' | 'wechat'>('password');
  const bindKey = params.get('bindKey') ?? '';

  const enterWithTokens = useCallback(
    async (tokens: TokenPair) => {
      endSession();
      storeTokens(tokens);
      enter(await initialiseSession());
    },
    [enter],
  );

  const onWechatBound = useCallback(
    (tokens: TokenPair) =>
      void enterWithTokens(tokens).catch((error: unknown) => {
        expectedFailures('登录')(error);
        endSession();
      }),
    [enterWithTokens],
  );
  const onWechatUnbound = useCallback((key: string) => setParams({ mode: 'bind', bindKey: key }), [setParams]);

  if (mode === 'bind' && bindKey) {
    return (
      <PublicShell title="绑定已有账号">
        <p style={{ color: 'rgba(0, 0, 0, 0.6)', marginTop: 0 }}>该微信尚未绑定账号，请登录要绑定的账号。</p>
        <PasswordLoginForm
          submitLabel="绑定并登录"
          // Outside the cache and untold: the form tells a refusal itself, under its fields.
          onSubmit={async (values) => enterWithTokens(await typedApi.call('auth.wechat.bind', { bindKey, ...values }))}
        />
        <div style={{ marginTop: 16, display: 'flex', justifyContent: 'space-between' }}>
          <Link to={`/login?mode=register&bindKey=${encodeURIComponent(bindKey)}`}>没有账号？注册新账号</Link>
          <Link to="/login">返回登录</Link>
        </div>
      </PublicShell>
    );
  }

  if (mode === 'register' && bindKey) {
    return (
      <PublicShell title="注册新账号" width={480}>
        <Suspense fallback={<Spin style={{ display: 'block', margin: '64px auto' }} />}>
          <RegisterForm
            bindKey={bindKey}
            onSubmit={async (values) => enterWithTokens(await told(typedApi.call('auth.wechat.register', { bindKey, ...values })))}
          />
        </Suspense>
        <div style={{ marginTop: 16, textAlign: 'right' }}>
          <Link to={`/login?mode=bind&bindKey=${encodeURIComponent(bindKey)}`}>已有账号？去绑定</Link>
        </div>
      </PublicShell>
    );
  }

  return (
    <PublicShell title="登录">
      {/* One Tab stop for the choice, its checked radio (named by its label; the arrow keys move
          it): the group's own box took a stop of its own before it, with nothing to do (issue 34). */}
      <Segmented
        block
        tabIndex={-1}
        aria-label="登录方式"
        value={method}
        onChange={(value) => setMethod(value as 'password' | 'wechat')}
        options={[
          { value: 'password', label: '账号登录' },
          { value: 'wechat', label: '微信登录' },
        ]}
        style={{ marginBottom: 24 }}
      />
      {method === 'password' ? (
        <>
          <PasswordLoginForm submitLabel="登录" onSubmit={async ({ loginName, password }) => enter(await loginWithPassword(loginName.trim(), password))} />
          <div style={{ marginTop: 16, textAlign: 'right' }}>
            <Link to="/forgot/password">忘记密码？</Link>
          </div>
        </>
      ) : (
        <Suspense fallback={<Spin style={{ display: 'block', margin: '64px auto' }} />}>
          <WechatQrPanel hint="请使用微信扫一扫登录" onBound={onWechatBound} onUnbound={onWechatUnbound} />
        </Suspense>
      )}
    </PublicShell>
  );
}
