/**
 * Micro-USD, the unit of model cost: the micro-unit conversion (micro-units.ts) spelled for USD, with
 * USD in its error messages. Code that handles amounts of any currency uses micro-units.ts directly.
 */
import { formatMicroUnits, MICRO_UNITS_PER_UNIT, parseMicroUnits } from './micro-units.js';

export const MICRO_USD_PER_USD = MICRO_UNITS_PER_UNIT;

/**
 * `"3.75"` or `3.75` USD → 3_750_000n micro-USD. Digits beyond the sixth decimal round half up. Numbers
 * are read through their shortest decimal form, so `0.3` is exactly 300_000n.
 */
export function usdToMicroUsd(usd: number | string, field = 'amount'): bigint {
  return parseMicroUnits(usd, field, 'a non-negative decimal USD amount');
}

/** 1_234_567n micro-USD → `"1.234567"`. */
export function formatMicroUsd(microUsd: bigint): string {
  return formatMicroUnits(microUsd);
}
