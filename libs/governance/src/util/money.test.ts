import { describe, expect, it } from 'vitest';
import { fromMicroUnits, MAX_AMOUNT_TEXT, MAX_MICRO_UNITS, toMicroUnits } from './money.js';

describe('money', () => {
  it('converts decimal amounts of any currency to micro-units exactly, rounding the seventh decimal half up', () => {
    expect(toMicroUnits(0)).toBe(0n);
    expect(toMicroUnits(0.3)).toBe(300_000n);
    expect(toMicroUnits(12.5)).toBe(12_500_000n);
    expect(toMicroUnits(0.0000015)).toBe(2n);
    expect(toMicroUnits(0.0000014)).toBe(1n);
  });

  it('refuses what a counter cannot hold, and anything but a finite non-negative number (fail closed)', () => {
    for (const bad of [-1, -0.000001, Number.NaN, Infinity, -Infinity, '1', 1n, null, undefined, {}])
      expect(toMicroUnits(bad)).toBeUndefined();
    expect(toMicroUnits(9_223_372_036_854)).toBe(9_223_372_036_854_000_000n);
    expect(toMicroUnits(9_223_372_036_855)).toBeUndefined();
    expect(toMicroUnits(1e21)).toBeUndefined();
    expect(toMicroUnits(Number(MAX_MICRO_UNITS))).toBeUndefined();
  });

  it('spells the largest amount as the decimal policies write', () => {
    expect(MAX_AMOUNT_TEXT).toBe('9223372036854.775807');
  });

  it('turns micro-units back into the decimal number the wire shows', () => {
    expect(fromMicroUnits(0n)).toBe(0);
    expect(fromMicroUnits(12_500_000n)).toBe(12.5);
    expect(fromMicroUnits(1n)).toBe(0.000001);
    expect(fromMicroUnits(toMicroUnits(0.1) as bigint)).toBe(0.1);
  });
});
