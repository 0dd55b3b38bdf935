import { describe, expect, it } from 'vitest';
import { formatCount, formatDuration } from '../../src/format/numbers';

describe('SPEC §9 count display', () => {
  it('shows values up to 1000 as they are', () => {
    expect(formatCount(0)).toBe('0');
    expect(formatCount(999)).toBe('999');
    expect(formatCount(1000)).toBe('1000');
  });
  it('floors values above 1000 to thousands with +', () => {
    expect(formatCount(1001)).toBe('1000+');
    expect(formatCount(1999)).toBe('1000+');
    expect(formatCount(9999)).toBe('9000+');
    expect(formatCount(10000)).toBe('10000+');
  });
  it('shows values above 10000 in 万 with one decimal and 万+', () => {
    expect(formatCount(10001)).toBe('1.0万+');
    expect(formatCount(12345)).toBe('1.2万+');
    expect(formatCount(19999)).toBe('1.9万+');
    expect(formatCount(20000)).toBe('2.0万+');
    expect(formatCount(1234567)).toBe('123.4万+');
  });
  it('treats missing values as 0', () => {
    expect(formatCount(undefined)).toBe('0');
    expect(formatCount(null)).toBe('0');
  });
});

describe('SPEC §9 duration display', () => {
  const h = 3600;
  const d = 24 * h;
  it('shows hours under a day', () => {
    expect(formatDuration(0)).toBe('0小时');
    expect(formatDuration(5 * h + 59)).toBe('5小时');
    expect(formatDuration(d - 1)).toBe('23小时');
  });
  it('shows days plus hours under 30 days', () => {
    expect(formatDuration(d)).toBe('1天0小时');
    expect(formatDuration(2 * d + 5 * h)).toBe('2天5小时');
    expect(formatDuration(30 * d - 1)).toBe('29天23小时');
  });
  it('shows months plus days plus hours under a year', () => {
    expect(formatDuration(30 * d)).toBe('1个月0天0小时');
    expect(formatDuration(65 * d + 3 * h)).toBe('2个月5天3小时');
    expect(formatDuration(365 * d - 1)).toBe('12个月4天23小时');
  });
  it('shows years, capped at 3年', () => {
    expect(formatDuration(365 * d)).toBe('1年');
    expect(formatDuration(800 * d)).toBe('2年');
    expect(formatDuration(3 * 365 * d)).toBe('3年');
    expect(formatDuration(10 * 365 * d)).toBe('3年');
  });
});
