/**
 * What a running tool may know about its call: the signal that cancels it (the session's cancellation
 * or its deadline, whichever comes first), the deadline itself, and the session's context.
 */
import { requireNonBlank, requireNonNegativeNumber } from '../common/validate.js';
import { SecretRegistry } from '../secrets/secret-registry.js';

export interface SessionContext {
  readonly sessionId: string;
  /** Fires when the session's run is cancelled. */
  readonly signal: AbortSignal;
  /** The session's registry; a tool may register secrets it learns (honoured from the next result). */
  readonly secrets: SecretRegistry;
}

export interface ToolContext {
  /** Fires on the session's cancellation or at the deadline. */
  readonly signal: AbortSignal;
  /** Epoch milliseconds by which the tool must have answered. */
  readonly deadline: number;
  readonly sessionContext: SessionContext;
}

const ONE_DAY_MS = 24 * 60 * 60 * 1000;

export const SessionContext = {
  create(
    sessionId: string,
    signal: AbortSignal,
    secrets: SecretRegistry = new SecretRegistry(),
  ): SessionContext {
    return Object.freeze({ sessionId: requireNonBlank(sessionId, 'sessionId'), signal, secrets });
  },
  forTesting(sessionId = 'test-session'): SessionContext {
    return SessionContext.create(sessionId, new AbortController().signal);
  },
} as const;

export const ToolContext = {
  /** A context for one call that ends after `timeoutMs` or when the session is cancelled. */
  create(sessionContext: SessionContext, timeoutMs: number, now: number = Date.now()): ToolContext {
    requireNonNegativeNumber(timeoutMs, 'timeoutMs');
    return Object.freeze({
      signal: AbortSignal.any([sessionContext.signal, AbortSignal.timeout(timeoutMs)]),
      deadline: now + timeoutMs,
      sessionContext,
    });
  },
  /** A test context: a fresh session, a one-day deadline, never cancelled. */
  noop(): ToolContext {
    return ToolContext.create(SessionContext.forTesting(), ONE_DAY_MS);
  },
  remainingMs(context: ToolContext, now: number = Date.now()): number {
    return Math.max(0, context.deadline - now);
  },
} as const;
