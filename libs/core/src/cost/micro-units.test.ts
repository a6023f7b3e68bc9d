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

  it('converts numbers of any size through their shortest decimal form, exactly', () => {
    expect(decimalToMicroUnits(1e20)).toBe(10n ** 26n);
    expect(decimalToMicroUnits(1e21)).toBe(10n ** 27n);
    expect(decimalToMicroUnits(1.5e300)).toBe(15n * 10n ** 305n);
    expect(decimalToMicroUnits(Number.MAX_VALUE)).toBe(17976931348623157n * 10n ** 298n);
    expect(decimalToMicroUnits(123456789012345680000)).toBe(123456789012345680000n * MICRO_UNITS_PER_UNIT);
    expect(decimalToMicroUnits(2 ** 53 + 2)).toBe(9007199254740994n * MICRO_UNITS_PER_UNIT);
    expect(decimalToMicroUnits(1.5e-7)).toBe(0n);
    expect(decimalToMicroUnits(5e-7)).toBe(1n);
    expect(decimalToMicroUnits(5e-324)).toBe(0n);
    expect(decimalToMicroUnits(-0)).toBe(0n);
    // Rounded once, on the shortest digits (0.0000004999999999999999): not first to 20 decimals (0.0000005).
    expect(decimalToMicroUnits(4.999999999999999e-7)).toBe(0n);
  });

  it('names no currency when it refuses an amount', () => {
    expect(() => decimalToMicroUnits('1,5', 'limit')).toThrow(
      "limit must be a non-negative decimal amount, got '1,5'",
    );
    expect(() => decimalToMicroUnits(-1)).toThrow('amount must be a finite non-negative number, got -1');
    expect(() => decimalToMicroUnits(Infinity)).toThrow('got Infinity');
    expect(() => decimalToMicroUnits(Number.NaN)).toThrow('got NaN');
  });

  it('formats micro-units with all six decimals', () => {
    expect(formatMicroUnits(9_223_372_036_854_775_807n)).toBe('9223372036854.775807');
    expect(formatMicroUnits(-5n)).toBe('-0.000005');
  });
});
