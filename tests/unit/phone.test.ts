import { describe, expect, it } from 'vitest';
import { maskPhone } from '../../src/format/phone';

describe('SPEC §5 phone display', () => {
  it('shows the first 4 digits, ****, then from the 8th digit', () => {
    expect(maskPhone('13800000001')).toBe('1380****0001');
    expect(maskPhone('13912345678')).toBe('1391****5678');
  });
  it('shows 暂无 when empty', () => {
    expect(maskPhone('')).toBe('暂无');
    expect(maskPhone(null)).toBe('暂无');
    expect(maskPhone(undefined)).toBe('暂无');
  });
});
