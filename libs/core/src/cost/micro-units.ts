/**
 * Exact conversion between decimal amounts and integer micro-units (millionths) of any currency; no
 * float takes part in the sum. Model cost uses it for micro-USD (usd.ts); budgets use it for whatever
 * currency their limit names.
 */
import { InvalidArgumentError } from '../common/helios-error.js';

export const MICRO_UNITS_PER_UNIT = 1_000_000n;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * `"3.75"` or `3.75` → 3_750_000n. Digits beyond the sixth decimal round half up. Numbers are read
 * through their shortest decimal form, so `0.3` is exactly 300_000n.
 */
export function decimalToMicroUnits(amount: number | string, field = 'amount'): bigint {
  return parseMicroUnits(amount, field, 'a non-negative decimal amount');
}

/** 1_234_567n → `"1.234567"`. */
export function formatMicroUnits(microUnits: bigint): string {
  const sign = microUnits < 0n ? '-' : '';
  const abs = microUnits < 0n ? -microUnits : microUnits;
  const fraction = (abs % MICRO_UNITS_PER_UNIT).toString().padStart(6, '0');
  return `${sign}${abs / MICRO_UNITS_PER_UNIT}.${fraction}`;
}

/** The conversion, with `expected` naming the amount in the error (`a non-negative decimal USD amount`). */
export function parseMicroUnits(amount: number | string, field: string, expected: string): bigint {
  const text = typeof amount === 'number' ? numberToDecimal(amount, field) : amount.trim();
  const match = DECIMAL.exec(text);
  if (!match) throw new InvalidArgumentError(`${field} must be ${expected}, got '${text}'`);
  const whole = BigInt(match[1] as string);
  const fraction = (match[2] ?? '').padEnd(7, '0');
  const micros = BigInt(fraction.slice(0, 6));
  const roundUp = fraction.charCodeAt(6) - 48 >= 5 ? 1n : 0n;
  return whole * MICRO_UNITS_PER_UNIT + micros + roundUp;
}

function numberToDecimal(value: number, field: string): string {
  if (!Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(`${field} must be a finite non-negative number, got ${value}`);
  }
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}
