/**
 * Counters behind rule rate/spend limits and budgets, with the budget ledger. One interface serves
 * check, enforcement and reporting, so the number a caller is refused on is the number that is charged.
 *
 * Atomicity: the check and the charge are ONE operation, `reserve()`. It tests every bucket of a call
 * (committed charges in the window PLUS live holds of other calls) and either places a hold on all of
 * them or on none. `/audit` later converts the holds into charges (`commit`) or drops them (`release`).
 * Concurrent callers therefore never both take the last slot. The PostgreSQL implementation runs
 * `reserve` as one transaction that locks the call's bucket rows in a fixed (sorted) order
 * (`SELECT … FOR UPDATE`), sums charges and unexpired holds, and inserts the hold rows before commit;
 * two API processes on one database serialise on those row locks and cannot overshoot. `commit`
 * inserts charge + ledger rows and deletes the holds in one transaction keyed by reservation id, so a
 * retried commit is a no-op. Holds carry an expiry, so a crashed process never pins capacity forever.
 */

import { type CommitLatch } from './commit-latch.js';

/** Sliding windows replenish as charges age out; session pots never do (but are collected when idle). */
export type BucketWindow =
  | { readonly type: 'sliding'; readonly ms: number }
  | { readonly type: 'session'; readonly idleTtlMs: number };

export type BucketFamily = 'rate' | 'spend' | 'budget';

export interface BucketRef {
  readonly family: BucketFamily;
  /** The public key, e.g. `tool:send:rule:2`, `sender:U7:rule:0`, `budget:payments:global`. */
  readonly key: string;
  /** Budget epoch (0 for rule limits): a changed budget identity starts a fresh pot. */
  readonly epoch: number;
  /**
   * `bucketIdOf(family, epoch, key)`, when whoever made the ref computed it (the service's planned
   * charges): `bucketId` then answers it as it is. Never anything else.
   */
  readonly id?: string;
}

export interface BucketCheck extends BucketRef {
  /** 1 for a rate slot; micro-units for money. */
  readonly amount: bigint;
  /** Inclusive: allowed iff used + amount ≤ limit. */
  readonly limit: bigint;
  readonly window: BucketWindow;
  /** `hold` places the hold even over the limit (a break-glass budget awaiting its approval). */
  readonly onBreach: 'refuse' | 'hold';
  /** Keyed by a caller-minted sender id: counts against the sender-key capacity. */
  readonly senderScoped: boolean;
}

export interface BucketSnapshot {
  /** Charges in the window plus other calls' live holds, before this call. */
  readonly used: bigint;
  readonly allowed: boolean;
  /** Epoch ms when the oldest active charge leaves the window (now + window when empty); null for session pots. */
  readonly resetAtMs: number | null;
}

export interface ReserveRequest {
  readonly reservationId: string;
  readonly checks: readonly BucketCheck[];
  /** Holds left behind past this instant are void (crash safety); the service sets evaluation TTL. */
  readonly expiresAtMs: number;
  /** Ceiling on distinct live sender-scoped buckets. */
  readonly maxSenderKeys: number;
}

export type ReserveOutcome =
  | { readonly type: 'reserved'; readonly snapshots: readonly BucketSnapshot[] }
  | { readonly type: 'refused'; readonly snapshots: readonly BucketSnapshot[] }
  | { readonly type: 'capacity_exhausted' };

export type ChargeKind = 'spend' | 'approved_overage';

/** How one bucket is charged at commit: the evaluate-time check, with the amount actually spent. */
export interface CommitCharge extends BucketCheck {
  /** Budget charges land in the ledger; rule-limit charges do not. */
  readonly ledger?: {
    readonly budgetName: string;
    readonly kind: ChargeKind;
    readonly currency: string;
  };
}

export interface CommitContext {
  readonly auditRecordId: string;
  readonly toolName: string;
  readonly origin: string;
  /**
   * The pending evaluation's commit latch, for a store that writes it with the commit itself
   * (`writesCommitLatch`): then the latch is durable exactly when the charges are. Written only by the
   * first commit of the reservation.
   */
  readonly latch?: { readonly evaluationId: string; readonly value: CommitLatch };
}

export interface LedgerEntry {
  readonly budgetName: string;
  readonly epoch: number;
  readonly bucketKey: string;
  readonly kind: ChargeKind;
  readonly amount: bigint;
  readonly currency: string;
  readonly toolName: string;
  readonly origin: string;
  readonly auditRecordId: string;
  readonly timestampMs: number;
}

/** The identity a budget the policy no longer names is kept under (a real one is a JSON array). */
export const RETIRED_BUDGET_IDENTITY = 'retired';

export interface BudgetIdentity {
  readonly name: string;
  /** Serialized (limit, currency, window, key). */
  readonly identity: string;
}

export interface LimitStore {
  /**
   * True when `commit` also writes `context.latch` onto the pending evaluation, in the same transaction
   * (the stores share one database); otherwise the service latches through the pending store after.
   */
  readonly writesCommitLatch?: boolean;
  /** Read-only view (dry-run, fail-closed reporting, dashboards). Places nothing. */
  peek(checks: readonly BucketCheck[], nowMs: number): Promise<readonly BucketSnapshot[]>;
  /** Atomic all-or-nothing check-and-hold; see the file comment. */
  reserve(request: ReserveRequest, nowMs: number): Promise<ReserveOutcome>;
  /**
   * Turns a reservation's holds into charges (amounts may differ from the hold: `actual_amount`) and
   * drops the holds. Charges are recorded even past the limit: the call already happened. Returns
   * post-commit snapshots (`used` includes this charge). Idempotent per reservation id.
   */
  commit(
    reservationId: string,
    charges: readonly CommitCharge[],
    context: CommitContext,
    nowMs: number,
  ): Promise<readonly BucketSnapshot[]>;
  /** Drops a reservation's holds (call not executed, expired, or refused later in the flow). */
  release(reservationId: string): Promise<void>;
  /**
   * Records the configured budgets and returns each one's epoch. A changed identity tuple bumps the
   * epoch: the old pot stays as ledger history and the new one starts empty.
   */
  reconcileBudgets(budgets: readonly BudgetIdentity[]): Promise<ReadonlyMap<string, number>>;
}
