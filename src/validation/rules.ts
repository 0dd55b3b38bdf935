/**
 * The validation rules of SPEC §5, each once, with its messages word for word. A rule is a pure
 * function from a value to an error message (or undefined when valid), so that antd forms,
 * Formily schemas (by name) and tests all use the same code.
 */
export type Rule<T = unknown> = (value: T) => string | undefined;

export const MESSAGES = {
  phoneRequired: '请输入手机号',
  newPhoneRequired: '请输入新手机号',
  phoneFormat: '请输入正确的手机号码',
  phoneFormatInDialog: '请输入正确的手机号码!',
  phoneMustDiffer: '请输入不同的手机号码!',
  codeRequired: '请输入验证码',
  passwordRequired: '请输入密码',
  passwordFormat: '密码长度需8-16位，须包含数字、字母、符号中至少2种元素',
  oldPasswordRequired: '请输入旧密码!',
  newPasswordRequired: '请输入新密码!',
  passwordMismatch: '两次密码不一致',
  deviceCode: '请输入正确的设备编码格式',
  expressNo: '请输入正确的快递单号格式',
  returnedDeviceNos: '请输入正确的设备编号格式',
  customerId: '请输入正确的客户标识',
  genericCode: '请输入数字,字母或者字符类型',
  mailFormat: '请输入正确的邮箱格式',
  mailRequired: '请输入邮箱',
  newMailRequired: '请输入新邮箱',
  mailFormatInline: '请输入正确的邮箱!',
  mailMustDiffer: '请输入不同的邮箱!',
  mailCodeMustDiffer: '请输入不同的邮箱码!',
  timeMustDiffer: '请输入不同的时间',
  userNameRequired: '请输入用户名称!',
  nicknameRequired: '请输入用户昵称',
  avatarType: '只可以上传JPEG、PNG和SVG格式的图片!',
  plainText: '不能包含 < 或 >',
} as const;

/** SPEC §9 constants. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 16;
export const PHONE_LENGTH = 11;
export const DEVICE_CODE_LENGTH = 12;
export const CUSTOMER_ID_LENGTH = 4;

export const PHONE_PATTERN = /^1[3-9]\d{9}$/;
/** 8-16 visible ASCII characters: a digit plus a letter or a symbol. */
export const PASSWORD_PATTERN = /^(?=.*\d)(?=.*[A-Za-z!-/:-@[-`{-~])[!-~]{8,16}$/;
export const DEVICE_CODE_PATTERN = /^[A-Za-z0-9]{12}$/;
export const EXPRESS_NO_PATTERN = /^[A-Za-z0-9,]+$/;
export const CUSTOMER_ID_PATTERN = /^[A-Z0-9]{4}$/;
/** Letters, digits, spaces and the common (ASCII) symbols. */
export const GENERIC_CODE_PATTERN = /^[ -~]+$/;
/** Text shown back as text: no angle brackets (the servers refuse them in names, remarks and titles). */
export const PLAIN_TEXT_PATTERN = /^[^<>]*$/;
export const MAIL_PATTERN = /^[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}$/;
export const AVATAR_TYPES = ['image/jpeg', 'image/png', 'image/svg+xml'] as const;

export function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

const text = (value: unknown): string => (value === undefined || value === null ? '' : String(value));

/** A rule that fails with `message` when the value is empty. */
export const required =
  (message: string): Rule =>
  (value) =>
    isEmpty(value) ? message : undefined;

/** A rule that checks a pattern and lets an empty value through (pair with `required`). */
export const matches =
  (pattern: RegExp, message: string): Rule =>
  (value) =>
    isEmpty(value) || pattern.test(text(value)) ? undefined : message;

/** Runs rules in order and answers the first message. */
export const all =
  (...rules: Rule[]): Rule =>
  (value) => {
    for (const rule of rules) {
      const message = rule(value);
      if (message) return message;
    }
    return undefined;
  };

export const phoneFormat = matches(PHONE_PATTERN, MESSAGES.phoneFormat);
export const phone = all(required(MESSAGES.phoneRequired), phoneFormat);
/** The variant that skips an empty value. */
export const phoneOrEmpty = phoneFormat;
export const password = all(required(MESSAGES.passwordRequired), matches(PASSWORD_PATTERN, MESSAGES.passwordFormat));
export const passwordFormat = matches(PASSWORD_PATTERN, MESSAGES.passwordFormat);
export const verificationCode = required(MESSAGES.codeRequired);
export const deviceCode = matches(DEVICE_CODE_PATTERN, MESSAGES.deviceCode);
export const expressNo = matches(EXPRESS_NO_PATTERN, MESSAGES.expressNo);
export const returnedDeviceNos = matches(EXPRESS_NO_PATTERN, MESSAGES.returnedDeviceNos);
export const customerId = matches(CUSTOMER_ID_PATTERN, MESSAGES.customerId);
export const genericCode = matches(GENERIC_CODE_PATTERN, MESSAGES.genericCode);
export const plainText = matches(PLAIN_TEXT_PATTERN, MESSAGES.plainText);
/** Mail is optional when empty. */
export const mail = matches(MAIL_PATTERN, MESSAGES.mailFormat);
export const nickname = required(MESSAGES.nicknameRequired);
export const userName = required(MESSAGES.userNameRequired);

/** The new value must differ from the old one (phone, mail, time). */
export function differs(other: unknown, message: string): Rule {
  return (value) => (!isEmpty(value) && !isEmpty(other) && text(value) === text(other) ? message : undefined);
}

/** The confirmation must repeat the new password. */
export function confirms(newPassword: unknown): Rule {
  return (value) => (!isEmpty(value) && text(value) !== text(newPassword) ? MESSAGES.passwordMismatch : undefined);
}

/** A time range's start and end must differ. */
export function timeRange(range: readonly [unknown, unknown] | null | undefined): string | undefined {
  if (!range || isEmpty(range[0]) || isEmpty(range[1])) return undefined;
  const at = (v: unknown) => {
    if (typeof v === 'number') return v;
    if (typeof v === 'object' && v !== null) return Number(v.valueOf());
    return Date.parse(text(v));
  };
  return at(range[0]) === at(range[1]) ? MESSAGES.timeMustDiffer : undefined;
}

/** Avatars: JPEG, PNG and SVG only (SPEC §5; the size check is effectively disabled). */
export function avatarFile(file: { type: string; name?: string }): string | undefined {
  return (AVATAR_TYPES as readonly string[]).includes(file.type) ? undefined : MESSAGES.avatarType;
}
