/** Failures the fault-tolerance envelope raises itself. */
import { HeliosError } from '../common/helios-error.js';

export class CircuitBreakerOpenError extends HeliosError {
  readonly code = 'CIRCUIT_OPEN';
}

/**
 * Retrying ended without success: attempts ran out, the last error was not retryable, or the retry
 * predicate threw. `cause` is the operation's last error; `suppressed` holds errors met while deciding
 * (the predicate's own), kept rather than lost or thrown in the cause's place.
 */
export class RetryExhaustedError extends HeliosError {
  readonly code = 'RETRY_EXHAUSTED';
  readonly suppressed: readonly unknown[];

  constructor(
    readonly attempts: number,
    cause: unknown,
    suppressed: readonly unknown[] = [],
  ) {
    super(`gave up after ${attempts} attempt(s): ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.suppressed = Object.freeze([...suppressed]);
  }
}

/** The whole operation, retries included, ran past its timeout. */
export class OperationTimeoutError extends HeliosError {
  readonly code = 'OPERATION_TIMEOUT';

  constructor(readonly timeoutMs: number) {
    super(`operation timed out after ${timeoutMs} ms`);
  }
}
