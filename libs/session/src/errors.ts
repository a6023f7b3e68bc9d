/** Errors the session throws on purpose; each carries a stable `code` for the API's status mapping. */
import { HeliosError } from '@helios/core';
import { type ResultMessage } from './result-message.js';

/** `send`, `answer` or `runBlocking` on a session that was closed. */
export class SessionClosedError extends HeliosError {
  readonly code = 'SESSION_CLOSED';
}

/** The run's steering queue already holds `maxQueuedUserMessages` messages. */
export class SteeringQueueFullError extends HeliosError {
  readonly code = 'STEERING_QUEUE_FULL';
}

/** `answer` for a question that is not pending (unknown, answered, or cancelled with its run). */
export class UnknownQuestionError extends HeliosError {
  readonly code = 'QUESTION_NOT_PENDING';
}

/** `runBlocking(message, schema)` when the run ended with anything but Success. */
export class RunNotSuccessfulError extends HeliosError {
  readonly code = 'RUN_NOT_SUCCESSFUL';

  constructor(readonly result: ResultMessage) {
    super(`run ended ${result.type}, not Success`);
  }
}

/**
 * Why a run's signal fired: interrupt, close or the wall-clock deadline. Named AbortError so every
 * Helios wait (tools, streams, backoff) treats it as cancellation, never as a failure to retry or report.
 */
export class RunCancelledError extends HeliosError {
  readonly code = 'RUN_CANCELLED';

  constructor(
    readonly reason: string,
    readonly wallClock = false,
  ) {
    super(reason);
    this.name = 'AbortError';
  }
}

/** No chunk arrived within `streamIdleTimeout`. */
export class StreamIdleTimeoutError extends HeliosError {
  readonly code = 'STREAM_IDLE_TIMEOUT';
}

/** The session's execution provider refused the session (or failed) at open. */
export class SessionUnavailableError extends HeliosError {
  readonly code = 'SESSION_UNAVAILABLE';
}
