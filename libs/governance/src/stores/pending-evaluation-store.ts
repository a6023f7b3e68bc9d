/**
 * Evaluations awaiting their /audit, and the "tombstones" that remember finalized ids for one TTL so
 * a retried /audit replays instead of double-charging. In PostgreSQL both are rows written before the
 * /evaluate response leaves, so after a crash every evaluation id ever returned is either finalized or
 * found by `due()` and expired.
 */
import { type PolicyAction } from '../engine/compiled-policy.js';
import { type AuditRecord } from './audit-record.js';
import { type BudgetBlock } from './budget-block.js';
import { type CommitLatch } from './commit-latch.js';
import { type PlannedCharge } from './planned-charge.js';

export type { CommitLatch } from './commit-latch.js';

export interface PendingEvaluation {
  readonly evaluationId: string;
  /** Pre-allocated: ledger rows and the expiry record reference it. */
  readonly auditRecordId: string;
  readonly origin: string;
  readonly agentId: string | null;
  readonly sessionId: string | null;
  readonly toolName: string;
  /**
   * The call's arguments and metadata as JSON text: a backlog of many entries then holds one string
   * each instead of an object graph (what a collector would walk again and again); parsed when a
   * record is built from the entry.
   */
  readonly toolInputJson: string;
  readonly metadataJson: string | null;
  readonly action: PolicyAction;
  readonly matchedRuleName: string | null;
  readonly matchedRuleIndex: number | null;
  readonly flaggedDestructive: boolean;
  /** Holds placed at /evaluate; undefined when nothing was reserved. */
  readonly reservationId: string | undefined;
  readonly charges: readonly PlannedCharge[];
  /** The budget blocks the decision (and any approver) saw; audited as-is if the call never runs. */
  readonly budgetsAtEvaluate: readonly BudgetBlock[] | undefined;
  readonly approvalTicketId: string | undefined;
  readonly timestampIso: string;
  readonly createdAtMs: number;
  readonly expiresAtMs: number;
  /** Serialized footprint counted against the backlog byte cap. */
  readonly bytes: number;
  /** Set once charges are committed, so a retry after a later failure never commits twice. */
  readonly commit?: CommitLatch;
}

export type FinalizedBy = 'evaluate' | 'audit' | 'expired';

export interface Tombstone {
  readonly evaluationId: string;
  readonly auditRecordId: string;
  readonly finalizedBy: FinalizedBy;
  /** Hash of the /audit payload that finalized it; null when any payload replays (evaluate/expired). */
  readonly payloadHash: string | null;
  readonly expiresAtMs: number;
  /**
   * The audit record this finalization wrote. A durable store keeps it with the tombstone (write-ahead),
   * so a record still in an audit sink's buffer when the process dies is written at recovery: an
   * evaluation is never finalized without its record.
   */
  readonly record?: AuditRecord;
}

export interface EvaluationLookup {
  readonly tombstone: Tombstone | undefined;
  readonly pending: PendingEvaluation | undefined;
}

export interface BacklogCaps {
  readonly maxCount: number;
  readonly maxBytes: number;
}

export interface PendingEvaluationStore {
  /**
   * True when `finalize` and `remember` write their tombstone's record into the audit trail in the same
   * atomic step (durable once they resolve); the service then does not hand those records to the sink.
   */
  readonly writesRecords?: boolean;
  /**
   * Cheap pre-check before deciding (a full backlog refuses even would-be denies: fail closed). May
   * answer synchronously: the hot path then awaits nothing.
   */
  hasRoom(bytes: number, caps: BacklogCaps): boolean | Promise<boolean>;
  /** Adds the entry iff both caps still hold, atomically; false = backlog full. May answer synchronously. */
  admit(entry: PendingEvaluation, caps: BacklogCaps): boolean | Promise<boolean>;
  get(evaluationId: string): Promise<PendingEvaluation | undefined>;
  /**
   * The tombstone (unless aged out, as `tombstone()`) and the pending entry of an id, read together:
   * what /audit needs first, in one round trip.
   */
  lookup(evaluationId: string, nowMs: number): Promise<EvaluationLookup>;
  latchCommit(evaluationId: string, latch: CommitLatch): Promise<void>;
  /** Removes the pending entry and stores its tombstone in one step; false when it was already gone. */
  finalize(tombstone: Tombstone): Promise<boolean>;
  /** Tombstone of a decision that was terminal at /evaluate (no pending entry ever existed). */
  remember(tombstone: Tombstone): Promise<void>;
  /** The tombstone, unless it has aged out (then the id is unknown). */
  tombstone(evaluationId: string, nowMs: number): Promise<Tombstone | undefined>;
  /** Pending entries whose TTL has passed, oldest first, at most `limit`. */
  due(nowMs: number, limit: number): Promise<readonly PendingEvaluation[]>;
  pruneTombstones(nowMs: number): Promise<void>;
}
