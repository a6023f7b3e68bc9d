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

/** The cache classes of a usage, when a provider reports them (each 0 when absent). */
export interface CacheTokens {
  readonly cacheWriteTokens?: number;
  readonly cacheReadTokens?: number;
}

const NO_CACHE: CacheTokens = Object.freeze({});

function of(inputTokens: number, outputTokens: number, cache: CacheTokens = NO_CACHE): Usage {
  return counted(inputTokens, outputTokens, cache.cacheWriteTokens ?? 0, cache.cacheReadTokens ?? 0);
}

/** Positional on purpose: private, and on the path of every turn's usage sum (no options object there). */
function counted(
  inputTokens: number,
  outputTokens: number,
  cacheWriteTokens: number,
  cacheReadTokens: number,
): Usage {
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
  return counted(
    a.inputTokens + b.inputTokens,
    a.outputTokens + b.outputTokens,
    a.cacheWriteTokens + b.cacheWriteTokens,
    a.cacheReadTokens + b.cacheReadTokens,
  );
}

const ZERO: Usage = of(0, 0);

export const Usage = { of, plus, ZERO } as const;
