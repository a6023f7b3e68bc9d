/**
 * LimitStore on PostgreSQL: check-and-hold is one transaction that locks the call's bucket rows in
 * sorted order (`SELECT … FOR UPDATE`), so concurrent callers — in one process or in several sharing
 * the database — serialise per bucket and can never both take the last slot. READ COMMITTED is the
 * right isolation: each statement after the lock sees everything the previous lock holder committed.
 */
import {
  bucketId,
  checkSnapshot,
  committedSnapshot,
  type BucketCheck,
  type BucketSnapshot,
  type BucketState,
  type BudgetIdentity,
  type CommitCharge,
  type CommitContext,
  type LedgerEntry,
  type LimitStore,
  type ReserveOutcome,
  type ReserveRequest,
} from '@helios/governance';
import { type DataSource, type QueryRunner } from 'typeorm';
import { insertLedgerRows, readLedger, reconcileEpochs, type LedgerFilter } from './budget-ledger.js';
import {
  distinctSorted,
  liveBucket,
  lockBuckets,
  readBucketStates,
  refreshBuckets,
  touchBuckets,
} from './limit-buckets.sql.js';
import { inTransaction, run, toBigInt } from './sql.js';

/** Arbitrary constant: the advisory lock that serialises admission of new sender-scoped buckets. */
const SENDER_CAPACITY_LOCK = 4_711_000_002;

export class PgLimitStore implements LimitStore {
  constructor(private readonly dataSource: DataSource) {}

  /** Reads in one REPEATABLE READ snapshot so every bucket of the answer is from the same instant. */
  async peek(checks: readonly BucketCheck[], nowMs: number): Promise<readonly BucketSnapshot[]> {
    if (checks.length === 0) return [];
    const states = await inTransaction(
      this.dataSource,
      (runner) => readBucketStates(runner, distinctSorted(checks).map(bucketId), nowMs, null),
      'REPEATABLE READ',
    );
    return checks.map((check) => checkSnapshot(check, states.get(bucketId(check)), nowMs));
  }

  reserve(request: ReserveRequest, nowMs: number): Promise<ReserveOutcome> {
    return inTransaction(this.dataSource, async (runner): Promise<ReserveOutcome> => {
      await lockBuckets(runner, request.checks, nowMs);
      const states = await refreshBuckets(runner, request.checks, nowMs, request.reservationId);
      const snapshots = request.checks.map((check) =>
        checkSnapshot(check, states.get(bucketId(check)), nowMs),
      );
      const refused = request.checks.some(
        (check, i) => check.onBreach === 'refuse' && !snapshots[i]?.allowed,
      );
      if (refused) return { type: 'refused', snapshots };
      if (!(await this.senderCapacityFor(runner, request, nowMs))) return { type: 'capacity_exhausted' };
      await placeHolds(runner, request);
      await touchBuckets(runner, distinctSorted(request.checks).map(bucketId), nowMs);
      return { type: 'reserved', snapshots };
    });
  }

  commit(
    reservationId: string,
    charges: readonly CommitCharge[],
    context: CommitContext,
    nowMs: number,
  ): Promise<readonly BucketSnapshot[]> {
    return inTransaction(this.dataSource, async (runner) => {
      // The latch row first: a concurrent or retried commit of the same reservation waits on it, then
      // finds it and returns what the first commit returned.
      const latch = await run(
        runner,
        `INSERT INTO "limit_commits" ("reservation_id", "committed_at_ms") VALUES ($1, $2)
         ON CONFLICT ("reservation_id") DO NOTHING RETURNING 1`,
        [reservationId, nowMs],
      );
      if (latch.rows.length === 0) return previousCommit(runner, reservationId);
      await lockBuckets(runner, charges, nowMs);
      await run(runner, `DELETE FROM "limit_holds" WHERE "reservation_id" = $1`, [reservationId]);
      await refreshBuckets(runner, charges, nowMs, null);
      if (charges.length > 0) {
        await run(
          runner,
          `INSERT INTO "limit_charges" ("bucket_id", "reservation_id", "amount", "at_ms")
           SELECT b, $3::text, a, $4::bigint FROM unnest($1::text[], $2::numeric[]) AS t(b, a)`,
          [charges.map(bucketId), charges.map((c) => c.amount.toString()), reservationId, nowMs],
        );
        await touchBuckets(runner, distinctSorted(charges).map(bucketId), nowMs);
      }
      await insertLedgerRows(runner, charges, context, nowMs);
      const after = await readBucketStates(runner, distinctSorted(charges).map(bucketId), nowMs, null);
      const snapshots = charges.map((charge) =>
        committedSnapshot(charge.limit, after.get(bucketId(charge)) as BucketState, nowMs),
      );
      await run(runner, `UPDATE "limit_commits" SET "snapshots" = $2::jsonb WHERE "reservation_id" = $1`, [
        reservationId,
        JSON.stringify(snapshots.map(encodeSnapshot)),
      ]);
      return snapshots;
    });
  }

