/** SPEC §5: shown when there is no phone number. */
export const NO_VALUE = '暂无';

/** SPEC §5 phone display: the first 4 digits, ****, then from the 8th digit on. */
export function maskPhone(phone: string | null | undefined): string {
  if (!phone) return NO_VALUE;
  return `${phone.slice(0, 4)}****${phone.slice(7)}`;
}
