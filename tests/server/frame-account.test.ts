import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { UserInfo } from '../../server/domain/users';
import { startServer, type TestServer } from './harness';
import { PDF, PNG, upload } from './frame-helpers';

let server: TestServer;
beforeAll(async () => {
  server = await startServer();
});
afterAll(() => server.close());
// Codes are limited to one per target per minute: every test starts a minute later.
beforeEach(() => server.advance(61));

type Detail = UserInfo & { avatar: string };
const detailOf = async (token: string) => (await server.call<Detail>('user.detail', {}, { token })).data!;

/** Sends an SMS (or mail) code to the target as the signed-in caller and reads it from the outbox. */
async function codeFor(target: string, token: string): Promise<string> {
  const name = target.includes('@') ? 'verification.mail.send' : 'verification.sms.send';
  expect((await server.call(name, target, { token })).code).toBe('200');
  return server.latestCode(target.toLowerCase());
}

const ok = { code: '200', message: '成功', data: null };

describe('user.detail', () => {
  it('answers the SPEC §3 user info and the avatar', async () => {
    const detail = await detailOf(await server.login('tadmin'));
    expect(Object.keys(detail).sort()).toEqual(
      ['avatar', 'loginUserCode', 'loginUserId', 'loginUserName', 'mail', 'needModifyPassword', 'orgCodeList', 'phoneNumber', 'roleList', 'userName'].sort(),
    );
    expect(detail).toMatchObject({ loginUserName: 'tadmin', userName: '张明', phoneNumber: '13800000001', mail: 'tadmin@example.com', avatar: '' });
  });
});

describe('user.name.update', () => {
  it('sets the caller\'s name, trimmed', async () => {
    const token = await server.login('patrol');
    expect(await server.call('user.name.update', '  赵磊（巡检组长）  ', { token })).toEqual(ok);
    expect((await detailOf(token)).userName).toBe('赵磊（巡检组长）');
    expect((await server.call('user.name.update', '名'.repeat(32), { token })).code).toBe('200');
  });

  it('refuses an empty, long or malformed name with "400"', async () => {
    const token = await server.login('patrol');
    for (const name of ['', '   ', '\t']) expect(await server.call('user.name.update', name, { token })).toEqual({ code: '400', message: '请输入用户名称!', data: null });
    expect((await server.call('user.name.update', '名'.repeat(33), { token })).message).toBe('参数错误：用户名称不能超过32个字符');
    expect((await server.call('user.name.update', '赵\u0000磊', { token })).code).toBe('400');
    for (const param of [5, { name: 'x' }, null, 'x'.repeat(300)]) expect((await server.call('user.name.update', param, { token })).message).toMatch(/^参数错误/);
    expect((await detailOf(token)).userName).not.toBe('');
  });

  it('needs a session', async () => {
    expect((await server.call('user.name.update', '某人')).code).toBe('301');
  });
});

describe('user.avatar.update', () => {
  it('sets an image the caller uploaded as the avatar', async () => {
    const token = await server.login('repair');
    const { url } = (await upload(server, 'me.png', PNG, { token })).data!;
    expect(await server.call('user.avatar.update', url, { token })).toEqual(ok);
    expect((await detailOf(token)).avatar).toBe(url);
  });

  it('refuses another user\'s upload, a foreign url or a path outside the uploads', async () => {
    const token = await server.login('repair');
    const before = (await detailOf(token)).avatar;
    const theirs = (await upload(server, 'x.png', PNG, { token: await server.login('patrol') })).data!.url;
    for (const url of [theirs, 'https://evil.example/a.png', '/files/' + theirs, '../../etc/passwd', 'upload/2026/01/00000000000000000000000000000000.png']) {
      expect(await server.call('user.avatar.update', url, { token }), url).toEqual({ code: '400', message: '参数错误：头像须为本人上传的图片', data: null });
    }
    expect((await server.call('user.avatar.update', '', { token })).code).toBe('400');
    expect((await detailOf(token)).avatar).toBe(before);
  });

  it('refuses an upload that is not a JPEG, PNG or SVG', async () => {
    const token = await server.login('repair');
    const { url } = (await upload(server, 'contract.pdf', PDF, { token })).data!;
    expect(await server.call('user.avatar.update', url, { token })).toEqual({ code: '400', message: '只可以上传JPEG、PNG和SVG格式的图片!', data: null });
  });
});

