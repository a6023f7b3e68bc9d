/**
 * The runtime API's refusals: one fixed body per reason (`{"error": CODE, "message": …}`, the shape of
 * every mapped error), the status from the one error table, and the headers a refusal carries
 * (`WWW-Authenticate`, `Retry-After`, `Connection: close`). Nothing of the request is echoed.
 */
import { HeliosError } from '@helios/core';
import { type FastifyReply } from 'fastify';
import { httpStatusFor } from '../errors/error-table.js';

export const REFUSAL_MESSAGES = {
  UNAUTHENTICATED: 'a valid credential is required',
  REQUEST_TOO_LARGE: 'the request body is over the limit',
  TOO_MANY_REQUESTS: 'too many requests in flight for this caller',
  SERVER_BUSY: 'too many requests in flight',
  SESSION_NOT_FOUND: 'session not found',
  AGENT_NOT_FOUND: 'no agent of that name',
  SESSION_LIMIT_REACHED: 'this caller holds its maximum of sessions and none has finished',
  REGISTRY_FULL: 'the server holds its maximum of sessions',
  SESSION_FAILED: 'session terminated abnormally',
  SESSION_OPEN_FAILED: 'the session could not be opened from its agent',
  INVALID_REQUEST: 'invalid request',
} as const satisfies Record<string, string>;

export type RefusalCode = keyof typeof REFUSAL_MESSAGES;

/** Retry-After of the 429/503 refusals a caller can outwait. */
export const RETRY_AFTER_SECONDS = '5';

export class RuntimeRefusal extends HeliosError {
  readonly code: RefusalCode;

  constructor(
    code: RefusalCode,
    /** Extra response headers (lower-case names). */
    readonly headers: Readonly<Record<string, string>> = {},
    /** Replaces the fixed message (validation messages, which name fields, never values). */
    message?: string,
  ) {
    super(message ?? REFUSAL_MESSAGES[code]);
    this.code = code;
  }

  get status(): number {
    return httpStatusFor(this.code);
  }

  /** 401 with the authenticator's challenge. */
  static unauthenticated(challenge: string): RuntimeRefusal {
    return new RuntimeRefusal('UNAUTHENTICATED', { 'www-authenticate': challenge });
  }

  /** A refusal the caller may retry in RETRY_AFTER_SECONDS. */
  static retryLater(code: 'TOO_MANY_REQUESTS' | 'SESSION_LIMIT_REACHED' | 'REGISTRY_FULL'): RuntimeRefusal {
    return new RuntimeRefusal(code, { 'retry-after': RETRY_AFTER_SECONDS });
  }
}

/**
 * Writes a refusal whole with `Connection: close`: a body the request may still be sending is never
 * read as anything, and nothing after it on this connection is served.
 */
export function sendRefusal(reply: FastifyReply, refusal: RuntimeRefusal): FastifyReply {
  markRefused(reply);
  return reply
    .code(refusal.status)
    .headers({ ...refusal.headers, connection: 'close' })
    .type('application/json; charset=utf-8')
    .send(JSON.stringify({ error: refusal.code, message: refusal.message }));
}

const REFUSED = Symbol('helios.refused');

/** After a refusal, the connection serves nothing more (a pipelined request behind it is dropped). */
export function markRefused(reply: FastifyReply): void {
  const socket = reply.raw.socket as (object & { [REFUSED]?: true }) | null;
  if (socket) socket[REFUSED] = true;
}

export function wasRefused(socket: object | null): boolean {
  return socket !== null && (socket as { [REFUSED]?: true })[REFUSED] === true;
}
