/** Errors a Model raises; providers subclass ProviderError for their HTTP failures. */
import { HeliosError } from '../common/helios-error.js';

/** A call on a model that its owner already closed. */
export class ModelClosedError extends HeliosError {
  readonly code = 'MODEL_CLOSED';
}

/** The stream ended without its terminal MessageStop chunk. */
export class IncompleteStreamError extends HeliosError {
  readonly code = 'STREAM_INCOMPLETE';
}

/** A provider answered with an error status, or could not be reached (statusCode 0). */
export class ProviderError extends HeliosError {
  readonly code: Uppercase<string> = 'PROVIDER_ERROR';

  constructor(
    message: string,
    readonly statusCode: number,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }

  get isClientError(): boolean {
    return this.statusCode >= 400 && this.statusCode < 500;
  }

  get isServerError(): boolean {
    return this.statusCode >= 500;
  }

  /** Network failures, timeouts, rate limits, overload and server errors are worth another try. */
  get isRetryable(): boolean {
    return [0, 408, 429, 529].includes(this.statusCode) || this.statusCode >= 500;
  }
}

/** A recoverable transport failure mid-stream; the only failure a session retries a turn for. */
export class TransientStreamError extends HeliosError {
  readonly code = 'TRANSIENT_STREAM';

  constructor(
    message: string,
    readonly providerName: string,
    options?: ErrorOptions,
  ) {
    super(message, options);
  }
}
