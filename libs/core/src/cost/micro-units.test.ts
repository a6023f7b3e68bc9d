import { describe, expect, it } from 'vitest';
import { decimalToMicroUnits, formatMicroUnits, MICRO_UNITS_PER_UNIT } from './micro-units.js';

describe('micro-units (any currency)', () => {
  it('converts decimal amounts exactly, rounding half up past the sixth decimal', () => {
    expect(decimalToMicroUnits('3.75')).toBe(3_750_000n);
    expect(decimalToMicroUnits(0.1 + 0.2)).toBe(300_000n);
    expect(decimalToMicroUnits('0.0000005')).toBe(1n);
    expect(decimalToMicroUnits('0.0000004')).toBe(0n);
    expect(decimalToMicroUnits(1)).toBe(MICRO_UNITS_PER_UNIT);
  });

  it('names no currency when it refuses an amount', () => {
    expect(() => decimalToMicroUnits('1,5', 'limit')).toThrow(
      "limit must be a non-negative decimal amount, got '1,5'",
    );
    expect(() => decimalToMicroUnits(-1)).toThrow('amount must be a finite non-negative number, got -1');
  });

  it('formats micro-units with all six decimals', () => {
    expect(formatMicroUnits(9_223_372_036_854_775_807n)).toBe('9223372036854.775807');
    expect(formatMicroUnits(-5n)).toBe('-0.000005');
  });
});
