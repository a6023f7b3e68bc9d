/**
 * The state one POST /evaluate carries from step to step (evaluate-call.ts): what the request says,
 * made once at admission, then the decision, its id and instant, and the verdict of the limit gate.
 */
import { type BlockReason } from '../../stores/audit-record.js';
import { type BreachedBudget } from '../../stores/approval-ticket-store.js';
import { type PlannedCharge } from '../../stores/planned-charge.js';
import { type PolicyDecision } from '../../engine/decide.js';
import { type CallIdentity } from '../limit-planning.js';
import {
  type BudgetBlock,
  type EvaluateDecisionBody,
  type FeedbackBlock,
  type LimitsBlock,
} from '../../wire/wire-types.js';

/** An admitted request: its identifiers (interned), its payloads as measured JSON text, its size. */
export interface EvaluationCall extends CallIdentity {
  readonly type: 'Admitted';
  readonly origin: string;
  readonly agentId: string | null;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  /**
   * The arguments and metadata as JSON text, measured against the caps. Records and tickets parse their
   * own copies from these; a pending entry keeps the texts themselves (see PendingEvaluation).
   */
  readonly argsJson: string;
  readonly metadataJson: string;
  /** What the call counts against the backlog byte cap, before its charges. */
  readonly entryBytes: number;
}

/** A decided call: everything after the decision works on this. */
export interface Evaluation {
  readonly call: EvaluationCall;
  readonly decision: PolicyDecision;
  readonly evaluationId: string;
  /** The instant the call is judged at: grounding, holds and expiries count from it. */
  readonly nowMs: number;
}

interface Judged {
  readonly reason: string;
  readonly feedback: FeedbackBlock | undefined;
  readonly limits: LimitsBlock | undefined;
}

/** A decision that ends the evaluation now (a terminal record, no pending entry). */
export interface Blocked extends Judged {
  readonly type: 'Blocked';
  readonly wire: 'deny' | 'rate_limited' | 'spend_limited' | 'budget_exceeded';
  readonly blockReason: BlockReason;
}

/** Dry-run: nothing held, nothing executed; terminal like a block. */
export interface Simulated extends Judged {
  readonly type: 'Simulated';
  readonly wire: 'dry_run';
  readonly dryRun: NonNullable<EvaluateDecisionBody['dry_run']>;
}

/** The call may run (allow) or wait for a human (require_approval): its holds await /audit. */
export interface Passed extends Judged {
  readonly type: 'Passed';
  readonly wire: 'allow' | 'require_approval';
  /** Set when buckets were held (their reservation is the evaluation id). */
  readonly reservationId: string | undefined;
  readonly charges: readonly PlannedCharge[];
  readonly breached: readonly BreachedBudget[];
  readonly budgetBlocks: readonly BudgetBlock[];
}

/** The limit store had no room for another sender-scoped bucket: the call is refused, nothing decided. */
export interface CapacityExhausted {
  readonly type: 'CapacityExhausted';
}

/** The gate's verdict before anything is written. */
export type Verdict = Blocked | Simulated | Passed | CapacityExhausted;

/** A verdict that is written as a record at once. */
export type TerminalVerdict = Blocked | Simulated;
