/**
 * LimitStore on PostgreSQL. Check-and-hold and commit are ONE statement, a server-side function
 * (`helios_limit_apply`, migration `1765152000000-limit-running-sums`), and calls that arrive together
 * share it: a statement batcher groups the reservations and commits waiting while the previous batch
 * runs, and the function decides them in arrival order, exactly as one at a time would. It locks the batch's bucket rows once,
 * in sorted order, so concurrent batches — in one process or in several sharing the database —
 * serialise per bucket and can never both take the last slot, and no lock is held across a network
 * round trip. A check reads its bucket's running sums, never the window's rows. The snapshot arithmetic
 * stays the governance library's: the functions return what each check saw, and the one decision they
 * take inside uses the same formula.
 */
import {
  bucketId,
  checkSnapshot,
  usedSnapshot,
  type BucketCheck,
  type BucketSnapshot,
  type BudgetIdentity,
  type CommitCharge,
  type CommitContext,
  type LedgerEntry,
  type LimitStore,
  type ReserveOutcome,
  type ReserveRequest,
} from '@helios/governance';
import { type DataSource } from 'typeorm';
import { readLedger, reconcileEpochs, type LedgerFilter } from './budget-ledger.js';
import {
  APPLY,
  applyParams,
  bucketStates,
  distinctSorted,
  PEEK,
  RELEASE,
  reservationIdOf,
  type LimitOperation,
  type OperationRow,
  type StateRow,
} from './limit-buckets.sql.js';
import { runOnPool, runOnPoolRetrying, toBigInt, toMs } from './sql.js';
import { StatementBatcher } from './statement-batcher.js';

/**
 * Batch shape: up to 256 operations per statement, one statement in flight per process. A second one in
 * flight would mostly wait inside PostgreSQL on the first one's bucket row locks, holding a pooled
 * connection (measured on the rate_limit row: PostgreSQL CPU per pair 713 µs with two, 523 with one).
 */
const BATCHING = { maxBatch: 256, maxInFlight: 1 } as const;

export class PgLimitStore implements LimitStore {
  /** A commit writes its pending evaluation's latch in its own statement (`helios_limit_apply`). */
  readonly writesCommitLatch = true;

  /** Reservations and commits arriving together share one statement (the function takes both kinds). */
  private readonly operations: StatementBatcher<LimitOperation, OperationRow>;

  constructor(private readonly dataSource: DataSource) {
    // A statement may not place (or latch) one reservation twice: a duplicate waits for the next batch.
    this.operations = new StatementBatcher((batch) => this.apply(batch), {
      ...BATCHING,
      keyOf: reservationIdOf,
    });
  }

  async peek(checks: readonly BucketCheck[], nowMs: number): Promise<readonly BucketSnapshot[]> {
    if (checks.length === 0) return [];
    const { rows } = await runOnPool<StateRow>(this.dataSource, PEEK, [
      distinctSorted(checks).map(bucketId),
      nowMs,
    ]);
    const states = bucketStates(rows);
    return checks.map((check) => checkSnapshot(check, states.get(bucketId(check)), nowMs));
  }

  async reserve(request: ReserveRequest, nowMs: number): Promise<ReserveOutcome> {
    const { checks } = request;
    if (checks.length === 0) return { type: 'reserved', snapshots: [] };
    const row = await this.operations.submit({ kind: 'reserve', request, nowMs });
    if (row.r_outcome === 'capacity_exhausted') return { type: 'capacity_exhausted' };
    if (row.r_outcome === 'committed')
      throw new Error('helios_limit_apply answered a reservation as a commit');
    return {
      type: row.r_outcome,
      snapshots: checks.map((check, i) =>
        usedSnapshot(check, toBigInt(row.r_used?.[i]), toMs(row.r_oldest?.[i]), nowMs),
      ),
    };
  }

  /** The latch row inside makes a retried or concurrent commit of one reservation answer the first's snapshots. */
  async commit(
    reservationId: string,
    charges: readonly CommitCharge[],
    context: CommitContext,
    nowMs: number,
  ): Promise<readonly BucketSnapshot[]> {
    const row = await this.operations.submit({ kind: 'commit', reservationId, charges, context, nowMs });
    return (row.r_snapshots ?? []).map((snapshot) => ({
      used: toBigInt(snapshot.used),
      allowed: snapshot.allowed,
      resetAtMs: snapshot.resetAtMs,
    }));
  }

  async release(reservationId: string): Promise<void> {
    await runOnPoolRetrying(this.dataSource, RELEASE, [reservationId]);
  }

  reconcileBudgets(budgets: readonly BudgetIdentity[]): Promise<ReadonlyMap<string, number>> {
    return reconcileEpochs(this.dataSource, budgets);
  }

  /** Budget ledger rows, oldest first (reporting and tests). */
  ledger(filter: LedgerFilter = {}): Promise<LedgerEntry[]> {
    return readLedger(this.dataSource, filter);
  }

  private async apply(batch: readonly LimitOperation[]): Promise<OperationRow[]> {
    const { rows } = await runOnPoolRetrying<OperationRow>(this.dataSource, APPLY, applyParams(batch));
    return answersInOrder(rows, batch.length, 'helios_limit_apply');
  }
}

/** The function's rows by their item's ordinal; a missing answer is an error, never a silent default. */
function answersInOrder<R extends { readonly r_ord: number }>(
  rows: readonly R[],
  count: number,
  fn: string,
): R[] {
  const byOrdinal = new Map(rows.map((row) => [Number(row.r_ord), row]));
  return Array.from({ length: count }, (_, i) => {
    const row = byOrdinal.get(i + 1);
    if (row === undefined) throw new Error(`${fn} returned no answer for item ${i + 1} of ${count}`);
    return row;
  });
}
