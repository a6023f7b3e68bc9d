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

/** A call's context plus what releases its deadline timer and its link to the session's signal. */
export type OwnedToolContext = ToolContext & Disposable;

export const ToolContext = {
  /**
   * A context for one call that ends after `timeoutMs` (a TimeoutError) or when the session is
   * cancelled (the session's reason). The deadline is a plain `setTimeout`, so fake timers drive it;
   * dispose the context when the call is over (`using`) to release the timer and the session listener.
   * `onAbort` runs right after the signal fires: the caller learns of it without a listener of its own
   * (an EventTarget listener costs more than the rest of a small tool call).
   */
  create(
    sessionContext: SessionContext,
    timeoutMs: number,
    now: number = Date.now(),
    onAbort?: (reason: unknown) => void,
  ): OwnedToolContext {
    requireNonNegativeNumber(timeoutMs, 'timeoutMs');
    const controller = new AbortController();
    const session = sessionContext.signal;
    const abort = (reason: unknown): void => {
      controller.abort(reason);
      onAbort?.(reason);
    };
    const onSessionAbort = (): void => abort(session.reason);
    let timer: ReturnType<typeof setTimeout> | undefined;
    if (session.aborted) {
      abort(session.reason);
    } else {
      session.addEventListener('abort', onSessionAbort, { once: true });
      timer = setTimeout(
        () => abort(new DOMException(`deadline of ${timeoutMs} ms passed`, 'TimeoutError')),
        timeoutMs,
      );
      timer.unref?.(); // a forgotten dispose must not keep a process alive for the deadline
    }
    return Object.freeze({
      signal: controller.signal,
      deadline: now + timeoutMs,
      sessionContext,
      [Symbol.dispose]: () => {
        clearTimeout(timer);
        session.removeEventListener('abort', onSessionAbort);
      },
    });
  },
  /** A test context: a fresh session, a one-day deadline, never cancelled. */
  noop(): OwnedToolContext {
    return ToolContext.create(SessionContext.forTesting(), ONE_DAY_MS);
  },
  remainingMs(context: ToolContext, now: number = Date.now()): number {
    return Math.max(0, context.deadline - now);
  },
  /** True when the context's signal fired because its deadline passed, not because the session was cancelled. */
  timedOut(context: ToolContext): boolean {
    const reason: unknown = context.signal.reason;
    return context.signal.aborted && reason instanceof Error && reason.name === 'TimeoutError';
  },
} as const;
