/**
 * Money crosses the wire as decimal numbers and is held as integer micro-units (of whatever currency
 * the limit names), so sums never accumulate float error.
 */
import { usdToMicroUsd } from '@helios/core';

/** A finite, non-negative number → micro-units; anything else (the fail-closed case) → undefined. */
export function toMicroUnits(value: unknown): bigint | undefined {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) return undefined;
  // usdToMicroUsd is a generic exact decimal → micro-unit conversion; the currency does not matter.
  return usdToMicroUsd(value);
}

/** Micro-units → the decimal number the wire shows. */
export function fromMicroUnits(micros: bigint): number {
  return Number(micros) / 1_000_000;
}
