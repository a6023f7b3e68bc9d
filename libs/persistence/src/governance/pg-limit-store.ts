/**
 * LimitStore on PostgreSQL. Check-and-hold and commit are each ONE statement, a server-side function
 * (migration `1765065600000-limit-functions`) that locks the call's bucket rows in sorted order, so
 * concurrent callers — in one process or in several sharing the database — serialise per bucket and
 * can never both take the last slot, and a bucket's row locks are held only while the function runs,
 * never across network round trips. The snapshot arithmetic stays the governance library's: the
 * functions return raw bucket state, and the one decision they take inside uses the same formula.
 */
import {
  bucketId,
  checkSnapshot,
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
  bucketParams,
  bucketStates,
  COMMIT,
  distinctSorted,
  holdParams,
  ledgerParams,
  PEEK,
  RELEASE,
  RESERVE,
  type StateRow,
} from './limit-buckets.sql.js';
import { runOnPool, runOnPoolRetrying, toBigInt } from './sql.js';

type ReserveAnswer =
  | { readonly type: 'reserved' | 'refused'; readonly states: StateRow[] }
  | { readonly type: 'capacity_exhausted' };

interface EncodedSnapshot {
  readonly used: string;
  readonly allowed: boolean;
  readonly resetAtMs: number | null;
}

export class PgLimitStore implements LimitStore {
  constructor(private readonly dataSource: DataSource) {}

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
    const { rows } = await runOnPoolRetrying<{ answer: ReserveAnswer }>(this.dataSource, RESERVE, [
      request.reservationId,
      ...bucketParams(checks),
      checks.map(bucketId),
      checks.map((check) => check.amount.toString()),
      checks.map((check) => check.limit.toString()),
      checks.map((check) => check.onBreach === 'refuse'),
      ...holdParams(checks),
      nowMs,
      request.expiresAtMs,
      request.maxSenderKeys,
    ]);
    const answer = rows[0]?.answer;
    if (answer === undefined) throw new Error('helios_limit_reserve returned no answer');
    if (answer.type === 'capacity_exhausted') return answer;
    const states = bucketStates(answer.states);
    return {
      type: answer.type,
      snapshots: checks.map((check) => checkSnapshot(check, states.get(bucketId(check)), nowMs)),
    };
  }

  /** The latch row inside makes a retried or concurrent commit of one reservation answer the first's snapshots. */
  async commit(
    reservationId: string,
    charges: readonly CommitCharge[],
    context: CommitContext,
    nowMs: number,
  ): Promise<readonly BucketSnapshot[]> {
    const { rows } = await runOnPoolRetrying<{ answer: EncodedSnapshot[] }>(this.dataSource, COMMIT, [
      reservationId,
      ...bucketParams(charges),
      charges.map(bucketId),
      charges.map((charge) => charge.amount.toString()),
      charges.map((charge) => charge.limit.toString()),
      ...ledgerParams(charges),
      context.toolName,
      context.origin,
      context.auditRecordId,
      nowMs,
    ]);
    return (rows[0]?.answer ?? []).map(decodeSnapshot);
  }

  async release(reservationId: string): Promise<void> {
    await runOnPool(this.dataSource, RELEASE, [reservationId]);
  }

  reconcileBudgets(budgets: readonly BudgetIdentity[]): Promise<ReadonlyMap<string, number>> {
    return reconcileEpochs(this.dataSource, budgets);
  }

  /** Budget ledger rows, oldest first (reporting and tests). */
  ledger(filter: LedgerFilter = {}): Promise<LedgerEntry[]> {
    return readLedger(this.dataSource, filter);
  }
}

function decodeSnapshot(snapshot: EncodedSnapshot): BucketSnapshot {
  return { used: toBigInt(snapshot.used), allowed: snapshot.allowed, resetAtMs: snapshot.resetAtMs };
}
