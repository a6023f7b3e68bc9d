/**
 * Turns what a provider answered (an error status with its body, an error event mid-stream, a failed
 * connection) into the error callers act on: transient → ProviderTransientError, else a rejection.
 * The provider's own message is kept (it says what was wrong), with the API key masked.
 */
import { type ApiKey } from './api-key.js';
import { ProviderRejectedError, ProviderResponseError, ProviderTransientError } from './provider-errors.js';
import { retryAfterMs } from './retry-after.js';

/** Longest piece of a provider's error text kept in a message. */
const MAX_DETAIL_CHARS = 2_000;

export interface ErrorSource {
  readonly provider: string;
  readonly apiKey: ApiKey | undefined;
}

/** Statuses worth another try, as core's ProviderError.isRetryable counts them. */
export function isTransientStatus(status: number): boolean {
  return status === 408 || status === 429 || status >= 500;
}

/** The error for a non-2xx answer, from its status, headers and body text. */
export function errorFromStatus(
  source: ErrorSource,
  status: number,
  headers: Headers,
  body: string,
): ProviderTransientError | ProviderRejectedError {
  const detail = errorDetail(body);
  const overloaded = /overloaded/i.test(detail.type ?? '') || /overloaded/i.test(detail.message);
  const message = describe(source, `HTTP ${status}`, detail);
  if (isTransientStatus(status) || overloaded) {
    const waitMs = retryAfterMs(headers);
    const suffix = waitMs === undefined ? '' : ` (retry after ${waitMs} ms)`;
    return new ProviderTransientError(`${message}${suffix}`, source.provider, status, waitMs);
  }
  return new ProviderRejectedError(message, source.provider, status);
}

/** The error for an error the provider reported inside a 200 stream; `status` as its type implies. */
export function errorFromStreamEvent(
  source: ErrorSource,
  status: number,
  detail: { readonly type?: string; readonly message: string },
): ProviderTransientError | ProviderResponseError {
  const message = describe(source, 'stream error', detail);
  const overloaded = /overloaded/i.test(detail.type ?? '');
  if (isTransientStatus(status) || overloaded) {
    return new ProviderTransientError(message, source.provider, status, undefined);
  }
  return new ProviderResponseError(message, source.provider, status);
}

/** The connection failed or was cut (reset, refused, closed mid-body). */
export function connectionError(source: ErrorSource, cause: unknown): ProviderTransientError {
  const reason = cause instanceof Error ? causeText(cause) : String(cause);
  return new ProviderTransientError(
    `${source.provider}: connection failed: ${clip(redactWith(source, reason))}`,
    source.provider,
    0,
    undefined,
  );
}

/** The error's type and message from the common JSON shapes (`{error: {type, message}}`, …). */
export function errorDetail(body: string): { readonly type?: string; readonly message: string } {
  try {
    const parsed = JSON.parse(body) as unknown;
    const root = isRecord(parsed) && isRecord(parsed['error']) ? parsed['error'] : parsed;
    if (isRecord(root) && typeof root['message'] === 'string') {
      const type = typeof root['type'] === 'string' ? root['type'] : undefined;
      return type === undefined ? { message: root['message'] } : { type, message: root['message'] };
    }
    if (isRecord(parsed) && typeof parsed['error'] === 'string') return { message: parsed['error'] };
  } catch {
    // not JSON: the body text is the message
  }
  return { message: body.trim() === '' ? '(empty body)' : body };
}

function describe(
  source: ErrorSource,
  what: string,
  detail: { readonly type?: string; readonly message: string },
): string {
  const type = detail.type === undefined ? '' : ` ${detail.type}`;
  return `${source.provider}: ${what}${type}: ${clip(redactWith(source, detail.message))}`;
}

/** undici hides the socket error one level down (`fetch failed` ← `ECONNRESET`). */
function causeText(error: Error): string {
  const inner = error.cause instanceof Error ? `: ${error.cause.message}` : '';
  return `${error.message}${inner}`;
}

function redactWith(source: ErrorSource, text: string): string {
  return source.apiKey ? source.apiKey.redact(text) : text;
}

function clip(text: string): string {
  return text.length <= MAX_DETAIL_CHARS ? text : `${text.slice(0, MAX_DETAIL_CHARS)}…`;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
