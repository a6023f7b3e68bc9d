/**
 * Money crosses the wire as decimal numbers and is held as integer micro-units (of whatever currency
 * the limit names), so sums never accumulate float error. Micro-units are bigints of any size: every
 * finite JSON number is an amount a counter can hold (the database keeps them in `numeric`).
 */
import { decimalToMicroUnits, formatMicroUnits, MICRO_UNITS_PER_UNIT } from '@helios/core';

/**
 * What makes an amount invalid: every case {@link toMicroUnits} refuses, named once (size is never
 * one). It is the text of `/audit`'s `invalid_actual_amount`, over HTTP and in process; `/evaluate`'s
 * spend and budget refusals (`reason: "invalid_amount"`) keep the reference's own words, which its
 * adapters show.
 */
export const INVALID_AMOUNT_TEXT =
  'must be a finite number of at least 0, of any size; refused: no value where one is required, ' +
  'a value that is not a number (such as the string "10" or null), a negative number, NaN or Infinity';

/** A finite, non-negative number of any size → micro-units; anything else (the fail-closed case) → undefined. */
export function toMicroUnits(value: unknown): bigint | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  return decimalToMicroUnits(value);
}

const EXACT_MICROS = 2n ** 53n;
const MICROS_PER_UNIT = Number(MICRO_UNITS_PER_UNIT);

/**
 * Micro-units → the decimal number the wire shows: the double nearest the exact amount (exactly it
 * whenever a double can say it). Only the wire rounds; what is stored and compared stays the bigint.
 */
export function fromMicroUnits(micros: bigint): number {
  // Up to 2^53 both operands are exact and IEEE division rounds once, to the nearest double.
  if (micros <= EXACT_MICROS && micros >= -EXACT_MICROS) return Number(micros) / MICROS_PER_UNIT;
  // Beyond, Number(micros) would round before the division does: parse the exact decimal instead.
  return Number(formatMicroUnits(micros));
}
