import { Counter, Histogram, Registry } from 'prom-client';
import type { PlatformEvents } from '../domain/platformEvents';

/** A metric label of a reported kind: `wrong password` → `wrong_password`. */
const label = (kind: string): string => kind.replace(/ /g, '_');

/**
 * The registry an app's /api/metrics serves, and the series the domain's reports move (sign-in
 * refusals and lockouts, verification codes, device messages, export durations). One registry per app: the tests
 * build several apps in one process.
 */
export function createPlatformMetrics(): { registry: Registry; events: PlatformEvents } {
  const registry = new Registry();
  const loginRefusals = new Counter({
    name: 'iot_login_failures_total',
    help: '被拒绝的登录（含微信绑定时的账号密码校验），按原因：wrong_password、unknown_login_name、locked、address_limited、disabled、invalid_input',
    labelNames: ['reason'],
    registers: [registry],
  });
  const lockouts = new Counter({
    name: 'iot_login_lockouts_total',
    help: '同一账号与地址连续失败达到上限而被锁定的次数（含修改密码时旧密码错误）',
    registers: [registry],
  });
  const codes = new Counter({
    name: 'iot_verification_codes_total',
    help: '验证码请求，按渠道与结果：sent（已写入发件箱）、withheld（目标不属于任何人，未发送）、too_frequent、daily_limit、bind_key_spent',
    labelNames: ['channel', 'outcome'],
    registers: [registry],
  });
  const exports = new Histogram({
    name: 'iot_export_duration_seconds',
    help: '导出与文件下载（blob 操作）的耗时（秒），按操作与结果（done、failed）',
    labelNames: ['operation', 'outcome'],
    buckets: [0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
    registers: [registry],
  });
  const deviceReports = new Counter({
    name: 'iot_device_reports_total',
    help: '设备上报消息，按通道（http、mqtt）与结果：accepted，或拒绝的原因 unknown_device、bad_credentials、bad_json、out_of_range、too_large',
    labelNames: ['transport', 'outcome'],
    registers: [registry],
  });
  const commandReplies = new Counter({
    name: 'iot_device_command_replies_total',
    help: '设备对指令的回复，按通道（http、mqtt）与结果：acknowledged、failed（已结算指令），或未改变任何指令的原因 malformed、unknown_command（不存在或不是本设备的指令）、late（指令已结束或已过期）',
    labelNames: ['transport', 'outcome'],
    registers: [registry],
  });
  const events: PlatformEvents = {
    loginRefused: (reason) => loginRefusals.inc({ reason: label(reason) }),
    loginLocked: () => lockouts.inc(),
    codeRequested: (channel, outcome) => codes.inc({ channel, outcome: label(outcome) }),
    deviceReported: (transport, outcome) => deviceReports.inc({ transport, outcome: label(outcome) }),
    commandReplied: (transport, outcome) => commandReplies.inc({ transport, outcome: label(outcome) }),
    exported: (operation, seconds, outcome) => exports.observe({ operation, outcome }, seconds),
  };
  return { registry, events };
}
