import { Form, Input, Space, Tooltip } from 'antd';
import { forwardRef, useCallback, useEffect, useImperativeHandle, useState } from 'react';
import { api } from '../../api/client';
import { expectedFailures } from '../../../renderers/runtime/errorReporter';

/** The image captcha the server asks of an anonymous code request (issue 18). */
export interface CaptchaImage {
  uuid: string;
  image: string;
  expiresIn: number;
}

export const CAPTCHA_REQUIRED = '请输入图形验证码';
export const CAPTCHA_FIELD = 'captchaCode';

export interface CaptchaHandle {
  /** The uuid of the captcha shown now ('' until one has loaded). */
  uuid: () => string;
  /** Shows a new captcha and clears the input (each is good for one try). */
  refresh: () => void;
}

/** "图形验证码": the input and the image; a click on the image shows another. Not required at submit. */
export const CaptchaField = forwardRef<CaptchaHandle>(function CaptchaField(_props, ref) {
  const form = Form.useFormInstance();
  const [captcha, setCaptcha] = useState<CaptchaImage | null>(null);

  const refresh = useCallback(() => {
    form.setFieldValue(CAPTCHA_FIELD, undefined);
    api
      .call<CaptchaImage>('verification.captcha.get')
      .then(setCaptcha)
      .catch((error: unknown) => {
        expectedFailures('验证码')(error);
        setCaptcha(null);
      });
  }, [form]);

  useEffect(() => {
    refresh();
  }, [refresh]);

  useImperativeHandle(ref, () => ({ uuid: () => captcha?.uuid ?? '', refresh }), [captcha, refresh]);

  return (
    <Form.Item label="图形验证码" required>
      <Space.Compact style={{ width: '100%' }}>
        <Form.Item name={CAPTCHA_FIELD} noStyle>
          <Input placeholder="请输入图形验证码" maxLength={4} inputMode="numeric" aria-label="图形验证码" />
        </Form.Item>
        <Tooltip title="看不清？点击换一张">
          <button
            type="button"
            onClick={refresh}
            aria-label="换一张图形验证码"
            data-testid="captcha"
            data-uuid={captcha?.uuid ?? ''}
            style={{ padding: 0, border: '1px solid #d9d9d9', background: '#fff', cursor: 'pointer', height: 32, width: 100, flex: 'none' }}
          >
            {captcha ? <img src={captcha.image} alt="图形验证码" style={{ height: 30, width: 98, display: 'block' }} /> : '点击获取'}
          </button>
        </Tooltip>
      </Space.Compact>
    </Form.Item>
  );
});
