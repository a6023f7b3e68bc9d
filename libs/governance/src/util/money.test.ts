import { describe, expect, it } from 'vitest';
import { fromMicroUnits, INVALID_AMOUNT_TEXT, toMicroUnits } from './money.js';

describe('money', () => {
  it('converts decimal amounts of any currency to micro-units exactly, rounding the seventh decimal half up', () => {
    expect(toMicroUnits(0)).toBe(0n);
    expect(toMicroUnits(0.3)).toBe(300_000n);
    expect(toMicroUnits(12.5)).toBe(12_500_000n);
    expect(toMicroUnits(0.0000015)).toBe(2n);
    expect(toMicroUnits(0.0000014)).toBe(1n);
  });

  it('refuses anything but a finite non-negative number (fail closed)', () => {
    for (const bad of [-1, -0.000001, Number.NaN, Infinity, -Infinity, '1', 1n, null, undefined, {}])
      expect(toMicroUnits(bad)).toBeUndefined();
  });

  it('holds amounts of any size: no ceiling below the largest finite number', () => {
    expect(toMicroUnits(9_223_372_036_855)).toBe(9_223_372_036_855_000_000n);
    expect(toMicroUnits(1e20)).toBe(10n ** 26n);
    expect(toMicroUnits(1e21)).toBe(10n ** 27n);
    expect(toMicroUnits(1.5e300)).toBe(15n * 10n ** 305n);
    expect(toMicroUnits(Number.MAX_VALUE)).toBe(17976931348623157n * 10n ** 298n);
  });

  it('turns micro-units back into the decimal number the wire shows', () => {
    expect(fromMicroUnits(0n)).toBe(0);
    expect(fromMicroUnits(12_500_000n)).toBe(12.5);
    expect(fromMicroUnits(1n)).toBe(0.000001);
    expect(fromMicroUnits(toMicroUnits(0.1) as bigint)).toBe(0.1);
  });

  it('gives back the same number for huge amounts, and the nearest double for sums no double spells', () => {
    for (const amount of [1e13, 1e20, 1e25, 1.2345678901234568e29, 1.5e300, Number.MAX_VALUE, 2 ** 53 + 2])
      expect(fromMicroUnits(toMicroUnits(amount) as bigint), String(amount)).toBe(amount);
    expect(fromMicroUnits(2n ** 63n * 3n)).toBe(27670116110564.33);
    // 1e20 + 0.000001 has no double of its own: the nearest is 1e20; the bigint keeps the micro-unit.
    expect(fromMicroUnits(10n ** 26n + 1n)).toBe(1e20);
    expect(fromMicroUnits(-(10n ** 26n))).toBe(-1e20);
  });

  it('names every invalid amount once, in one text', () => {
    for (const named of ['no value', 'not a number', '"10"', 'negative', 'NaN', 'Infinity'])
      expect(INVALID_AMOUNT_TEXT).toContain(named);
  });
});