describe('changing the phone', () => {
  it('mode 1: a user without a phone binds one with the code sent to it', async () => {
    const token = await server.login('tuser');
    expect((await detailOf(token)).phoneNumber).toBe('');
    const code = await codeFor('13712340001', token);
    expect(await server.call('user.phone.modify', { phoneNumber: '13712340001', code }, { token })).toEqual(ok);
    expect((await detailOf(token)).phoneNumber).toBe('13712340001');
  });

  it('mode 2: the old number is verified first, then the new one is set', async () => {
    const token = await server.login('implement');
    const newCode = await codeFor('13712340002', token);
    expect(await server.call('user.phone.modify', { phoneNumber: '13712340002', code: newCode }, { token })).toEqual({ code: '400', message: '请先校验原手机号', data: null });

    const oldCode = await codeFor('13800000005', token);
    const wrong = oldCode === '000000' ? '111111' : '000000';
    expect(await server.call('verification.phone.verify', { uuid: '13800000005', code: wrong }, { token })).toEqual({ code: '400', message: '验证码错误或已过期', data: null });
    expect(await server.call('verification.phone.verify', { uuid: '13800000005', code: oldCode }, { token })).toEqual(ok);

    server.advance(61);
    const code = await codeFor('13712340002', token);
    expect(await server.call('user.phone.modify', { phoneNumber: '13712340002', code }, { token })).toEqual(ok);
    expect((await detailOf(token)).phoneNumber).toBe('13712340002');

    // The proof is spent: the next change needs a new one.
    server.advance(61);
    const again = await codeFor('13712340003', token);
    expect((await server.call('user.phone.modify', { phoneNumber: '13712340003', code: again }, { token })).message).toBe('请先校验原手机号');
  });

  it('verifies only the caller\'s own current number', async () => {
    const token = await server.login('patrol');
    const code = await codeFor('13800000003', token); // repair's phone
    expect(await server.call('verification.phone.verify', { uuid: '13800000003', code }, { token })).toEqual({ code: '400', message: '验证码错误或已过期', data: null });
    expect((await server.call('verification.phone.verify', { uuid: '123', code: '123456' }, { token })).message).toBe('请输入正确的手机号码');
    expect((await server.call('verification.phone.verify', { uuid: '13800000004' }, { token })).message).toMatch(/^参数错误：code/);
  });

  it('refuses the same number, and a number bound to another account', async () => {
    const token = await server.login('patrol');
    expect(await server.call('user.phone.modify', { phoneNumber: '13800000004', code: '123456' }, { token })).toEqual({ code: '400', message: '请输入不同的手机号码!', data: null });
    expect(await server.call('verification.phone.verify', { uuid: '13800000004', code: await codeFor('13800000004', token) }, { token })).toEqual(ok);
    const code = await codeFor('13800000006', token); // operator's phone
    expect(await server.call('user.phone.modify', { phoneNumber: '13800000006', code }, { token })).toEqual({ code: '409', message: '该手机号已被其他账号绑定', data: null });
    expect((await detailOf(token)).phoneNumber).toBe('13800000004');
  });

  it('lets the proof of the old number run out after 10 minutes', async () => {
    const token = await server.login('badmin');
    expect(await server.call('verification.phone.verify', { uuid: '13900000002', code: await codeFor('13900000002', token) }, { token })).toEqual(ok);
    server.advance(601);
    const code = await codeFor('13712340004', token);
    expect((await server.call('user.phone.modify', { phoneNumber: '13712340004', code }, { token })).message).toBe('请先校验原手机号');
  });

  it('refuses a wrong code for the new number and bad input', async () => {
    const token = await server.login('hz01');
    const { phoneNumber } = await detailOf(token);
    expect((await server.call('verification.phone.verify', { uuid: phoneNumber, code: await codeFor(phoneNumber, token) }, { token })).code).toBe('200');
    await codeFor('13712340005', token);
    expect(await server.call('user.phone.modify', { phoneNumber: '13712340005', code: '12345' }, { token })).toEqual({ code: '400', message: '验证码错误或已过期', data: null });
    expect((await server.call('user.phone.modify', { phoneNumber: '2371234000', code: '123456' }, { token })).message).toBe('请输入正确的手机号码');
    expect((await server.call('user.phone.modify', { phoneNumber: '13712340005' }, { token })).message).toMatch(/^参数错误：code/);
    expect((await server.call('user.phone.modify', '13712340005', { token })).message).toMatch(/^参数错误/);
    expect((await detailOf(token)).phoneNumber).toBe(phoneNumber);
  });

  it('needs a session', async () => {
    expect((await server.call('user.phone.modify', { phoneNumber: '13712340006', code: '123456' })).code).toBe('301');
    expect((await server.call('verification.phone.verify', { uuid: '13800000001', code: '123456' })).code).toBe('301');
  });
});

