/**
 * Retries an operation on retryable failures with backoff. Cancellation wins everywhere: an abort ends
 * a backoff wait at once, and an AbortError is never retried. Only Error instances are considered for
 * retry; any other thrown value propagates untouched.
 */
import { delay, isAbortError, throwIfAborted } from '../common/abort.js';
import { isProgrammingError } from '../common/programming-error.js';
import { requirePositiveInteger } from '../common/validate.js';
import { Backoff } from './backoff.js';
import { RetryExhaustedError } from './fault-errors.js';

export interface RetryPolicyOptions {
  /** Attempts in total, first included. Default 3. */
  readonly maxAttempts?: number;
  /** Default exponential from 500 ms, ×2. */
  readonly backoff?: Backoff;
  /** Fraction of each delay to spread randomly. Default 0.1. */
  readonly jitter?: number;
  /** Which errors deserve another attempt. Default: every Error except cancellation. */
  readonly retryOn?: (error: Error) => boolean;
  /** Injected for tests. */
  readonly random?: () => number;
  /** Told before each backoff wait. */
  readonly onRetry?: (event: {
    readonly attempt: number;
    readonly delayMs: number;
    readonly error: Error;
  }) => void;
}

export type Operation<T> = (signal: AbortSignal) => Promise<T>;

export class RetryPolicy {
  readonly maxAttempts: number;
  readonly backoff: Backoff;
  readonly jitter: number;
  readonly #retryOn: (error: Error) => boolean;
  readonly #random: () => number;
  readonly #onRetry: RetryPolicyOptions['onRetry'];

  constructor(options: RetryPolicyOptions = {}) {
    this.maxAttempts = requirePositiveInteger(options.maxAttempts ?? 3, 'maxAttempts');
    this.backoff = options.backoff ?? Backoff.exponential(500, 2);
    this.jitter = options.jitter ?? 0.1;
    this.#retryOn = options.retryOn ?? (() => true);
    this.#random = options.random ?? Math.random;
    this.#onRetry = options.onRetry;
    Object.freeze(this);
  }

  /**
   * Runs `operation` until it succeeds or retrying ends: attempts run out, the error is not retryable,
   * or the `retryOn` predicate itself throws (its error rides along in `suppressed`). Each of those ends
   * with RetryExhaustedError(attempts made, last cause). Cancellation, programming errors and thrown
   * non-Error values are not failures of the operation to retry and propagate as they are.
   */
  async execute<T>(operation: Operation<T>, signal: AbortSignal = new AbortController().signal): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      throwIfAborted(signal);
      try {
        return await operation(signal);
      } catch (error) {
        // A programming error is a bug, not a transient fault: retrying only repeats it.
        if (!(error instanceof Error) || signal.aborted || isAbortError(error) || isProgrammingError(error)) {
          throw error;
        }
        const verdict = this.#judge(error);
        if (verdict !== true || attempt >= this.maxAttempts) {
          const suppressed = typeof verdict === 'object' ? [verdict.predicateError] : [];
          throw new RetryExhaustedError(attempt, error, suppressed);
        }
        const wait = Backoff.jitteredDelayMs(this.backoff, attempt, {
          jitter: this.jitter,
          random: this.#random,
        });
        this.#onRetry?.({ attempt, delayMs: wait, error });
        await delay(wait, signal);
      }
    }
  }

  /** true: retry; false: not retryable; an object: the predicate threw, which also stops retrying. */
  #judge(error: Error): boolean | { readonly predicateError: unknown } {
    try {
      return this.#retryOn(error);
    } catch (predicateError) {
      return { predicateError };
    }
  }
}
