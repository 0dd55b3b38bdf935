import type { AttemptOutcome } from '../delivery';

/** What an SMS and voice provider is asked to do (./sms.ts chooses the provider, ./aliyun.ts is one). */

export interface SmsRequest {
  phone: string;
  signName: string;
  templateCode: string;
  params: Record<string, string>;
}

export interface CallRequest {
  phone: string;
  templateCode: string;
  params: Record<string, string>;
}

export interface SmsProvider {
  sendSms(request: SmsRequest, signal: AbortSignal): Promise<AttemptOutcome>;
  call(request: CallRequest, signal: AbortSignal): Promise<AttemptOutcome>;
}