describe('changing the mail', () => {
  it('without a mail: the code sent to the new one sets it', async () => {
    const token = await server.login('newbie');
    const code = await codeFor('zhou.ting@example.com', token);
    expect(await server.call('user.mail.modify', { mail: 'Zhou.Ting@Example.com', code }, { token })).toEqual(ok);
    expect((await detailOf(token)).mail).toBe('zhou.ting@example.com');
  });

  it('with a mail: the old one is checked first (verification.captcha.check), then the new one is set', async () => {
    const token = await server.login('tadmin');
    const early = await codeFor('zhang.ming@example.com', token);
    expect(await server.call('user.mail.modify', { mail: 'zhang.ming@example.com', code: early }, { token })).toEqual({ code: '400', message: '请先校验原邮箱', data: null });
    expect(await server.call('verification.captcha.check', { uuid: 'tadmin@example.com', code: await codeFor('tadmin@example.com', token) }, { token })).toEqual(ok);
    expect(await server.call('user.mail.modify', { mail: 'TAdmin@example.com', code: '123456' }, { token })).toEqual({ code: '400', message: '请输入不同的邮箱!', data: null });
    server.advance(61);
    const taken = await codeFor('badmin@example.com', token);
    expect(await server.call('user.mail.modify', { mail: 'badmin@example.com', code: taken }, { token })).toEqual({ code: '409', message: '该邮箱已被其他账号绑定', data: null });
    server.advance(61);
    const code = await codeFor('zhang.ming@example.com', token);
    expect(await server.call('user.mail.modify', { mail: 'zhang.ming@example.com', code }, { token })).toEqual(ok);
    expect((await detailOf(token)).mail).toBe('zhang.ming@example.com');
  });

  it('checks only the caller\'s own mail, and refuses bad input', async () => {
    const token = await server.login('operator');
    const code = await codeFor('admin@example.com', token);
    expect(await server.call('verification.captcha.check', { uuid: 'admin@example.com', code }, { token })).toEqual({ code: '400', message: '验证码错误或已过期', data: null });
    expect((await server.call('verification.captcha.check', { uuid: 'not-a-mail@', code: '123456' }, { token })).message).toBe('请输入正确的邮箱格式');
    expect((await server.call('user.mail.modify', { mail: 'x', code: '123456' }, { token })).message).toBe('请输入正确的邮箱格式');
    expect((await server.call('user.mail.modify', { mail: 'a@example.com', code: '1', extra: 1 }, { token })).message).toMatch(/^参数错误/);
  });
});
