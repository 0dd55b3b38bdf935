import { notify } from '../api/notifier';
import { ACCOUNT_MESSAGES } from './accountRules';

/** Copies text with the asynchronous clipboard API and tells the user how it went (SPEC §8). */
export async function copyToClipboard(text: string): Promise<boolean> {
  try {
    if (!navigator.clipboard) throw new Error('clipboard unavailable');
    await navigator.clipboard.writeText(text);
    notify.success(ACCOUNT_MESSAGES.copied);
    return true;
  } catch {
    notify.error(ACCOUNT_MESSAGES.copyFailed);
    return false;
  }
}
