/** How long to wait before retry number `attempt` (1 = the wait after the first failure). */
import { InvalidArgumentError } from '../common/helios-error.js';
import { requireNonNegativeNumber } from '../common/validate.js';

export const DEFAULT_MAX_BACKOFF_MS = 5 * 60_000;

export type Backoff =
  | { readonly type: 'Fixed'; readonly delayMs: number }
  | {
      readonly type: 'Exponential';
      readonly initialMs: number;
      readonly multiplier: number;
      readonly maxMs: number;
    };

/** How much a delay is spread, and the random source in [0, 1) (default `Math.random`). */
export interface JitterOptions {
  readonly jitter: number;
  readonly random?: () => number;
}

export const Backoff = {
  fixed(delayMs: number): Backoff {
    return Object.freeze({ type: 'Fixed', delayMs: requireNonNegativeNumber(delayMs, 'delayMs') });
  },
  exponential(initialMs: number, multiplier = 2, maxMs = DEFAULT_MAX_BACKOFF_MS): Backoff {
    requireNonNegativeNumber(initialMs, 'initialMs');
    requireNonNegativeNumber(maxMs, 'maxMs');
    if (!(multiplier >= 1)) throw new InvalidArgumentError(`multiplier must be ≥ 1, got ${multiplier}`);
    return Object.freeze({ type: 'Exponential', initialMs, multiplier, maxMs });
  },

  /** The nominal delay: initial × multiplier^(attempt−1), capped. */
  delayMs(backoff: Backoff, attempt: number): number {
    switch (backoff.type) {
      case 'Fixed':
        return backoff.delayMs;
      case 'Exponential':
        return Math.min(backoff.maxMs, backoff.initialMs * backoff.multiplier ** Math.max(0, attempt - 1));
      default: {
        const unknown: never = backoff;
        return unknown;
      }
    }
  },

  /** The delay spread uniformly by ±jitter×delay (jitter clamped to [0, 1]) so clients do not retry in step. */
  jitteredDelayMs(backoff: Backoff, attempt: number, options: JitterOptions): number {
    const base = Backoff.delayMs(backoff, attempt);
    const spread = Math.min(1, Math.max(0, options.jitter)) * base;
    const random = options.random ?? Math.random;
    return Math.max(0, Math.round(base + (random() * 2 - 1) * spread));
  },
} as const;
