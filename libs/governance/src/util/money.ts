/**
 * Money crosses the wire as decimal numbers and is held as integer micro-units (of whatever currency
 * the limit names), so sums never accumulate float error.
 */
import { decimalToMicroUnits, formatMicroUnits, MICRO_UNITS_PER_UNIT } from '@helios/core';

/**
 * The largest amount a counter holds, in micro-units: PostgreSQL's bigint, where charges, holds and
 * limits are stored. About 9.2 trillion of the currency; a larger charge cannot be stored, let alone
 * admitted.
 */
export const MAX_MICRO_UNITS = 9_223_372_036_854_775_807n;
/** {@link MAX_MICRO_UNITS} as the decimal amount policies and callers write. */
export const MAX_AMOUNT_TEXT = formatMicroUnits(MAX_MICRO_UNITS);

/**
 * A finite, non-negative number up to {@link MAX_MICRO_UNITS} → micro-units; anything else (the
 * fail-closed case) → undefined.
 */
export function toMicroUnits(value: unknown): bigint | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  const micros = decimalToMicroUnits(value);
  return micros > MAX_MICRO_UNITS ? undefined : micros;
}

/** Micro-units → the decimal number the wire shows. */
export function fromMicroUnits(micros: bigint): number {
  return Number(micros) / Number(MICRO_UNITS_PER_UNIT);
}
