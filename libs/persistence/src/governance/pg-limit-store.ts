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
import { setTimeout as sleep } from 'node:timers/promises';
import { COMMIT_LATCH, WRITE_CHARGES } from './limit-authority/authority.sql.js';
import { type LimitAuthority } from './limit-authority/limit-authority.js';
import { type LimitOwner } from './limit-authority/limit-owner.js';
import { runOnPool, runOnPoolRetrying, toBigInt, toMs } from './sql.js';
import { StatementBatcher } from './statement-batcher.js';

/**
 * Batch shape: up to 256 operations per statement, one statement in flight per process. A second one in
 * flight would mostly wait inside PostgreSQL on the first one's bucket row locks, holding a pooled
 * connection (measured on the rate_limit row: PostgreSQL CPU per pair 713 µs with two, 523 with one).
 */
const BATCHING = { maxBatch: 256, maxInFlight: 1 } as const;

/** A shared-path statement that meets owned buckets retries for about five seconds, then fails closed. */
const OWNED_ATTEMPTS = 30;
const OWNED_PAUSE_MAX_MS = 200;

export interface PgLimitStoreOptions {
  /**
   * Decides the buckets this process uses alone in memory (limit-authority/limit-authority.ts); the
   * pending store given the same authority writes their charges with each call's record.
   */
  readonly authority?: LimitAuthority;
}

export class PgLimitStore implements LimitStore {
  /** A commit writes its pending evaluation's latch in its own statement (`helios_limit_apply`). */
  readonly writesCommitLatch = true;

  /** Reservations and commits arriving together share one statement (the function takes both kinds). */
  private readonly operations: StatementBatcher<LimitOperation, OperationRow>;

  private readonly authority: LimitAuthority | undefined;

  constructor(
    private readonly dataSource: DataSource,
    options: PgLimitStoreOptions = {},
  ) {
    this.authority = options.authority;
    // A statement may not place (or latch) one reservation twice: a duplicate waits for the next batch.
    this.operations = new StatementBatcher((batch) => this.apply(batch), {
      ...BATCHING,
      keyOf: reservationIdOf,
    });
  }

  /** The authority's tenure deciding now, asked per call (a lost lease is replaced by a new one). */
  private get tenure(): LimitOwner | undefined {
    return this.authority?.current;
  }

  async peek(checks: readonly BucketCheck[], nowMs: number): Promise<readonly BucketSnapshot[]> {
    if (checks.length === 0) return [];
    const tenure = this.tenure;
    const local = tenure?.isActive === true ? tenure.local : undefined;
    if (local?.covers(checks) === true) return checks.map((check) => local.snapshot(check, nowMs));
    const { rows } = await runOnPool<StateRow>(this.dataSource, PEEK, [
      distinctSorted(checks).map(bucketId),
      nowMs,
    ]);
    const states = bucketStates(rows);
    // A bucket another process owns reads as its rows last were (a peek decides nothing).
    return checks.map((check) =>
      local?.owns(bucketId(check)) === true
        ? local.snapshot(check, nowMs)
        : checkSnapshot(check, states.get(bucketId(check)), nowMs),
    );
  }

  async reserve(request: ReserveRequest, nowMs: number): Promise<ReserveOutcome> {
    const { checks } = request;
    if (checks.length === 0) return { type: 'reserved', snapshots: [] };
    const authority = this.tenure;
    if (authority?.isActive === true) {
      const decided = authority.tryReserve(request, nowMs);
      if (decided !== undefined) return decided;
      const { route, liveOthers } = await authority.route(checks, nowMs);
      const local = route === 'local' ? authority.tryReserve(request, nowMs, liveOthers) : undefined;
      if (local !== undefined) return local;
    }
    const row = await this.unowned(() => this.operations.submit({ kind: 'reserve', request, nowMs }));
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
    const authority = this.tenure;
    let snapshots =
      authority === undefined
        ? undefined
        : await this.commitHere(authority, reservationId, charges, context, nowMs);
    if (snapshots === undefined) {
      const row = await this.unowned(() =>
        this.operations.submit({ kind: 'commit', reservationId, charges, context, nowMs }),
      );
      snapshots = snapshotsOf(row.r_snapshots);
    }
    const evaluationId = context.latch?.evaluationId;
    if (evaluationId !== undefined) this.authority?.recommitted(evaluationId);
    return snapshots;
  }

