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
 * through their shortest decimal form, so `0.3` is exactly 300_000n, and any finite number converts,
 * however large (`1e20` → 10n ** 26n; `Number.MAX_VALUE` too): the result is a bigint, never capped.
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
  // Whole amounts (the common case) skip the decimal text.
  if (Number.isSafeInteger(amount) && (amount as number) >= 0) return BigInt(amount) * MICRO_UNITS_PER_UNIT;
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
  return plainDecimal(String(value));
}

const EXPONENTIAL = /^(\d+)(?:\.(\d+))?e([+-]\d+)$/;

/**
 * JavaScript's shortest round-trip form of a number (`String(n)`: `0.3`, `1e+21`, `1.5e-7`) spelled
 * without an exponent, digit for digit: `1.5e+300` is `15` and 299 zeros, `5e-7` is `0.0000005`.
 * Rounding happens once, on these digits; formatting with a fixed number of fraction digits first
 * would round twice (`4.999999999999999e-7` would become `0.0000005`).
 */
function plainDecimal(shortest: string): string {
  const match = EXPONENTIAL.exec(shortest);
  if (!match) return shortest;
  const digits = `${match[1] as string}${match[2] ?? ''}`;
  const point = (match[1] as string).length + Number(match[3]);
  if (point <= 0) return `0.${'0'.repeat(-point)}${digits}`;
  if (point >= digits.length) return `${digits}${'0'.repeat(point - digits.length)}`;
  return `${digits.slice(0, point)}.${digits.slice(point)}`;
}
