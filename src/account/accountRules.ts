import { all, differs, MAIL_PATTERN, matches, MESSAGES, PHONE_PATTERN, required, type Rule } from '../validation/rules';

/** SPEC §5 rules as the account dialogs apply them (their format messages end in "!"). */
export const dialogPhone = (requiredMessage: string, oldPhone?: string | null): Rule =>
  all(required(requiredMessage), matches(PHONE_PATTERN, MESSAGES.phoneFormatInDialog), differs(oldPhone, MESSAGES.phoneMustDiffer));

export const dialogMail = (requiredMessage: string, oldMail?: string | null): Rule =>
  all(required(requiredMessage), matches(MAIL_PATTERN, MESSAGES.mailFormatInline), differs(oldMail, MESSAGES.mailMustDiffer));


/** SPEC §8 success messages of the account drawer and its dialogs. */
export const ACCOUNT_MESSAGES = {
  edited: '编辑成功！',
  set: '设置成功！',
  verified: '校验成功！',
  smsSent: '发送成功！',
  mailSent: '发送成功',
  copied: '内容已复制到粘贴板！',
  copyFailed: '复制到粘贴板失败!',
  passwordChanged: '修改成功',
} as const;
