import { PROVIDER_LABELS, type ChannelSecrets, type ChannelSettings, type ChannelType } from '../../domain/notificationChannels';
import type { ChannelEndpoints } from '../../config';
import type { AttemptOutcome } from '../delivery';
import type { SmsProvider } from './smsProvider';
import { aliyunProvider } from './aliyun';

/**
 * SMS and voice calls through a provider (发送配置's 服务商): one interface, one implementation
 * today (Aliyun, ./aliyun.ts). A provider sends a template it holds (模板编码 / TTS 模板) with the
 * values of its variables: a channel message fills `${content}` with the rendered text (without the
 * 【签名】, which the provider adds from 短信签名), a verification code fills `${code}`. The other
 * providers of the dictionary (腾讯云, 华为云) are refused as not supported, without retries.
 */

export function providerFor(settings: ChannelSettings, secrets: ChannelSecrets, endpoints: ChannelEndpoints, now: () => Date): SmsProvider | AttemptOutcome {
  if (!settings.accessKeyId || !secrets.accessKeySecret || !settings.templateCode) return { ok: false, status: null, error: '渠道的 AccessKey 或模板未配置完整', final: true };
  if (settings.provider !== 'aliyun') {
    const name = settings.provider ? PROVIDER_LABELS[settings.provider] : '未选择服务商';
    return { ok: false, status: null, error: `暂不支持通过${name}发送，请改用阿里云`, final: true };
  }
  return aliyunProvider({ accessKeyId: settings.accessKeyId, accessKeySecret: secrets.accessKeySecret }, { sms: endpoints.aliyunSms, voice: endpoints.aliyunVoice }, now);
}

/** The text a provider's template carries for a channel message: without the 【签名】 framedMessage put in front. */
export function templateText(type: ChannelType, settings: ChannelSettings, content: string): string {
  const framed = `【${settings.signName ?? ''}】`;
  return type === 'sms' && settings.signName && content.startsWith(framed) ? content.slice(framed.length) : content;
}

/** Sends an SMS or a voice call through the channel's provider. */
export async function sendThroughProvider(
  type: 'sms' | 'voice',
  phone: string,
  params: Record<string, string>,
  channel: { settings: ChannelSettings; secrets: ChannelSecrets },
  endpoints: ChannelEndpoints,
  now: () => Date,
  signal: AbortSignal,
): Promise<AttemptOutcome> {
  const provider = providerFor(channel.settings, channel.secrets, endpoints, now);
  if ('ok' in provider) return provider;
  const templateCode = channel.settings.templateCode ?? '';
  if (type === 'voice') return provider.call({ phone, templateCode, params }, signal);
  if (!channel.settings.signName) return { ok: false, status: null, error: '短信渠道未配置短信签名', final: true };
  return provider.sendSms({ phone, signName: channel.settings.signName, templateCode, params }, signal);
}