  /** A commit decided by the local authority (undefined: the shared path decides it). */
  private async commitHere(
    authority: LimitOwner,
    reservationId: string,
    charges: readonly CommitCharge[],
    context: CommitContext,
    nowMs: number,
  ): Promise<readonly BucketSnapshot[] | undefined> {
    let local = authority.tryCommit(reservationId, charges, context, nowMs);
    if (local === undefined) {
      const route = await authority.routeSettlement(reservationId, charges);
      if (route === 'unknown') {
        // Committed on the shared path before this process owned the buckets: answered from its latch.
        const { rows } = await runOnPool<{ snapshots: OperationRow['r_snapshots'] }>(
          this.dataSource,
          COMMIT_LATCH,
          [reservationId],
        );
        if (rows[0] !== undefined) return snapshotsOf(rows[0].snapshots);
      }
      if (route !== 'shared') local = authority.tryCommit(reservationId, charges, context, nowMs, true);
    }
    if (local === undefined) return undefined;
    const write = local.write;
    if (write !== undefined) {
      let written = false;
      try {
        await runOnPool(this.dataSource, WRITE_CHARGES, [
          write.fenceKeys,
          JSON.stringify(write.charges),
          JSON.stringify(write.ledger),
          write.owner,
        ]);
        written = true;
      } finally {
        write.settle(written);
      }
    }
    return local.snapshots;
  }

  async release(reservationId: string): Promise<void> {
    if ((await this.tenure?.release(reservationId)) === true) return;
    await this.unowned(() => runOnPoolRetrying(this.dataSource, RELEASE, [reservationId]));
  }

  reconcileBudgets(budgets: readonly BudgetIdentity[]): Promise<ReadonlyMap<string, number>> {
    return reconcileEpochs(this.dataSource, budgets);
  }

  /** Budget ledger rows, oldest first (reporting and tests). */
  ledger(filter: LedgerFilter = {}): Promise<LedgerEntry[]> {
    return readLedger(this.dataSource, filter);
  }

  /**
   * Runs a shared-path statement; when it meets buckets a process owns (SQLSTATE HL001) the authority
   * gets them back (ours handed back, a dead owner's taken over, a live owner asked) and it runs again.
   * Without an authority, or after about five seconds, the error stands: the call fails closed.
   */
  private async unowned<T>(run: () => Promise<T>): Promise<T> {
    for (let attempt = 1; ; attempt += 1) {
      try {
        return await run();
      } catch (error) {
        const owned = ownedBuckets(error);
        const tenure = this.tenure;
        if (owned === undefined || tenure === undefined || attempt >= OWNED_ATTEMPTS) throw error;
        await tenure.reclaim(owned);
        await sleep(Math.min(2 ** attempt, OWNED_PAUSE_MAX_MS));
      }
    }
  }

  private async apply(batch: readonly LimitOperation[]): Promise<OperationRow[]> {
    const { rows } = await runOnPoolRetrying<OperationRow>(this.dataSource, APPLY, applyParams(batch));
    return answersInOrder(rows, batch.length, 'helios_limit_apply');
  }
}

function snapshotsOf(snapshots: OperationRow['r_snapshots']): BucketSnapshot[] {
  return (snapshots ?? []).map((snapshot) => ({
    used: toBigInt(snapshot.used),
    allowed: snapshot.allowed,
    resetAtMs: snapshot.resetAtMs,
  }));
}

/** The [owner, bucket] pairs of an HL001 error (a shared-path statement met owned buckets). */
function ownedBuckets(error: unknown): [string, string][] | undefined {
  const { code, detail } = (error ?? {}) as { code?: unknown; detail?: unknown };
  if (code !== 'HL001' || typeof detail !== 'string') return undefined;
  const pairs: unknown = JSON.parse(detail);
  return Array.isArray(pairs) ? (pairs as [string, string][]) : undefined;
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
