/**
 * In-memory evidence, context and tool history per session (the API's per-process store, tests).
 * Sessions are kept in order of their last activity, so those idle past `idleTtlMs` are dropped from
 * the front in time proportional to what is dropped: at the session cap first, and on every `evictIdle`
 * sweep. An evicted session reads as never seen: grounded calls on it fail closed (missing evidence,
 * missing dependency), never open.
 */
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

interface ToolCalls {
  succeeded: boolean;
  lastCallAtMs: number;
}

interface SessionState {
  readonly evidence: Map<string, StoredEvidence>;
  readonly context: Map<string, StoredValue>;
  readonly toolCalls: Map<string, ToolCalls>;
  lastActiveMs: number;
  /** Serialized bytes this session holds (subtracted from the store's total when it is evicted). */
  bytes: number;
}

/** How long a session may stay idle before it may be evicted (default: one day). */
export const DEFAULT_SESSION_IDLE_TTL_MS = 24 * 60 * 60 * 1_000;

export interface MemoryEvidenceStoreOptions {
  readonly idleTtlMs?: number;
}

const EMPTY_STATE: SessionStateView = Object.freeze({ evidence: [], context: {}, completedTools: [] });

export class MemoryEvidenceStore implements EvidenceStore {
  /** In order of last activity, oldest first (a touched session is moved to the end). */
  private readonly sessions = new Map<string, SessionState>();
  /** Serialized bytes of everything stored, measured against `SessionStoreCaps.maxBytes`. */
  private bytes = 0;
  private closed = false;
  private readonly idleTtlMs: number;

  constructor(options: MemoryEvidenceStoreOptions = {}) {
    const idleTtlMs = options.idleTtlMs ?? DEFAULT_SESSION_IDLE_TTL_MS;
    if (!Number.isInteger(idleTtlMs) || idleTtlMs <= 0) {
      throw new RangeError(`idleTtlMs must be a positive integer, got ${idleTtlMs}`);
    }
    this.idleTtlMs = idleTtlMs;
  }

  /** Drops every session idle for `idleTtlMs` or longer at `nowMs`; returns how many. */
  evictIdle(nowMs: number): number {
    let evicted = 0;
    for (const [sessionId, state] of this.sessions) {
      if (nowMs - state.lastActiveMs < this.idleTtlMs) break;
      this.sessions.delete(sessionId);
      this.bytes -= state.bytes;
      evicted += 1;
    }
    return evicted;
  }

  grounding(sessionId: string, nowMs: number): Promise<GroundingSnapshot> {
    const state = this.touch(sessionId, nowMs);
    const evidence = new Map<string, 'present' | 'expired'>();
    for (const [key, entry] of state?.evidence ?? [])
      evidence.set(key, entry.expiresAtMs > nowMs ? 'present' : 'expired');
    const toolCalls = new Map<string, boolean>();
    for (const [tool, calls] of state?.toolCalls ?? []) toolCalls.set(tool, calls.succeeded);
    return Promise.resolve({ evidence, toolCalls });
  }

  put(
    sessionId: string,
    write: EvidenceWrite,
    nowMs: number,
    caps: SessionStoreCaps,
  ): Promise<EvidencePutOutcome> {
    if (this.closed) return Promise.resolve('Closed');
    const bytes =
      jsonByteLength(write.key) + jsonByteLength(write.data ?? null) + jsonByteLength(write.toolName);
    const previous = this.sessions.get(sessionId)?.evidence.get(write.key)?.bytes ?? 0;
    const session = this.sessionWithRoom(sessionId, bytes - previous, caps, nowMs);
    if (session === undefined) return Promise.resolve('CapacityExhausted');
    const ttlMs = (write.ttlSeconds ?? DEFAULT_EVIDENCE_TTL_SECONDS) * 1_000;
    this.grow(session, bytes - previous);
    session.evidence.set(write.key, {
      data: write.data,
      toolName: write.toolName,
      writtenAtMs: nowMs,
      expiresAtMs: nowMs + ttlMs,
      bytes,
    });
    return Promise.resolve('Stored');
  }

  putContext(
    sessionId: string,
    key: string,
    value: unknown,
    nowMs: number,
    caps: SessionStoreCaps,
  ): Promise<EvidencePutOutcome> {
    if (this.closed) return Promise.resolve('Closed');
    const bytes = jsonByteLength(key) + jsonByteLength(value ?? null);
    const previous = this.sessions.get(sessionId)?.context.get(key)?.bytes ?? 0;
    const session = this.sessionWithRoom(sessionId, bytes - previous, caps, nowMs);
    if (session === undefined) return Promise.resolve('CapacityExhausted');
    this.grow(session, bytes - previous);
    session.context.set(key, { value, bytes });
    return Promise.resolve('Stored');
  }

  recordToolCall(
    sessionId: string,
    toolName: string,
    succeeded: boolean,
    nowMs: number,
    caps: SessionStoreCaps,
  ): Promise<void> {
    const known = this.sessions.get(sessionId)?.toolCalls.has(toolName) === true;
    const bytes = known ? 0 : jsonByteLength(toolName);
    const session = this.sessionWithRoom(sessionId, bytes, caps, nowMs);
    if (session === undefined) return Promise.resolve();
    this.grow(session, bytes);
    const calls = session.toolCalls.get(toolName);
    if (calls === undefined) session.toolCalls.set(toolName, { succeeded, lastCallAtMs: nowMs });
    else {
      calls.succeeded ||= succeeded;
      calls.lastCallAtMs = Math.max(calls.lastCallAtMs, nowMs);
    }
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
      completedTools: [...state.toolCalls].map(([toolName, calls]) => ({ toolName, ...calls })),
    });
  }

  /** Stops accepting writes (shutdown); later puts report `Closed`. */
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
    nowMs: number,
  ): SessionState | undefined {
    let existing = this.touch(sessionId, nowMs);
    if (existing === undefined && this.sessions.size >= caps.maxSessions) this.evictIdle(nowMs);
    if (extraBytes > 0 && this.bytes + extraBytes > caps.maxBytes) {
      this.evictIdle(nowMs);
      existing = this.sessions.get(sessionId);
    }
    if (existing === undefined && this.sessions.size >= caps.maxSessions) return undefined;
    if (extraBytes > 0 && this.bytes + extraBytes > caps.maxBytes) return undefined;
    if (existing !== undefined) return existing;
    const state: SessionState = {
      evidence: new Map(),
      context: new Map(),
      toolCalls: new Map(),
      lastActiveMs: nowMs,
      bytes: 0,
    };
    this.sessions.set(sessionId, state);
    return state;
  }

  /** Marks activity: the session moves to the end of the eviction order. */
  private touch(sessionId: string, nowMs: number): SessionState | undefined {
    const state = this.sessions.get(sessionId);
    if (state === undefined) return undefined;
    state.lastActiveMs = Math.max(state.lastActiveMs, nowMs);
    this.sessions.delete(sessionId);
    this.sessions.set(sessionId, state);
    return state;
  }

  private grow(session: SessionState, bytes: number): void {
    session.bytes += bytes;
    this.bytes += bytes;
  }
}
