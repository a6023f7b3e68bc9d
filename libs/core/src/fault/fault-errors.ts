/** Failures the fault-tolerance envelope raises itself. */
import { HeliosError } from '../common/helios-error.js';

export class CircuitBreakerOpenError extends HeliosError {
  readonly code = 'CIRCUIT_OPEN';
}

/** Every attempt failed with a retryable error; `cause` is the last one. */
export class RetryExhaustedError extends HeliosError {
  readonly code = 'RETRY_EXHAUSTED';

  constructor(
    readonly attempts: number,
    cause: unknown,
  ) {
    super(`gave up after ${attempts} attempt(s): ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
  }
}

/** The whole operation, retries included, ran past its timeout. */
export class OperationTimeoutError extends HeliosError {
  readonly code = 'OPERATION_TIMEOUT';

  constructor(readonly timeoutMs: number) {
    super(`operation timed out after ${timeoutMs} ms`);
  }
}
