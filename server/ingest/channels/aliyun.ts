import { createHmac, randomUUID } from 'node:crypto';
import type { AttemptOutcome } from '../delivery';
import { requestJson, textField } from './http';
import type { CallRequest, SmsProvider, SmsRequest } from './smsProvider';

/**
 * Aliyun's SMS (dysmsapi SendSms) and voice (dyvmsapi SingleCallByTts) through their documented
 * RPC interface, version 2017-05-25, signed as Aliyun's "签名机制" defines (signature version 1.0):
 * every parameter but Signature sorted by name, each name and value percent-encoded (RFC 3986:
 * only A-Z a-z 0-9 - _ . ~ stay as they are, a space is %20), joined as name=value with &; the
 * string to sign is `POST&%2F&` + the percent-encoded joined string; Signature =
 * base64(HMAC-SHA1(key = AccessKeySecret + "&", string to sign)). The parameters go as a form
 * body. The answer's `Code` is "OK" when sent; anything else is a failed attempt with Aliyun's
 * code and message (isv.BUSINESS_LIMIT_CONTROL, isv.MOBILE_NUMBER_ILLEGAL, SignatureDoesNotMatch…).
 */

export interface AliyunCredentials {
  accessKeyId: string;
  accessKeySecret: string;
}

export interface AliyunEndpoints {
  sms: string;
  voice: string;
}

/** RFC 3986 percent-encoding as Aliyun signs it (encodeURIComponent leaves ! ' ( ) * as they are). */
export function percentEncode(value: string): string {
  return encodeURIComponent(value).replace(/[!'()*]/g, (character) => `%${character.charCodeAt(0).toString(16).toUpperCase()}`);
}

/** The parameters sorted and joined as signed (and sent). */
export function canonicalQuery(params: Readonly<Record<string, string>>): string {
  return Object.keys(params)
    .sort()
    .map((name) => `${percentEncode(name)}=${percentEncode(params[name])}`)
    .join('&');
}

export function rpcSignature(method: 'GET' | 'POST', params: Readonly<Record<string, string>>, accessKeySecret: string): string {
  const stringToSign = `${method}&${percentEncode('/')}&${percentEncode(canonicalQuery(params))}`;
  return createHmac('sha1', `${accessKeySecret}&`).update(stringToSign).digest('base64');
}

/** 2026-03-18T01:30:00Z: UTC, whole seconds, as the Timestamp parameter wants it. */
const timestampOf = (at: Date) => `${at.toISOString().slice(0, 19)}Z`;

async function call(endpoint: string, action: string, params: Record<string, string>, credentials: AliyunCredentials, now: Date, signal: AbortSignal, label: string): Promise<AttemptOutcome> {
  const signed: Record<string, string> = {
    ...params,
    AccessKeyId: credentials.accessKeyId,
    Action: action,
    Format: 'JSON',
    RegionId: 'cn-hangzhou',
    SignatureMethod: 'HMAC-SHA1',
    SignatureNonce: randomUUID(),
    SignatureVersion: '1.0',
    Timestamp: timestampOf(now),
    Version: '2017-05-25',
  };
  const body = `${canonicalQuery(signed)}&Signature=${percentEncode(rpcSignature('POST', signed, credentials.accessKeySecret))}`;
  const answer = await requestJson(new URL(`${endpoint}/`), { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded; charset=utf-8' }, body }, signal, label);
  const code = textField(answer.json, 'Code');
  if (code === 'OK') return { ok: true, status: answer.status, error: '' };
  if (!code) return { ok: false, status: answer.status, error: `${label}返回 HTTP ${answer.status}，不是阿里云的应答` };
  return { ok: false, status: answer.status, error: `${label}返回错误 ${code}：${textField(answer.json, 'Message')}` };
}

export function aliyunProvider(credentials: AliyunCredentials, endpoints: AliyunEndpoints, now: () => Date): SmsProvider {
  return {
    sendSms: (request: SmsRequest, signal) =>
      call(
        endpoints.sms,
        'SendSms',
        { PhoneNumbers: request.phone, SignName: request.signName, TemplateCode: request.templateCode, TemplateParam: JSON.stringify(request.params) },
        credentials,
        now(),
        signal,
        '阿里云短信',
      ),
    call: (request: CallRequest, signal) =>
      call(endpoints.voice, 'SingleCallByTts', { CalledNumber: request.phone, TtsCode: request.templateCode, TtsParam: JSON.stringify(request.params) }, credentials, now(), signal, '阿里云语音'),
  };
}
