/**
 * Stops calling a failing dependency. CLOSED counts consecutive failures; at the threshold it OPENs and
 * refuses calls; after `halfOpenAfterMs` since the last failure it admits one trial at a time
 * (HALF_OPEN): enough successes close it, any failure opens it again. Cancellations count as neither.
 */
import { isAbortError } from '../common/abort.js';
import { requirePositiveInteger, requireNonNegativeNumber } from '../common/validate.js';
import { CircuitBreakerOpenError } from './fault-errors.js';

export const CircuitState = { CLOSED: 'CLOSED', OPEN: 'OPEN', HALF_OPEN: 'HALF_OPEN' } as const;
export type CircuitState = (typeof CircuitState)[keyof typeof CircuitState];

export interface CircuitBreakerOptions {
  /** Consecutive failures that open the circuit. Default 5. */
  readonly failureThreshold?: number;
  /** Successful trials that close a half-open circuit. Default 1. */
  readonly successThreshold?: number;
  /** Wait after the last failure before a trial is allowed. Default 30 s. */
  readonly halfOpenAfterMs?: number;
  readonly now?: () => number;
}

export type StateListener = (state: CircuitState, previous: CircuitState) => void;

export class CircuitBreaker {
  readonly failureThreshold: number;
  readonly successThreshold: number;
  readonly halfOpenAfterMs: number;
  readonly #now: () => number;
  readonly #listeners = new Set<StateListener>();
  #state: CircuitState = CircuitState.CLOSED;
  #failures = 0;
  #successes = 0;
  #lastFailureAt = 0;
  #trialInFlight = false;

  constructor(options: CircuitBreakerOptions = {}) {
    this.failureThreshold = requirePositiveInteger(options.failureThreshold ?? 5, 'failureThreshold');
    this.successThreshold = requirePositiveInteger(options.successThreshold ?? 1, 'successThreshold');
    this.halfOpenAfterMs = requireNonNegativeNumber(options.halfOpenAfterMs ?? 30_000, 'halfOpenAfterMs');
    this.#now = options.now ?? Date.now;
  }

  /** The current state; an open circuit whose wait is over reads HALF_OPEN. */
  get state(): CircuitState {
    if (this.#state === CircuitState.OPEN && this.#now() - this.#lastFailureAt >= this.halfOpenAfterMs) {
      this.#transition(CircuitState.HALF_OPEN);
    }
    return this.#state;
  }

  get failureCount(): number {
    return this.#failures;
  }

  /** Subscribes to state changes; returns the unsubscribe function. */
  onStateChange(listener: StateListener): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  reset(): void {
    this.#failures = 0;
    this.#successes = 0;
    this.#trialInFlight = false;
    this.#transition(CircuitState.CLOSED);
  }

  async execute<T>(operation: () => Promise<T>): Promise<T> {
    const state = this.state;
    if (state === CircuitState.OPEN || (state === CircuitState.HALF_OPEN && this.#trialInFlight)) {
      throw new CircuitBreakerOpenError(`circuit breaker is ${state}; call refused`);
    }
    const isTrial = state === CircuitState.HALF_OPEN;
    if (isTrial) this.#trialInFlight = true;
    try {
      const result = await operation();
      this.#onSuccess();
      return result;
    } catch (error) {
      if (!isAbortError(error)) this.#onFailure();
      throw error;
    } finally {
      if (isTrial) this.#trialInFlight = false;
    }
  }

  #onSuccess(): void {
    if (this.#state === CircuitState.HALF_OPEN) {
      this.#successes += 1;
      if (this.#successes >= this.successThreshold) this.reset();
    } else {
      this.#failures = 0;
    }
  }

  #onFailure(): void {
    this.#lastFailureAt = this.#now();
    this.#failures += 1;
    if (this.#state === CircuitState.HALF_OPEN || this.#failures >= this.failureThreshold) {
      this.#successes = 0;
      this.#transition(CircuitState.OPEN);
    }
  }

  #transition(next: CircuitState): void {
    const previous = this.#state;
    if (previous === next) return;
    this.#state = next;
    for (const listener of this.#listeners) listener(next, previous);
  }
}
