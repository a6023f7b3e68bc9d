/**
 * Token usage of one or more model calls. The four counts are disjoint classes (input excludes cached
 * and cache-written tokens) so each can be priced at its own rate; total is their sum.
 */
import { requireNonNegativeInteger } from '../common/validate.js';

export interface Usage {
  readonly inputTokens: number;
  readonly outputTokens: number;
  readonly cacheWriteTokens: number;
  readonly cacheReadTokens: number;
  readonly totalTokens: number;
}

function of(inputTokens: number, outputTokens: number, cacheWriteTokens = 0, cacheReadTokens = 0): Usage {
  const total = inputTokens + outputTokens + cacheWriteTokens + cacheReadTokens;
  return Object.freeze({
    inputTokens: requireNonNegativeInteger(inputTokens, 'inputTokens'),
    outputTokens: requireNonNegativeInteger(outputTokens, 'outputTokens'),
    cacheWriteTokens: requireNonNegativeInteger(cacheWriteTokens, 'cacheWriteTokens'),
    cacheReadTokens: requireNonNegativeInteger(cacheReadTokens, 'cacheReadTokens'),
    totalTokens: requireNonNegativeInteger(total, 'totalTokens'),
  });
}

/** Adds two usages class by class; a sum beyond the safe-integer range throws rather than rounding. */
function plus(a: Usage, b: Usage): Usage {
  return of(
    a.inputTokens + b.inputTokens,
    a.outputTokens + b.outputTokens,
    a.cacheWriteTokens + b.cacheWriteTokens,
    a.cacheReadTokens + b.cacheReadTokens,
  );
}

const ZERO: Usage = of(0, 0);

export const Usage = { of, plus, ZERO } as const;
