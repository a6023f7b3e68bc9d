/** Per-session evidence, context and tool-call history: what grounded rules check and the SDK reads. */
import { type GroundingSnapshot } from '../engine/grounding.js';

export const DEFAULT_EVIDENCE_TTL_SECONDS = 300;

export interface EvidenceWrite {
  readonly key: string;
  readonly data: unknown;
  readonly toolName: string;
  readonly ttlSeconds?: number | undefined;
}

/**
 * Ceilings on the store's caller-controlled growth: distinct sessions, and the serialized bytes of
 * everything stored (evidence data, context values, their keys, tool names). A write that would
 * cross one is refused (`CapacityExhausted`), never silently dropped.
 */
export interface SessionStoreCaps {
  readonly maxSessions: number;
  readonly maxBytes: number;
}

/** `Closed`: the store no longer accepts writes (shutdown); `CapacityExhausted`: a cap refused the write. */
export type EvidencePutOutcome = 'Stored' | 'Closed' | 'CapacityExhausted';

/** One unexpired evidence entry as the session-state view shows it. */
export interface EvidenceEntryView {
  readonly key: string;
  readonly data: unknown;
  readonly toolName: string;
  readonly writtenAtMs: number;
  readonly expiresAtMs: number;
}

/** Everything the store holds for one session; empty for a session it has never seen. */
export interface SessionStateView {
  readonly evidence: readonly EvidenceEntryView[];
  readonly context: Readonly<Record<string, unknown>>;
  /** Every tool that ran in the session, in order of first call. */
  readonly completedTools: readonly CompletedToolView[];
}

/** A tool's call history in one session: success is sticky, the time is the latest call's. */
export interface CompletedToolView {
  readonly toolName: string;
  readonly succeeded: boolean;
  readonly lastCallAtMs: number;
}

export interface EvidenceStore {
  /** Evidence states (present/expired; absent = never written) and tool history of one session. */
  grounding(sessionId: string, nowMs: number): Promise<GroundingSnapshot>;
  put(
    sessionId: string,
    write: EvidenceWrite,
    nowMs: number,
    caps: SessionStoreCaps,
  ): Promise<EvidencePutOutcome>;
  /** Sets one context value (last write wins). */
  putContext(
    sessionId: string,
    key: string,
    value: unknown,
    nowMs: number,
    caps: SessionStoreCaps,
  ): Promise<EvidencePutOutcome>;
  /**
   * Success is sticky: a later failure never erases an earlier success. Past a cap the call is not
   * recorded, so a dependency on it reads as missing (fails closed).
   */
  recordToolCall(
    sessionId: string,
    toolName: string,
    succeeded: boolean,
    nowMs: number,
    caps: SessionStoreCaps,
  ): Promise<void>;
  /** Unexpired evidence, context and completed tools; reading never creates a session. */
  sessionState(sessionId: string, nowMs: number): Promise<SessionStateView>;
}
