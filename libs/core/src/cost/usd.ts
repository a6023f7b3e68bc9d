/** Exact conversion between decimal USD text and integer micro-USD; no float takes part in the sum. */
import { InvalidArgumentError } from '../common/helios-error.js';

export const MICRO_USD_PER_USD = 1_000_000n;

const DECIMAL = /^(\d+)(?:\.(\d+))?$/;

/**
 * `"3.75"` or `3.75` → 3_750_000n. Digits beyond the sixth decimal round half up. Numbers are read
 * through their shortest decimal form, so `0.3` is exactly 300_000n.
 */
export function usdToMicroUsd(usd: number | string, field = 'amount'): bigint {
  const text = typeof usd === 'number' ? numberToDecimal(usd, field) : usd.trim();
  const match = DECIMAL.exec(text);
  if (!match)
    throw new InvalidArgumentError(`${field} must be a non-negative decimal USD amount, got '${text}'`);
  const whole = BigInt(match[1] as string);
  const fraction = (match[2] ?? '').padEnd(7, '0');
  const micros = BigInt(fraction.slice(0, 6));
  const roundUp = fraction.charCodeAt(6) - 48 >= 5 ? 1n : 0n;
  return whole * MICRO_USD_PER_USD + micros + roundUp;
}

function numberToDecimal(value: number, field: string): string {
  if (!Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(`${field} must be a finite non-negative number, got ${value}`);
  }
  return value.toLocaleString('en-US', { useGrouping: false, maximumFractionDigits: 20 });
}

/** 1_234_567n → `"1.234567"`. */
export function formatMicroUsd(microUsd: bigint): string {
  const sign = microUsd < 0n ? '-' : '';
  const abs = microUsd < 0n ? -microUsd : microUsd;
  const fraction = (abs % MICRO_USD_PER_USD).toString().padStart(6, '0');
  return `${sign}${abs / MICRO_USD_PER_USD}.${fraction}`;
}
