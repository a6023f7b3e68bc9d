/** In-memory evidence, context and tool history per session (the API's per-process store, tests). */
import { type GroundingSnapshot } from '../../engine/grounding.js';
import { jsonByteLength } from '../../util/canonical-json.js';
import {
  DEFAULT_EVIDENCE_TTL_SECONDS,
  type EvidencePutOutcome,
  type EvidenceStore,
  type EvidenceWrite,
  type SessionStateView,
  type SessionStoreCaps,
} from '../evidence-store.js';

interface StoredEvidence {
  readonly data: unknown;
  readonly toolName: string;
  readonly writtenAtMs: number;
  readonly expiresAtMs: number;
  readonly bytes: number;
}

interface StoredValue {
  readonly value: unknown;
  readonly bytes: number;
}

interface SessionState {
  readonly evidence: Map<string, StoredEvidence>;
  readonly context: Map<string, StoredValue>;
  readonly toolCalls: Map<string, boolean>;
}

const EMPTY_STATE: SessionStateView = Object.freeze({ evidence: [], context: {}, completedTools: [] });

export class MemoryEvidenceStore implements EvidenceStore {
  private readonly sessions = new Map<string, SessionState>();
  /** Serialized bytes of everything stored, measured against `SessionStoreCaps.maxBytes`. */
  private bytes = 0;
  private closed = false;

  grounding(sessionId: string, nowMs: number): Promise<GroundingSnapshot> {
    const state = this.sessions.get(sessionId);
    const evidence = new Map<string, 'present' | 'expired'>();
    for (const [key, entry] of state?.evidence ?? [])
      evidence.set(key, entry.expiresAtMs > nowMs ? 'present' : 'expired');
    return Promise.resolve({ evidence, toolCalls: new Map(state?.toolCalls ?? []) });
  }

  put(
    sessionId: string,
    write: EvidenceWrite,
    nowMs: number,
    caps: SessionStoreCaps,
  ): Promise<EvidencePutOutcome> {
    if (this.closed) return Promise.resolve('closed');
    const bytes =
      jsonByteLength(write.key) + jsonByteLength(write.data ?? null) + jsonByteLength(write.toolName);
    const previous = this.sessions.get(sessionId)?.evidence.get(write.key)?.bytes ?? 0;
    const session = this.sessionWithRoom(sessionId, bytes - previous, caps);
    if (session === undefined) return Promise.resolve('capacity_exhausted');
    const ttlMs = (write.ttlSeconds ?? DEFAULT_EVIDENCE_TTL_SECONDS) * 1_000;
    this.bytes += bytes - previous;
    session.evidence.set(write.key, {
      data: write.data,
      toolName: write.toolName,
      writtenAtMs: nowMs,
      expiresAtMs: nowMs + ttlMs,
      bytes,
    });
    return Promise.resolve('stored');
  }

  putContext(
    sessionId: string,
    key: string,
    value: unknown,
    caps: SessionStoreCaps,
  ): Promise<EvidencePutOutcome> {
    if (this.closed) return Promise.resolve('closed');
    const bytes = jsonByteLength(key) + jsonByteLength(value ?? null);
    const previous = this.sessions.get(sessionId)?.context.get(key)?.bytes ?? 0;
    const session = this.sessionWithRoom(sessionId, bytes - previous, caps);
    if (session === undefined) return Promise.resolve('capacity_exhausted');
    this.bytes += bytes - previous;
    session.context.set(key, { value, bytes });
    return Promise.resolve('stored');
  }

  recordToolCall(
    sessionId: string,
    toolName: string,
    succeeded: boolean,
    _nowMs: number,
    caps: SessionStoreCaps,
  ): Promise<void> {
    const known = this.sessions.get(sessionId)?.toolCalls.has(toolName) === true;
    const bytes = known ? 0 : jsonByteLength(toolName);
    const session = this.sessionWithRoom(sessionId, bytes, caps);
    if (session === undefined) return Promise.resolve();
    this.bytes += bytes;
    session.toolCalls.set(toolName, session.toolCalls.get(toolName) === true || succeeded);
    return Promise.resolve();
  }

  sessionState(sessionId: string, nowMs: number): Promise<SessionStateView> {
    const state = this.sessions.get(sessionId);
    if (state === undefined) return Promise.resolve(EMPTY_STATE);
    return Promise.resolve({
      evidence: [...state.evidence]
        .filter(([, entry]) => entry.expiresAtMs > nowMs)
        .map(([key, entry]) => ({
          key,
          data: entry.data,
          toolName: entry.toolName,
          writtenAtMs: entry.writtenAtMs,
          expiresAtMs: entry.expiresAtMs,
        })),
      context: Object.fromEntries([...state.context].map(([key, stored]) => [key, stored.value])),
      completedTools: [...state.toolCalls]
        .filter(([, succeeded]) => succeeded)
        .map(([tool]) => tool)
        .sort(),
    });
  }

  /** Stops accepting writes (shutdown); later puts report `closed`. */
  close(): void {
    this.closed = true;
  }

  /** The stored data of one key, expired or not (tests). */
  read(sessionId: string, key: string): unknown {
    return this.sessions.get(sessionId)?.evidence.get(key)?.data;
  }

  /** The session, created if new, when `extraBytes` more fit both caps; else undefined. */
  private sessionWithRoom(
    sessionId: string,
    extraBytes: number,
    caps: SessionStoreCaps,
  ): SessionState | undefined {
    const existing = this.sessions.get(sessionId);
    if (existing === undefined && this.sessions.size >= caps.maxSessions) return undefined;
    if (extraBytes > 0 && this.bytes + extraBytes > caps.maxBytes) return undefined;
    if (existing !== undefined) return existing;
    const state: SessionState = { evidence: new Map(), context: new Map(), toolCalls: new Map() };
    this.sessions.set(sessionId, state);
    return state;
  }
}
