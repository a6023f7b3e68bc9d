/**
 * The one HTTP layer every provider streams through: POST a JSON body with `fetch`, check the status,
 * then hand over the answer's server-sent events as `eventsource-parser` reads them. The caller's
 * abort, the response (header) timeout, the stream idle timeout and an early stop by the consumer all
 * abort the request, which closes the connection.
 */
import { abortReason, HeliosError } from '@helios/core';
import { type ApiKey } from './api-key.js';
import { connectionError, errorFromStatus } from './error-mapping.js';
import { ProviderTransientError } from './provider-errors.js';
import { readServerEvents, type ServerEventBatch } from './server-events.js';

export interface HttpSettings {
  readonly provider: string;
  readonly apiKey: ApiKey | undefined;
  /** Wait for the response headers. */
  readonly responseTimeoutMs: number;
  /** Longest silence allowed between two pieces of the body. */
  readonly streamIdleTimeoutMs: number;
}

export interface EventStreamRequest {
  readonly url: string;
  /** Provider headers, the key's header included; content type and accept are added here. */
  readonly headers: Readonly<Record<string, string>>;
  readonly body: unknown;
  readonly signal: AbortSignal;
}

/** POSTs `request.body` as JSON and yields the answer's events, a batch per piece; a non-2xx answer throws mapped. */
export async function* postForEvents(
  settings: HttpSettings,
  request: EventStreamRequest,
): AsyncGenerator<ServerEventBatch, void, undefined> {
  const { signal } = request;
  if (signal.aborted) throw abortReason(signal);
  const controller = new AbortController();
  const forwardAbort = (): void => controller.abort(signal.reason);
  signal.addEventListener('abort', forwardAbort, { once: true });
  try {
    const response = await fetchWithin(settings, request, controller);
    if (!response.ok) {
      const text = await response.text();
      throw errorFromStatus(settings, response.status, response.headers, text);
    }
    if (response.body === null) throw connectionError(settings, new Error('response has no body'));
    yield* readServerEvents(response.body, { ...settings, status: response.status });
  } catch (error) {
    if (signal.aborted) throw abortReason(signal);
    if (error instanceof HeliosError) throw error;
    throw connectionError(settings, error);
  } finally {
    signal.removeEventListener('abort', forwardAbort);
    controller.abort(); // a consumer that stopped early leaves the body unread: hang up
  }
}

async function fetchWithin(
  settings: HttpSettings,
  request: EventStreamRequest,
  controller: AbortController,
): Promise<Response> {
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort();
  }, settings.responseTimeoutMs);
  try {
    return await fetch(request.url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'text/event-stream', ...request.headers },
      body: JSON.stringify(request.body),
      signal: controller.signal,
    });
  } catch (error) {
    if (!timedOut) throw error;
    throw new ProviderTransientError(
      `${settings.provider}: no response within ${settings.responseTimeoutMs} ms`,
      settings.provider,
      0,
      undefined,
    );
  } finally {
    clearTimeout(timer);
  }
}

/** `{baseUrl}{path}`, whether or not the base URL ends with a slash. */
export function endpoint(baseUrl: string, path: string): string {
  return `${baseUrl.replace(/\/+$/, '')}${path}`;
}
