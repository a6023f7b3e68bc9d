// Server-side access to the runtime API (`GET /v1/agents`, `GET /v1/sessions`). Unlike `/v1/status`,
// these routes authenticate the caller: without `auth:` the API serves one local principal with no
// credential; with `auth:` the dashboard sends the operator's token from HELIOS_API_TOKEN. The token is
// read here, on the server, per request: it never reaches the browser, and no message ever repeats it.

import { describeError, isCount, isRecord, isTimestamp, readJson, request, unexpected } from './api';
import { type components } from './generated/api-schema';

type Schemas = components['schemas'];

/** An agent the caller may start sessions of (`GET /v1/agents`); `scripted` marks the built-in demo. */
export type Agent = Schemas['AgentDto'];

/** One of the caller's sessions (`GET /v1/sessions`); `costMicroUsd` is integer micro-USD as a string. */
export type SessionSummary = Schemas['SessionSummaryDto'];

export type SessionStatus = SessionSummary['status'];

/** The variable holding the bearer token the dashboard sends to the runtime API. */
export const API_TOKEN_VARIABLE = 'HELIOS_API_TOKEN';

/**
 * Why a runtime request failed: nothing answered (`unreachable`), the API wants another credential
 * (`unauthenticated`, HTTP 401), HELIOS_API_TOKEN cannot be sent (`misconfigured`), or any other answer
 * (`unexpected`: another status, or a body of the wrong shape).
 */
export type RuntimeFailure = 'unreachable' | 'unauthenticated' | 'misconfigured' | 'unexpected';

export type RuntimeResult<T> =
  | { readonly ok: true; readonly url: string; readonly value: T }
  | { readonly ok: false; readonly url: string; readonly failure: RuntimeFailure; readonly error: string };

// Records, not arrays, so that a value added to the API's enums fails the typecheck here until handled.
const PRESETS = { minimal: true, readOnly: true, workspace: true } satisfies Record<Agent['preset'], true>;
const STORES = { memory: true, file: true, postgres: true } satisfies Record<Agent['store'], true>;
const STATUSES = { idle: true, running: true, finished: true, closed: true } satisfies Record<
  SessionStatus,
  true
>;

// A header value must be a byte string without CR/LF; printable ASCII is what a token is made of, and a
// refused value would otherwise surface in fetch's error message, token included.
const HEADER_SAFE = /^[\x20-\x7e]+$/;

/** HELIOS_API_TOKEN, trimmed; `undefined` when unset or blank (the API's local principal needs none). */
export function apiToken(env: NodeJS.ProcessEnv = process.env): string | undefined {
  const token = env[API_TOKEN_VARIABLE]?.trim();
  return token ? token : undefined;
}

/** `GET /v1/agents`: the agents the caller may use. */
export function fetchAgents(baseUrl: string, token: string | undefined): Promise<RuntimeResult<Agent[]>> {
  return fetchRuntime({
    url: `${baseUrl}/v1/agents`,
    token,
    isBody: isAgentList,
    expected: 'a list of agents',
  });
}

/** `GET /v1/sessions`: the caller's own sessions, newest first. */
export async function fetchSessions(
  baseUrl: string,
  token: string | undefined,
): Promise<RuntimeResult<SessionSummary[]>> {
  const result = await fetchRuntime({
    url: `${baseUrl}/v1/sessions`,
    token,
    isBody: isSessionList,
    expected: 'a list of sessions',
  });
  return result.ok ? { ...result, value: newestFirst(result.value) } : result;
}

async function fetchRuntime<T>(options: {
  readonly url: string;
  readonly token: string | undefined;
  readonly isBody: (value: unknown) => value is T;
  readonly expected: string;
}): Promise<RuntimeResult<T>> {
  const { url, token, isBody, expected } = options;
  if (token !== undefined && !HEADER_SAFE.test(token)) {
    const error = `${API_TOKEN_VARIABLE} holds characters an HTTP header cannot carry (printable ASCII only); nothing was sent`;
    return { ok: false, url, failure: 'misconfigured', error };
  }
  let response: Response;
  try {
    response = await request(url, token === undefined ? {} : { authorization: `Bearer ${token}` });
  } catch (error) {
    return { ok: false, url, failure: 'unreachable', error: describeError(error) };
  }
  const body = await readJson(response);
  if (response.status === 200 && isBody(body)) return { ok: true, url, value: body };
  if (response.status === 401) {
    return { ok: false, url, failure: 'unauthenticated', error: unauthenticatedMessage(token !== undefined) };
  }
  const error = refusalMessage(url, response.status, body) ?? unexpected(url, response, body, expected);
  return { ok: false, url, failure: 'unexpected', error };
}

/** What a 401 means for the operator: which variable to set, and whether the one set was refused. */
export function unauthenticatedMessage(tokenSent: boolean): string {
  const fix =
    `Set ${API_TOKEN_VARIABLE} on the dashboard's server to a token the API accepts ` +
    '(one of auth.tokens in its helios.yaml, or a JWT it trusts), then restart the dashboard.';
  return tokenSent
    ? `The API refused the token in ${API_TOKEN_VARIABLE} (HTTP 401: unknown, expired or revoked). ${fix}`
    : `The API requires a credential (HTTP 401) and ${API_TOKEN_VARIABLE} is not set. ${fix}`;
}

/** A refusal in the API's error shape, by its code and message; `undefined` for any other answer. */
export function refusalMessage(url: string, status: number, body: unknown): string | undefined {
  if (status < 400 || !isErrorBody(body)) return undefined;
  return `${url} answered HTTP ${status} ${body.error}: ${body.message}`;
}

/** Newest first by creation time; equal times keep the API's order (the sort is stable). */
export function newestFirst(sessions: readonly SessionSummary[]): SessionSummary[] {
  return [...sessions].sort((a, b) => Date.parse(b.createdAt) - Date.parse(a.createdAt));
}

function isOneOf<K extends string>(value: unknown, allowed: Readonly<Record<K, true>>): value is K {
  return typeof value === 'string' && Object.hasOwn(allowed, value);
}

function isWholeCount(value: unknown): value is number {
  return isCount(value) && Number.isInteger(value);
}

export function isErrorBody(value: unknown): value is Schemas['ErrorBodyDto'] {
  return isRecord(value) && typeof value.error === 'string' && typeof value.message === 'string';
}

export function isAgent(value: unknown): value is Agent {
  return (
    isRecord(value) &&
    typeof value.name === 'string' &&
    value.name !== '' &&
    typeof value.model === 'string' &&
    isOneOf(value.preset, PRESETS) &&
    typeof value.scripted === 'boolean' &&
    isOneOf(value.store, STORES)
  );
}

export function isSessionSummary(value: unknown): value is SessionSummary {
  return (
    isRecord(value) &&
    typeof value.sessionId === 'string' &&
    value.sessionId !== '' &&
    typeof value.agent === 'string' &&
    isOneOf(value.status, STATUSES) &&
    isWholeCount(value.turns) &&
    typeof value.costMicroUsd === 'string' &&
    /^\d+$/.test(value.costMicroUsd) &&
    (value.lastResult === null || typeof value.lastResult === 'string') &&
    isWholeCount(value.pendingQuestions) &&
    isTimestamp(value.createdAt) &&
    isTimestamp(value.updatedAt)
  );
}

export function isAgentList(value: unknown): value is Agent[] {
  return Array.isArray(value) && value.every(isAgent);
}

export function isSessionList(value: unknown): value is SessionSummary[] {
  return Array.isArray(value) && value.every(isSessionSummary);
}
