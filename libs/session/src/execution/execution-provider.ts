/**
 * Where a session's code execution runs (a sandbox, a local process, a REPL). The session owns its
 * lifecycle: `onSessionStart` when the session opens — a refusal makes `AgentSession.open` throw
 * SessionUnavailableError — and `onSessionEnd` when it closes, after the run is cancelled and before
 * the event streams end, within the same stopGrace deadline. This is the lifecycle only; the execute
 * surface and the sandboxed implementations come with the sandbox issue.
 */
import { type SessionContext } from '@helios/core';

export type SessionStartOutcome =
  | { readonly type: 'Accept' }
  | { readonly type: 'Refuse'; readonly reason: string; readonly cause?: unknown };

export const SessionStartOutcome = {
  accept(): SessionStartOutcome {
    return ACCEPT;
  },
  refuse(reason: string, cause?: unknown): SessionStartOutcome {
    return Object.freeze({ type: 'Refuse', reason, ...(cause === undefined ? {} : { cause }) });
  },
} as const;

const ACCEPT: SessionStartOutcome = Object.freeze({ type: 'Accept' });

export interface ExecutionProvider {
  /** Names the provider in logs and in a refusal's message. */
  readonly name: string;
  /**
   * Prepares the session's execution environment. The context's signal fires when the session starts
   * closing. Refuse (or an ordinary throw) makes open fail; nothing is ended then.
   */
  onSessionStart(context: SessionContext): SessionStartOutcome | Promise<SessionStartOutcome>;
  /**
   * Releases what start prepared; called once, only after an Accept. `signal` fires at the close
   * deadline: the session stops waiting then, so the provider should stop too.
   */
  onSessionEnd(context: SessionContext, signal: AbortSignal): void | Promise<void>;
}

/** The default: accepts every session and holds nothing, so a session without execution pays nothing. */
export const NOOP_EXECUTION_PROVIDER: ExecutionProvider = Object.freeze({
  name: 'NoopExecutionProvider',
  onSessionStart: () => ACCEPT,
  onSessionEnd: () => undefined,
});
