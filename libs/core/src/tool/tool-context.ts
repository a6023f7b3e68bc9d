/**
 * What a running tool may know about its call: the signal that cancels it (the session's cancellation
 * or its deadline, whichever comes first), the deadline itself, and the session's context.
 */
import { asAbortError, throwIfAborted } from '../common/abort.js';
import { type AbortSubscription, listenForAbort } from '../common/abort-fanout.js';
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

/** How one call's context ends: its deadline, and who hears when it fires. */
export interface ToolContextOptions {
  /** The call's time budget; the deadline is `now + timeoutMs`. */
  readonly timeoutMs: number;
  /** Epoch ms the deadline counts from (default `Date.now()`). */
  readonly now?: number;
  /** Runs right after the context fires: the caller learns of it without reading the signal. */
  readonly onAbort?: (reason: unknown) => void;
}

/** A call's context plus what releases its deadline timer and its link to the session's signal. */
export type OwnedToolContext = ToolContext & Disposable;

/**
 * One call's context. The signal is created when first read: an AbortSignal costs microseconds, more than
 * the rest of a small tool call, and most tools never look at it. A signal read after the context fired
 * is already aborted with the same reason.
 */
class CallContext implements ToolContext, Disposable {
  readonly deadline: number;
  readonly sessionContext: SessionContext;
  #controller: AbortController | undefined;
  #fired = false;
  #reason: unknown;
  #timedOut = false;
  #timer: ReturnType<typeof setTimeout> | undefined;
  readonly #onAbort: ((reason: unknown) => void) | undefined;
  #sessionLink: AbortSubscription | undefined;

  constructor(sessionContext: SessionContext, options: ToolContextOptions) {
    const timeoutMs = options.timeoutMs;
    this.sessionContext = sessionContext;
    this.deadline = (options.now ?? Date.now()) + timeoutMs;
    this.#onAbort = options.onAbort;
    const session = sessionContext.signal;
    if (session.aborted) {
      this.#fire(session.reason, false);
      return;
    }
    this.#sessionLink = listenForAbort(session, (reason) => this.#fire(reason, false));
    this.#timer = setTimeout(
      () => this.#fire(new DOMException(`deadline of ${timeoutMs} ms passed`, 'TimeoutError'), true),
      timeoutMs,
    );
    this.#timer.unref?.(); // a forgotten dispose must not keep a process alive for the deadline
  }

  get signal(): AbortSignal {
    if (!this.#controller) {
      this.#controller = new AbortController();
      if (this.#fired) this.#controller.abort(this.#reason);
    }
    return this.#controller.signal;
  }

  get timedOut(): boolean {
    return this.#timedOut;
  }

  get fired(): boolean {
    return this.#fired;
  }

  get reason(): unknown {
    return this.#reason;
  }

  [Symbol.dispose](): void {
    clearTimeout(this.#timer);
    this.#sessionLink?.cancel();
  }

  #fire(reason: unknown, timedOut: boolean): void {
    if (this.#fired) return;
    this.#fired = true;
    this.#reason = reason;
    this.#timedOut = timedOut;
    this.#controller?.abort(reason);
    this.#onAbort?.(reason);
  }
}

export const ToolContext = {
  /**
   * A context for one call that ends after `timeoutMs` (a TimeoutError) or when the session is
   * cancelled (the session's reason). The deadline is a plain `setTimeout`, so fake timers drive it;
   * dispose the context when the call is over (`using`) to release the timer and the session listener.
   * `onAbort` runs right after the context fires: the caller learns of it without reading the signal.
   */
  create(sessionContext: SessionContext, options: ToolContextOptions): OwnedToolContext {
    requireNonNegativeNumber(options.timeoutMs, 'timeoutMs');
    return new CallContext(sessionContext, options);
  },
  /** A test context: a fresh session, a one-day deadline, never cancelled. */
  noop(): OwnedToolContext {
    return ToolContext.create(SessionContext.forTesting(), { timeoutMs: ONE_DAY_MS });
  },
  remainingMs(context: ToolContext, now: number = Date.now()): number {
    return Math.max(0, context.deadline - now);
  },
  /** True once the context fired (cancelled or past its deadline), without creating its signal. */
  aborted(context: ToolContext): boolean {
    return context instanceof CallContext ? context.fired : context.signal.aborted;
  },
  /** Throws the context's abort reason if it fired. */
  throwIfAborted(context: ToolContext): void {
    if (context instanceof CallContext) {
      if (context.fired) throw asAbortError(context.reason);
    } else throwIfAborted(context.signal);
  },
  /** True when the context's signal fired because its deadline passed, not because the session was cancelled. */
  timedOut(context: ToolContext): boolean {
    if (context instanceof CallContext) return context.timedOut;
    const reason: unknown = context.signal.reason;
    return context.signal.aborted && reason instanceof Error && reason.name === 'TimeoutError';
  },
} as const;
