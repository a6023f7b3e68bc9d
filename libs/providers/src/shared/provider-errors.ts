/**
 * The failures a provider raises, split the way callers must act on them: transient ones (rate limits,
 * overload, server errors, connection resets) are TransientStreamError, the one failure a session
 * retries a turn for; rejections (other 4xx) and broken answers are ProviderError and are not retried.
 * Every message starts with the provider's name and never contains the API key.
 */
import { HeliosError, ProviderError, TransientStreamError } from '@helios/core';

/** Worth another try: HTTP 429/5xx/overloaded, a connection reset, a stream cut before its end. */
export class ProviderTransientError extends TransientStreamError {
  constructor(
    message: string,
    providerName: string,
    /** The HTTP status, or 0 when the connection failed. */
    readonly statusCode: number,
    /** How long the provider asked to wait before the next request, when it said. */
    readonly retryAfterMs: number | undefined,
    options?: ErrorOptions,
  ) {
    super(message, providerName, options);
  }
}

/** The provider refused the request (a 4xx other than 408/429); retrying it unchanged cannot help. */
export class ProviderRejectedError extends ProviderError {
  override readonly code = 'PROVIDER_REJECTED';

  constructor(
    message: string,
    readonly providerName: string,
    statusCode: number,
    options?: ErrorOptions,
  ) {
    super(message, statusCode, options);
  }
}

/**
 * The answer itself was unusable: the stream went silent past its idle timeout, broke the wire format,
 * or reported a non-transient error mid-stream. `statusCode` is the HTTP status the answer came with.
 */
export class ProviderResponseError extends ProviderError {
  override readonly code = 'PROVIDER_RESPONSE';

  constructor(
    message: string,
    readonly providerName: string,
    statusCode: number,
    options?: ErrorOptions,
  ) {
    super(message, statusCode, options);
  }
}

/** A provider prefix this package knows of but does not implement yet (`openai/`, `gemini/`). */
export class ProviderNotAvailableError extends HeliosError {
  readonly code = 'PROVIDER_NOT_AVAILABLE';

  constructor(
    message: string,
    readonly providerName: string,
  ) {
    super(message);
  }
}
