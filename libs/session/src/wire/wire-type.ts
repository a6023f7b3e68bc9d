/**
 * The wire form of a value type, derived from the value type so the two cannot drift: every field keeps
 * its name, micro-USD (`bigint`, `CostEstimate`) becomes a decimal string and bytes (`Uint8Array`) a
 * base64 string; everything else is already JSON.
 */
import { type CostEstimate } from '@helios/core';

export type Wire<T> = T extends bigint | CostEstimate
  ? string
  : T extends Uint8Array
    ? string
    : T extends readonly (infer U)[]
      ? readonly Wire<U>[]
      : T extends object
        ? { readonly [K in keyof T]: Wire<T[K]> }
        : T;
