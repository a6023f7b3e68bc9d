/** In-memory evidence and tool history per session (tests, single-process embedding). */
import { type GroundingSnapshot } from '../../engine/grounding.js';
import {
  DEFAULT_EVIDENCE_TTL_SECONDS,
  type EvidencePutOutcome,
  type EvidenceStore,
  type EvidenceWrite,
} from '../evidence-store.js';

interface StoredEvidence {
  readonly data: unknown;
  readonly toolName: string;
  readonly expiresAtMs: number;
}

interface SessionState {
  readonly evidence: Map<string, StoredEvidence>;
  readonly toolCalls: Map<string, boolean>;
}

export class MemoryEvidenceStore implements EvidenceStore {
  private readonly sessions = new Map<string, SessionState>();
  private closed = false;

  grounding(sessionId: string, nowMs: number): Promise<GroundingSnapshot> {
    const state = this.sessions.get(sessionId);
    const evidence = new Map<string, 'present' | 'expired'>();
    for (const [key, entry] of state?.evidence ?? [])
      evidence.set(key, entry.expiresAtMs > nowMs ? 'present' : 'expired');
    return Promise.resolve({ evidence, toolCalls: new Map(state?.toolCalls ?? []) });
  }

  put(sessionId: string, write: EvidenceWrite, nowMs: number): Promise<EvidencePutOutcome> {
    if (this.closed) return Promise.resolve('closed');
    const ttlMs = (write.ttlSeconds ?? DEFAULT_EVIDENCE_TTL_SECONDS) * 1_000;
    this.session(sessionId).evidence.set(write.key, {
      data: write.data,
      toolName: write.toolName,
      expiresAtMs: nowMs + ttlMs,
    });
    return Promise.resolve('stored');
  }

  recordToolCall(sessionId: string, toolName: string, succeeded: boolean): Promise<void> {
    const calls = this.session(sessionId).toolCalls;
    calls.set(toolName, calls.get(toolName) === true || succeeded);
    return Promise.resolve();
  }

  /** Stops accepting writes (shutdown); later puts report `closed`. */
  close(): void {
    this.closed = true;
  }

  /** The stored data of one key, expired or not (tests). */
  read(sessionId: string, key: string): unknown {
    return this.sessions.get(sessionId)?.evidence.get(key)?.data;
  }

  private session(sessionId: string): SessionState {
    let state = this.sessions.get(sessionId);
    if (state === undefined) {
      state = { evidence: new Map(), toolCalls: new Map() };
      this.sessions.set(sessionId, state);
    }
    return state;
  }
}
