/** Per-session evidence and tool-call history that grounded rules check. */
import { type GroundingSnapshot } from '../engine/grounding.js';

export const DEFAULT_EVIDENCE_TTL_SECONDS = 300;

export interface EvidenceWrite {
  readonly key: string;
  readonly data: unknown;
  readonly toolName: string;
  readonly ttlSeconds?: number | undefined;
}

export type EvidencePutOutcome = 'stored' | 'closed';

export interface EvidenceStore {
  /** Evidence states (present/expired; absent = never written) and tool history of one session. */
  grounding(sessionId: string, nowMs: number): Promise<GroundingSnapshot>;
  put(sessionId: string, write: EvidenceWrite, nowMs: number): Promise<EvidencePutOutcome>;
  /** Success is sticky: a later failure never erases an earlier success. */
  recordToolCall(sessionId: string, toolName: string, succeeded: boolean, nowMs: number): Promise<void>;
}
