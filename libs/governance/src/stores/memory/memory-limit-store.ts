/**
 * In-memory LimitStore for tests and single-process embedding. JavaScript runs each method body
 * without interleaving (no await inside), which is what makes `reserve` atomic here.
 */
import {
  bucketId,
  checkSnapshot,
  committedSnapshot,
  nextBudgetEpoch,
  retiredBudgetEpoch,
  sameWindow,
  type BudgetEpoch,
} from '../limit-arithmetic.js';
import {
  type BucketCheck,
  type BucketRef,
  type BucketSnapshot,
  type BudgetIdentity,
  type CommitCharge,
  type CommitContext,
  type LedgerEntry,
  type LimitStore,
  type ReserveOutcome,
  type ReserveRequest,
} from '../limit-store.js';
import { SlidingBucket } from './sliding-bucket.js';

interface BucketEntry {
  readonly bucket: SlidingBucket;
  readonly senderScoped: boolean;
}

export class MemoryLimitStore implements LimitStore {
  private readonly buckets = new Map<string, BucketEntry>();
  /** Reservation id → buckets it holds, so release/commit touch only those. */
  private readonly reservations = new Map<string, string[]>();
  private readonly committed = new Map<string, readonly BucketSnapshot[]>();
  private readonly epochs = new Map<string, BudgetEpoch>();
  private readonly ledgerRows: LedgerEntry[] = [];

  peek(checks: readonly BucketCheck[], nowMs: number): Promise<readonly BucketSnapshot[]> {
    return Promise.resolve(checks.map((check) => this.snapshotOf(check, nowMs)));
  }

  reserve(request: ReserveRequest, nowMs: number): Promise<ReserveOutcome> {
    const snapshots = request.checks.map((check) => this.snapshotOf(check, nowMs));
    const refused = request.checks.some((check, i) => check.onBreach === 'refuse' && !snapshots[i]?.allowed);
    if (refused) return Promise.resolve({ type: 'refused', snapshots });
    if (!this.senderCapacityFor(request, nowMs)) return Promise.resolve({ type: 'capacity_exhausted' });
    const held: string[] = [];
    for (const check of request.checks) {
      const id = bucketId(check);
      this.entryFor(check, nowMs).bucket.hold(
        request.reservationId,
        check.amount,
        request.expiresAtMs,
        nowMs,
      );
      held.push(id);
    }
    this.reservations.set(request.reservationId, held);
    return Promise.resolve({ type: 'reserved', snapshots });
  }

  commit(
    reservationId: string,
    charges: readonly CommitCharge[],
    context: CommitContext,
    nowMs: number,
  ): Promise<readonly BucketSnapshot[]> {
    const previous = this.committed.get(reservationId);
    if (previous) return Promise.resolve(previous);
    // Brought up to date while this call's own holds still count as live: a session pot they kept
    // alive up to this instant is not over, and the commit is its activity.
    for (const charge of charges) this.entryFor(charge, nowMs).bucket.touch(nowMs);
    this.dropHolds(reservationId);
    const snapshots = charges.map((charge) => {
      const { bucket } = this.entryFor(charge, nowMs);
      bucket.charge(charge.amount, nowMs);
      if (charge.ledger) {
        this.ledgerRows.push({
          budgetName: charge.ledger.budgetName,
          epoch: charge.epoch,
          bucketKey: charge.key,
          kind: charge.ledger.kind,
          amount: charge.amount,
          currency: charge.ledger.currency,
          toolName: context.toolName,
          origin: context.origin,
          auditRecordId: context.auditRecordId,
          timestampMs: nowMs,
        });
      }
      return committedSnapshot(charge.limit, bucket.state(nowMs), nowMs);
    });
    this.committed.set(reservationId, snapshots);
    return Promise.resolve(snapshots);
  }

  release(reservationId: string): Promise<void> {
    this.dropHolds(reservationId);
    return Promise.resolve();
  }

  reconcileBudgets(budgets: readonly BudgetIdentity[]): Promise<ReadonlyMap<string, number>> {
    // A budget the policy no longer names is retired: adding it back later starts a fresh pot.
    const named = new Set(budgets.map((budget) => budget.name));
    for (const [name, known] of this.epochs) {
      if (!named.has(name)) this.epochs.set(name, retiredBudgetEpoch(known));
    }
    const out = new Map<string, number>();
    for (const { name, identity } of budgets) {
      const epoch = nextBudgetEpoch(this.epochs.get(name), identity);
      this.epochs.set(name, { identity, epoch });
      out.set(name, epoch);
    }
    return Promise.resolve(out);
  }

  /** Budget ledger rows, oldest first (reporting and tests). */
  ledger(): readonly LedgerEntry[] {
    return this.ledgerRows;
  }

  /** Current committed-plus-held use of one bucket (reporting and tests). */
  usage(ref: BucketRef, nowMs: number): bigint {
    return this.buckets.get(bucketId(ref))?.bucket.used(nowMs) ?? 0n;
  }

  private snapshotOf(check: BucketCheck, nowMs: number): BucketSnapshot {
    return checkSnapshot(check, this.buckets.get(bucketId(check))?.bucket.state(nowMs), nowMs);
  }

  /** A bucket whose window changed (a reconfigured rule) starts over. */
  private entryFor(check: BucketCheck, nowMs: number): BucketEntry {
    const id = bucketId(check);
    const existing = this.buckets.get(id);
    if (existing !== undefined && sameWindow(existing.bucket.window, check.window)) return existing;
    const entry = { bucket: new SlidingBucket(check.window, nowMs), senderScoped: check.senderScoped };
    this.buckets.set(id, entry);
    return entry;
  }

  /** New sender-scoped buckets fit under the cap once emptied buckets are collected. */
  private senderCapacityFor(request: ReserveRequest, nowMs: number): boolean {
    const fresh = new Set(
      request.checks
        .filter((check) => check.senderScoped && !this.isLive(bucketId(check), nowMs))
        .map((check) => bucketId(check)),
    );
    if (fresh.size === 0) return true;
    let live = 0;
    for (const [id, entry] of this.buckets) {
      if (!entry.senderScoped) continue;
      if (entry.bucket.isEmpty(nowMs)) this.buckets.delete(id);
      else live += 1;
    }
    return live + fresh.size <= request.maxSenderKeys;
  }

  private isLive(id: string, nowMs: number): boolean {
    const entry = this.buckets.get(id);
    return entry !== undefined && !entry.bucket.isEmpty(nowMs);
  }

  private dropHolds(reservationId: string): void {
    for (const id of this.reservations.get(reservationId) ?? [])
      this.buckets.get(id)?.bucket.release(reservationId);
    this.reservations.delete(reservationId);
  }
}
