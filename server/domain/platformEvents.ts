import type { ReportOutcome } from '../ingest/reportChecks';

/**
 * What the platform tells its operator besides the calls themselves (issue 24's metrics): sign-in
 * refusals and lockouts, verification codes sent and refused, export durations. The domain reports
 * them here; server/http/platformMetrics.ts counts them in Prometheus series. Device messages taken
 * and refused are counted the same way. Nothing reported
 * names a user, an address, a target or a code: only what kind of thing happened.
 */
export type LoginRefusal = 'wrong password' | 'unknown login name' | 'locked' | 'address limited' | 'disabled' | 'invalid input';

/** What became of a request for a verification code. */
export type CodeOutcome =
  /** Written to the outbox for delivery. */
  | 'sent'
  /** Recorded and answered 发送成功, but the target belongs to nobody: nothing goes out. */
  | 'withheld'
  /** Refused: the previous code for the target is less than RESEND_INTERVAL_SECONDS old. */
  | 'too frequent'
  /** Refused: the target or its tenant has had the day's codes. */
  | 'daily limit'
  /** Refused: the WeChat registration's bind key has had its codes. */
  | 'bind key spent';

/** Where a verification code goes (SPEC §4): the label its metrics count by. */
export type Channel = 'sms' | 'voice' | 'mail';

/** What became of a device's reply to a command (the label of iot_device_command_replies_total). */
export type ReplyOutcome = 'acknowledged' | 'failed' | 'malformed' | 'unknown command' | 'late';

export interface PlatformEvents {
  loginRefused(reason: LoginRefusal): void;
  /** A (login name, address) pair reached MAX_FAILED_LOGINS and is locked for the window. */
  loginLocked(): void;
  codeRequested(channel: Channel, outcome: CodeOutcome): void;
  /** A device message arrived over `transport` and was taken or refused (issue 22). */
  deviceReported(transport: 'http' | 'mqtt', outcome: ReportOutcome): void;
  /** A device's reply to a command arrived over `transport`: it settled the command, or changed nothing and why (issue 31). */
  commandReplied(transport: 'http' | 'mqtt', outcome: ReplyOutcome): void;
  /** A `blob` operation (an export or a template) answered, or failed, after `seconds`. */
  exported(operation: string, seconds: number, outcome: 'done' | 'failed'): void;
}

