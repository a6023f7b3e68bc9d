// Server-side access to the Helios API. The dashboard talks to the API over HTTP only; every response is
// validated here so that a wrong or half-written body becomes an error message instead of a crash.

import { type components } from './generated/api-schema';

const DEFAULT_API_URL = 'http://127.0.0.1:8080';
const REQUEST_TIMEOUT_MS = 3_000;

type Schemas = components['schemas'];

export type DatabaseKind = Schemas['DatabaseStatusDto']['kind'];

/** `GET /v1/status`, typed from the API's OpenAPI document; `instance` is null while the database is not ready. */
export type ApiStatus = Schemas['StatusDto'];

/** What the readiness badge shows; `url` is always the URL that was tried. */
export type Readiness =
  | { readonly state: 'ready'; readonly url: string }
  | { readonly state: 'not-ready'; readonly url: string; readonly reason: string }
  | { readonly state: 'unreachable'; readonly url: string; readonly error: string };

export type StatusResult =
  | { readonly ok: true; readonly url: string; readonly status: ApiStatus }
  | { readonly ok: false; readonly url: string; readonly error: string };

/** The API base URL from `HELIOS_API_URL`, read per request on the server (never shipped to the browser). */
export function apiBaseUrl(env: NodeJS.ProcessEnv = process.env): string {
  const configured = env.HELIOS_API_URL?.trim();
  const base = configured ? configured : DEFAULT_API_URL;
  return base.replace(/\/+$/, '');
}

/** `GET /readyz`: 200 means ready, 503 carries the reason; anything else is reported as not ready. */
export async function fetchReadiness(baseUrl: string): Promise<Readiness> {
  const url = `${baseUrl}/readyz`;
  let response: Response;
  try {
    response = await request(url);
  } catch (error) {
    return { state: 'unreachable', url, error: describeError(error) };
  }
  const body = await readJson(response);
  if (response.status === 200 && isReadyBody(body)) return { state: 'ready', url };
  if (response.status === 503 && isUnavailableBody(body)) {
    return { state: 'not-ready', url, reason: body.reason };
  }
  return { state: 'not-ready', url, reason: unexpected(url, response, body, 'a readiness report') };
}

/** `GET /v1/status`: the instance and version facts shown on the status page. */
export async function fetchStatus(baseUrl: string): Promise<StatusResult> {
  const url = `${baseUrl}/v1/status`;
  let response: Response;
  try {
    response = await request(url);
  } catch (error) {
    return { ok: false, url, error: describeError(error) };
  }
  const body = await readJson(response);
  if (response.status === 200 && isApiStatus(body)) return { ok: true, url, status: body };
  return { ok: false, url, error: unexpected(url, response, body, 'a status report') };
}

/** A GET of JSON from the API; `headers` adds to `accept` (the runtime API's `authorization`). */
export function request(url: string, headers: Readonly<Record<string, string>> = {}): Promise<Response> {
  // The page must show what is true now (no-store), and a hung API must not hang the page (timeout).
  return fetch(url, {
    cache: 'no-store',
    headers: { ...headers, accept: 'application/json' },
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
}

/** Parsed JSON, or `undefined` when the body is not JSON (the caller reports it as unexpected). */
export async function readJson(response: Response): Promise<unknown> {
  try {
    return (await response.json()) as unknown;
  } catch {
    return undefined;
  }
}

/** The message for an answer that is not what the page needed, naming the URL and the status. */
export function unexpected(url: string, response: Response, body: unknown, expected: string): string {
  const what = body === undefined ? 'a body that is not JSON' : `a body that is not ${expected}`;
  return `Unexpected response from ${url}: HTTP ${response.status} with ${what}`;
}

/** A readable one-line message; undici hides the useful part (e.g. ECONNREFUSED) in `cause`. */
export function describeError(error: unknown): string {
  if (error instanceof Error) {
    if (error.name === 'TimeoutError') return `no answer within ${REQUEST_TIMEOUT_MS / 1000} s`;
    const cause = error.cause;
    if (cause instanceof Error && cause.message && cause.message !== error.message) {
      return `${error.message} (${cause.message})`;
    }
    return error.message || error.name;
  }
  return String(error);
}

// Hand-written guards: the shapes are small and fixed, so a schema library would add weight for nothing.

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

export function isTimestamp(value: unknown): value is string {
  return typeof value === 'string' && !Number.isNaN(Date.parse(value));
}

/** A finite number ≥ 0 (not necessarily whole). */
export function isCount(value: unknown): value is number {
  return typeof value === 'number' && Number.isFinite(value) && value >= 0;
}

export function isReadyBody(
  value: unknown,
): value is { status: 'ready'; database: string; migrations: string } {
  return (
    isRecord(value) &&
    value.status === 'ready' &&
    typeof value.database === 'string' &&
    typeof value.migrations === 'string'
  );
}

export function isUnavailableBody(value: unknown): value is { status: 'unavailable'; reason: string } {
  return isRecord(value) && value.status === 'unavailable' && typeof value.reason === 'string';
}

export function isApiStatus(value: unknown): value is ApiStatus {
  if (!isRecord(value)) return false;
  const { database, instance } = value;
  return (
    typeof value.name === 'string' &&
    typeof value.version === 'string' &&
    isTimestamp(value.startedAt) &&
    isCount(value.uptimeSeconds) &&
    isRecord(database) &&
    (database.kind === 'embedded' || database.kind === 'external') &&
    typeof database.ready === 'boolean' &&
    (database.reason === null || typeof database.reason === 'string') &&
    (instance === null || isInstance(instance))
  );
}

function isInstance(value: unknown): boolean {
  return (
    isRecord(value) &&
    typeof value.id === 'string' &&
    isTimestamp(value.createdAt) &&
    isTimestamp(value.lastStartedAt) &&
    isCount(value.startCount) &&
    Number.isInteger(value.startCount)
  );
}
