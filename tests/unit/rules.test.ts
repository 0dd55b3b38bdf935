import { describe, expect, it } from 'vitest';
import * as rules from '../../src/validation/rules';

const { MESSAGES } = rules;

describe('SPEC §5 phone', () => {
  it('requires 11 digits: 1, then 3-9, then nine digits', () => {
    expect(rules.phone('13800000001')).toBeUndefined();
    expect(rules.phone('19999999999')).toBeUndefined();
    expect(rules.phone('12800000001')).toBe('请输入正确的手机号码');
    expect(rules.phone('1380000000')).toBe('请输入正确的手机号码');
    expect(rules.phone('138000000011')).toBe('请输入正确的手机号码');
    expect(rules.phone('23800000001')).toBe('请输入正确的手机号码');
    expect(rules.phone('1380000000a')).toBe('请输入正确的手机号码');
  });
  it('is required with 请输入手机号; the or-empty variant skips empty', () => {
    expect(rules.phone('')).toBe('请输入手机号');
    expect(rules.phone(undefined)).toBe('请输入手机号');
    expect(rules.phoneOrEmpty('')).toBeUndefined();
    expect(rules.phoneOrEmpty('123')).toBe('请输入正确的手机号码');
  });
  it('has the dialog texts and the must-differ rule', () => {
    expect(MESSAGES.phoneFormatInDialog).toBe('请输入正确的手机号码!');
    expect(MESSAGES.newPhoneRequired).toBe('请输入新手机号');
    expect(MESSAGES.codeRequired).toBe('请输入验证码');
    expect(rules.differs('13800000001', MESSAGES.phoneMustDiffer)('13800000001')).toBe('请输入不同的手机号码!');
    expect(rules.differs('13800000001', MESSAGES.phoneMustDiffer)('13800000002')).toBeUndefined();
    expect(rules.verificationCode('')).toBe('请输入验证码');
  });
});

describe('SPEC §5 password', () => {
  const format = '密码长度需8-16位，须包含数字、字母、符号中至少2种元素';
  it('is required', () => {
    expect(rules.password('')).toBe('请输入密码');
  });
  it('is 8-16 characters with a digit plus a letter or symbol', () => {
    expect(rules.password('abcdef12')).toBeUndefined(); // 8
    expect(rules.password('abcdefgh12345678')).toBeUndefined(); // 16
    expect(rules.password('1234567!')).toBeUndefined(); // digit + symbol
    expect(rules.password('abcdef1')).toBe(format); // 7
    expect(rules.password('abcdefgh123456789')).toBe(format); // 17
    expect(rules.password('12345678')).toBe(format); // digits only
    expect(rules.password('abcdefgh')).toBe(format); // letters only
    expect(rules.password('abcd 1234')).toBe(format); // spaces are not allowed
    expect(rules.password('密码密码1234')).toBe(format);
  });
  it('change-password messages', () => {
    expect(MESSAGES.oldPasswordRequired).toBe('请输入旧密码!');
    expect(MESSAGES.newPasswordRequired).toBe('请输入新密码!');
    expect(rules.confirms('abcdef12')('abcdef13')).toBe('两次密码不一致');
    expect(rules.confirms('abcdef12')('abcdef12')).toBeUndefined();
  });
});

describe('SPEC §5 codes', () => {
  it('device code: 12 alphanumerics', () => {
    expect(rules.deviceCode('ABC123def456')).toBeUndefined();
    expect(rules.deviceCode('ABC123def45')).toBe('请输入正确的设备编码格式');
    expect(rules.deviceCode('ABC123def4567')).toBe('请输入正确的设备编码格式');
    expect(rules.deviceCode('ABC123def45-')).toBe('请输入正确的设备编码格式');
  });
  it('express number and returned device numbers: letters, digits and commas', () => {
    expect(rules.expressNo('SF123,JD456')).toBeUndefined();
    expect(rules.expressNo('SF 123')).toBe('请输入正确的快递单号格式');
    expect(rules.returnedDeviceNos('A1,B2')).toBeUndefined();
    expect(rules.returnedDeviceNos('A1;B2')).toBe('请输入正确的设备编号格式');
  });
  it('customer id: 4 uppercase letters or digits', () => {
    expect(rules.customerId('AB12')).toBeUndefined();
    expect(rules.customerId('ab12')).toBe('请输入正确的客户标识');
    expect(rules.customerId('AB123')).toBe('请输入正确的客户标识');
    expect(rules.customerId('AB1')).toBe('请输入正确的客户标识');
  });
  it('generic code: letters, digits, spaces and common symbols', () => {
    expect(rules.genericCode('Ab 1-_#@')).toBeUndefined();
    expect(rules.genericCode('设备')).toBe('请输入数字,字母或者字符类型');
  });
});

