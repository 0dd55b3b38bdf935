import type { NamedValidator } from '../../renderers/services';
import * as rules from './rules';

const other = (values: Record<string, unknown>) => values.other;

/**
 * The SPEC §5 rules by the names page schemas use in `x-validator`. Rules that compare with
 * another field name it: `{ "name": "passwordConfirm", "field": "updatePassWord" }`.
 */
export const NAMED_VALIDATORS: Readonly<Record<string, NamedValidator>> = {
  phone: (value) => rules.phone(value),
  phoneOrEmpty: (value) => rules.phoneOrEmpty(value),
  newPhone: (value) => rules.required(rules.MESSAGES.newPhoneRequired)(value) ?? rules.phoneFormat(value),
  differentPhone: (value, values) => rules.differs(other(values), rules.MESSAGES.phoneMustDiffer)(value),
  verificationCode: (value) => rules.verificationCode(value),
  password: (value) => rules.password(value),
  passwordFormat: (value) => rules.passwordFormat(value),
  passwordConfirm: (value, values) => rules.confirms(other(values))(value),
  oldPassword: (value) => rules.required(rules.MESSAGES.oldPasswordRequired)(value),
  newPassword: (value) => rules.required(rules.MESSAGES.newPasswordRequired)(value) ?? rules.passwordFormat(value),
  deviceCode: (value) => rules.deviceCode(value),
  expressNo: (value) => rules.expressNo(value),
  returnedDeviceNos: (value) => rules.returnedDeviceNos(value),
  customerId: (value) => rules.customerId(value),
  genericCode: (value) => rules.genericCode(value),
  mail: (value) => rules.mail(value),
  mailRequired: (value) => rules.required(rules.MESSAGES.mailRequired)(value) ?? rules.mail(value),
  differentMail: (value, values) => rules.differs(other(values), rules.MESSAGES.mailMustDiffer)(value),
  timeRange: (value) => rules.timeRange(Array.isArray(value) ? (value as [unknown, unknown]) : null),
  nickname: (value) => rules.nickname(value),
  userName: (value) => rules.userName(value),
  /** The rule page schemas pasted 67 times as `{ "pattern": "^[^<>]*$", "message": "不能包含 < 或 >" }`. */
  plainText: (value) => rules.plainText(value),
};

export const VALIDATOR_NAMES: readonly string[] = Object.keys(NAMED_VALIDATORS);
