/**
 * Retry, circuit breaker and timeout composed as timeout(breaker(retry(operation))). The operation gets
 * an AbortSignal that fires on the caller's abort or the timeout, and the envelope settles the moment
 * either happens even if the operation ignores its signal.
 */
import { abortReason, raceAbort, throwIfAborted } from '../common/abort.js';
import { requirePositiveInteger } from '../common/validate.js';
import { type CircuitBreaker } from './circuit-breaker.js';
import { OperationTimeoutError } from './fault-errors.js';
import { type Operation, type RetryPolicy } from './retry-policy.js';

export interface FaultToleranceOptions {
  readonly retry?: RetryPolicy;
  readonly circuitBreaker?: CircuitBreaker;
  /** Bound on the whole operation, retries and waits included. */
  readonly operationTimeoutMs?: number;
}

export class FaultTolerance {
  static readonly PASSTHROUGH = new FaultTolerance({});

  readonly retry: RetryPolicy | undefined;
  readonly circuitBreaker: CircuitBreaker | undefined;
  readonly operationTimeoutMs: number | undefined;

  constructor(options: FaultToleranceOptions) {
    this.retry = options.retry;
    this.circuitBreaker = options.circuitBreaker;
    this.operationTimeoutMs =
      options.operationTimeoutMs === undefined
        ? undefined
        : requirePositiveInteger(options.operationTimeoutMs, 'operationTimeoutMs');
    Object.freeze(this);
  }

  /** The same breaker and timeout without retry, for operations that must not replay. */
  withoutRetry(): FaultTolerance {
    return new FaultTolerance({
      ...(this.circuitBreaker ? { circuitBreaker: this.circuitBreaker } : {}),
      ...(this.operationTimeoutMs === undefined ? {} : { operationTimeoutMs: this.operationTimeoutMs }),
    });
  }

  async execute<T>(operation: Operation<T>, signal?: AbortSignal): Promise<T> {
    throwIfAborted(signal);
    const controller = new AbortController();
    const onCallerAbort = (): void => controller.abort(abortReason(signal as AbortSignal));
    signal?.addEventListener('abort', onCallerAbort, { once: true });
    const timeoutMs = this.operationTimeoutMs;
    const timer =
      timeoutMs === undefined
        ? undefined
        : setTimeout(() => controller.abort(new OperationTimeoutError(timeoutMs)), timeoutMs);
    try {
      return await raceAbort(this.#guarded(operation, controller.signal), controller.signal);
    } finally {
      clearTimeout(timer);
      signal?.removeEventListener('abort', onCallerAbort);
    }
  }

  #guarded<T>(operation: Operation<T>, signal: AbortSignal): Promise<T> {
    const attempt = (): Promise<T> =>
      this.retry ? this.retry.execute(operation, signal) : operation(signal);
    return this.circuitBreaker ? this.circuitBreaker.execute(attempt) : attempt();
  }
}