describe('SPEC §5 mail', () => {
  it('standard pattern, optional when empty', () => {
    expect(rules.mail('')).toBeUndefined();
    expect(rules.mail('tadmin@example.com')).toBeUndefined();
    expect(rules.mail('a.b+c@mail.example.cn')).toBeUndefined();
    expect(rules.mail('tadmin@')).toBe('请输入正确的邮箱格式');
    expect(rules.mail('tadmin.example.com')).toBe('请输入正确的邮箱格式');
  });
  it('has the mail form messages', () => {
    expect(MESSAGES.mailRequired).toBe('请输入邮箱');
    expect(MESSAGES.newMailRequired).toBe('请输入新邮箱');
    expect(MESSAGES.mailFormatInline).toBe('请输入正确的邮箱!');
    expect(rules.differs('a@b.cn', MESSAGES.mailMustDiffer)('a@b.cn')).toBe('请输入不同的邮箱!');
    expect(MESSAGES.mailCodeMustDiffer).toBe('请输入不同的邮箱码!');
  });
});

describe('SPEC §5 others', () => {
  it('time range: start and end must differ', () => {
    expect(rules.timeRange(['2026-01-01 00:00:00', '2026-01-01 00:00:00'])).toBe('请输入不同的时间');
    expect(rules.timeRange([new Date(5), new Date(5)])).toBe('请输入不同的时间');
    expect(rules.timeRange([1761955200000, 1761955200000])).toBe('请输入不同的时间');
    expect(rules.timeRange([1761955200000, 1761955201000])).toBeUndefined();
    expect(rules.timeRange(['2026-01-01 00:00:00', '2026-01-01 00:00:01'])).toBeUndefined();
    expect(rules.timeRange(null)).toBeUndefined();
  });
  it('nickname is required', () => {
    expect(rules.nickname('')).toBe('请输入用户昵称');
    expect(rules.userName(' ')).toBe('请输入用户名称!');
    expect(rules.nickname('张明')).toBeUndefined();
  });
  it('avatar: only JPEG, PNG and SVG', () => {
    expect(rules.avatarFile({ type: 'image/png' })).toBeUndefined();
    expect(rules.avatarFile({ type: 'image/jpeg' })).toBeUndefined();
    expect(rules.avatarFile({ type: 'image/svg+xml' })).toBeUndefined();
    expect(rules.avatarFile({ type: 'image/gif' })).toBe('只可以上传JPEG、PNG和SVG格式的图片!');
  });
  it('plain text: no < or >, empty allowed (pair with required)', () => {
    expect(rules.plainText('张明 - 一号楼')).toBeUndefined();
    expect(rules.plainText('')).toBeUndefined();
    expect(rules.plainText(undefined)).toBeUndefined();
    expect(rules.plainText('<b>')).toBe('不能包含 < 或 >');
    expect(rules.plainText('a > b')).toBe('不能包含 < 或 >');
  });
  it('SPEC §9 lengths', () => {
    expect([rules.PASSWORD_MIN_LENGTH, rules.PASSWORD_MAX_LENGTH, rules.PHONE_LENGTH, rules.DEVICE_CODE_LENGTH, rules.CUSTOMER_ID_LENGTH]).toEqual([8, 16, 11, 12, 4]);
  });
});
