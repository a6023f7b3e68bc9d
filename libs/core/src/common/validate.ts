/** Argument checks shared by the value factories; each throws InvalidArgumentError naming the field. */
import { InvalidArgumentError } from './helios-error.js';

export function requireNonBlank(value: unknown, field: string): string {
  if (typeof value !== 'string' || value.trim().length === 0) {
    throw new InvalidArgumentError(`${field} must be a non-blank string`);
  }
  return value;
}

export function requireNonNegativeInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 0) {
    throw new InvalidArgumentError(`${field} must be a non-negative safe integer, got ${String(value)}`);
  }
  return value;
}

export function requirePositiveInteger(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isSafeInteger(value) || value < 1) {
    throw new InvalidArgumentError(`${field} must be a positive safe integer, got ${String(value)}`);
  }
  return value;
}

export function requireNonNegativeNumber(value: unknown, field: string): number {
  if (typeof value !== 'number' || !Number.isFinite(value) || value < 0) {
    throw new InvalidArgumentError(`${field} must be a finite number ≥ 0, got ${String(value)}`);
  }
  return value;
}

/** Exhaustiveness guard for switches over discriminated unions. */
export function assertNever(value: never, what: string): never {
  throw new InvalidArgumentError(`unknown ${what}: ${JSON.stringify(value)}`);
}