  async release(reservationId: string): Promise<void> {
    await inTransaction(this.dataSource, (runner) =>
      run(runner, `DELETE FROM "limit_holds" WHERE "reservation_id" = $1`, [reservationId]),
    );
  }

  reconcileBudgets(budgets: readonly BudgetIdentity[]): Promise<ReadonlyMap<string, number>> {
    return reconcileEpochs(this.dataSource, budgets);
  }

  /** Budget ledger rows, oldest first (reporting and tests). */
  ledger(filter: LedgerFilter = {}): Promise<LedgerEntry[]> {
    return readLedger(this.dataSource, filter);
  }

  /**
   * New sender-scoped buckets fit under the cap (live buckets + fresh ones ≤ maxSenderKeys). Counting
   * runs under an advisory lock, taken after the row locks, so two processes admitting different new
   * senders cannot both count the same free capacity.
   */
  private async senderCapacityFor(
    runner: QueryRunner,
    request: ReserveRequest,
    nowMs: number,
  ): Promise<boolean> {
    const scoped = distinctSorted(request.checks.filter((check) => check.senderScoped)).map(bucketId);
    if (scoped.length === 0) return true;
    const fresh = await run<{ n: number }>(
      runner,
      `SELECT count(*)::int AS n FROM "limit_buckets" b WHERE b."bucket_id" = ANY($1::text[]) AND NOT ${liveBucket('$2::bigint')}`,
      [scoped, nowMs],
    );
    const freshCount = fresh.rows[0]?.n ?? 0;
    if (freshCount === 0) return true;
    await run(runner, `SELECT pg_advisory_xact_lock($1)`, [SENDER_CAPACITY_LOCK]);
    const counted = await run<{ n: number }>(
      runner,
      `SELECT count(*)::int AS n FROM "limit_buckets" b WHERE b."sender_scoped" AND ${liveBucket('$1::bigint')}`,
      [nowMs],
    );
    return (counted.rows[0]?.n ?? 0) + freshCount <= request.maxSenderKeys;
  }
}

/** One hold per bucket per reservation; two checks of one call on the same bucket hold their sum. */
async function placeHolds(runner: QueryRunner, request: ReserveRequest): Promise<void> {
  const amounts = new Map<string, bigint>();
  for (const check of request.checks)
    amounts.set(bucketId(check), (amounts.get(bucketId(check)) ?? 0n) + check.amount);
  if (amounts.size === 0) return;
  await run(
    runner,
    `INSERT INTO "limit_holds" ("reservation_id", "bucket_id", "amount", "expires_at_ms")
     SELECT $1::text, b, a, $4::bigint FROM unnest($2::text[], $3::numeric[]) AS t(b, a)
     ON CONFLICT ("reservation_id", "bucket_id") DO UPDATE
       SET "amount" = EXCLUDED."amount", "expires_at_ms" = EXCLUDED."expires_at_ms"`,
    [request.reservationId, [...amounts.keys()], [...amounts.values()].map(String), request.expiresAtMs],
  );
}

interface EncodedSnapshot {
  readonly used: string;
  readonly allowed: boolean;
  readonly resetAtMs: number | null;
}

function encodeSnapshot(snapshot: BucketSnapshot): EncodedSnapshot {
  return { used: snapshot.used.toString(), allowed: snapshot.allowed, resetAtMs: snapshot.resetAtMs };
}

async function previousCommit(
  runner: QueryRunner,
  reservationId: string,
): Promise<readonly BucketSnapshot[]> {
  const { rows } = await run<{ snapshots: EncodedSnapshot[] | null }>(
    runner,
    `SELECT "snapshots" FROM "limit_commits" WHERE "reservation_id" = $1`,
    [reservationId],
  );
  return (rows[0]?.snapshots ?? []).map((s) => ({
    used: toBigInt(s.used),
    allowed: s.allowed,
    resetAtMs: s.resetAtMs,
  }));
}
