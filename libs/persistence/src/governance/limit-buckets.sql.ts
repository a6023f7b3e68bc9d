/**
 * The limit store's statements: each a call of one server-side function (migration
 * `1765152000000-limit-running-sums`), sent as a named statement so PostgreSQL parses it once per
 * connection, and the conversions between batches of reservations (commits) and the functions' array
 * parameters and answers.
 */
import {
  bucketId,
  bucketWindow,
  windowLengthMs,
  type BucketCheck,
  type BucketState,
  type CommitCharge,
  type CommitContext,
  type ReserveRequest,
} from '@helios/governance';
import { toBigInt, toMs, type NamedStatement } from './sql.js';

const BUCKET_PARAMS = `$1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[], $7::boolean[]`;

/** A batch of reservations and commits, in arrival order (migration `1765152000000-limit-running-sums`). */
export const APPLY: NamedStatement = {
  name: 'helios_limit_apply',
  text: `SELECT "r_ord", "r_outcome", "r_used", "r_oldest", "r_snapshots" FROM "helios_limit_apply"(${BUCKET_PARAMS},
           $8::text[], $9::text[], $10::int[], $11::bigint[], $12::int[], $13::text[], $14::text[], $15::text[],
           $16::text[], $17::jsonb[], $18::int[], $19::numeric[], $20::numeric[], $21::boolean[], $22::int[],
           $23::text[], $24::text[], $25::text[], $26::bigint)`,
};

/** One statement is one snapshot: no transaction needed for a consistent read of several buckets. */
export const PEEK: NamedStatement = {
  name: 'helios_limit_peek',
  text: `SELECT * FROM "helios_limit_states"($1::text[], $2::bigint)`,
};

export const RELEASE: NamedStatement = {
  name: 'helios_limit_release',
  text: `SELECT "helios_limit_release"($1::text)`,
};

/** One operation of a batch: a reservation or a commit, at the instant its call read the clock. */
export type LimitOperation =
  | { readonly kind: 'reserve'; readonly request: ReserveRequest; readonly nowMs: number }
  | {
      readonly kind: 'commit';
      readonly reservationId: string;
      readonly charges: readonly CommitCharge[];
      readonly context: CommitContext;
      readonly nowMs: number;
    };

export function reservationIdOf(operation: LimitOperation): string {
  return operation.kind === 'reserve' ? operation.request.reservationId : operation.reservationId;
}

/** A reservation's checks, or a commit's charges. */
function itemsOf(operation: LimitOperation): readonly (BucketCheck | CommitCharge)[] {
  return operation.kind === 'reserve' ? operation.request.checks : operation.charges;
}

/** A batch runs at its latest item's instant: as if every call in it had read the clock that late. */
function batchNow(items: readonly { readonly nowMs: number }[]): number {
  return items.reduce((latest, item) => Math.max(latest, item.nowMs), 0);
}

/** Distinct checks by bucket id, sorted: the one lock order every statement uses. */
export function distinctSorted<T extends BucketCheck>(checks: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const check of checks) if (!byId.has(bucketId(check))) byId.set(bucketId(check), check);
  return [...byId.keys()].sort().map((id) => byId.get(id) as T);
}

/** A batch's buckets, as the functions' seven parallel arrays, and each check's 1-based index into them. */
function bucketArrays(checks: readonly BucketCheck[]): { params: unknown[]; indexes: number[] } {
  const sorted = distinctSorted(checks);
  const position = new Map(sorted.map((check, i) => [bucketId(check), i + 1]));
  return {
    params: [
      sorted.map(bucketId),
      sorted.map((c) => c.family),
      sorted.map((c) => c.epoch),
      sorted.map((c) => c.key),
      sorted.map((c) => c.window.type),
      sorted.map((c) => windowLengthMs(c.window)),
      sorted.map((c) => c.senderScoped),
    ],
    indexes: checks.map((check) => position.get(bucketId(check)) as number),
  };
}

/** Where each item's slice of the flattened checks ends (1-based, inclusive). */
function sliceEnds(lengths: readonly number[]): number[] {
  let end = 0;
  return lengths.map((length) => (end += length));
}

export function applyParams(operations: readonly LimitOperation[]): unknown[] {
  const items = operations.flatMap(itemsOf);
  const { params, indexes } = bucketArrays(items);
  const ledger = items.flatMap((item, i) =>
    'ledger' in item && item.ledger !== undefined ? [{ index: i + 1, ...item.ledger }] : [],
  );
  const reserve = (op: LimitOperation) => (op.kind === 'reserve' ? op : undefined);
  const commit = (op: LimitOperation) => (op.kind === 'commit' ? op : undefined);
  return [
    ...params,
    operations.map((op) => (op.kind === 'reserve' ? 'r' : 'c')),
    operations.map(reservationIdOf),
    sliceEnds(operations.map((op) => itemsOf(op).length)),
    operations.map((op) => reserve(op)?.request.expiresAtMs ?? null),
    operations.map((op) => reserve(op)?.request.maxSenderKeys ?? null),
    operations.map((op) => commit(op)?.context.toolName ?? null),
    operations.map((op) => commit(op)?.context.origin ?? null),
    operations.map((op) => commit(op)?.context.auditRecordId ?? null),
    operations.map((op) => commit(op)?.context.latch?.evaluationId ?? null),
    operations.map((op) => {
      const latch = commit(op)?.context.latch;
      return latch === undefined ? null : JSON.stringify(latch.value);
    }),
    indexes,
    items.map((item) => item.amount.toString()),
    items.map((item) => item.limit.toString()),
    items.map((item) => item.onBreach === 'refuse'),
    ledger.map((row) => row.index),
    ledger.map((row) => row.budgetName),
    ledger.map((row) => row.kind),
    ledger.map((row) => row.currency),
    batchNow(operations),
  ];
}

/**
 * One operation's answer: for a reservation, what each of its checks saw (none when the sender-key
 * capacity refused it); for a commit, its post-commit snapshots (numbers as text where they may exceed a
 * double).
 */
export interface OperationRow {
  readonly r_ord: number;
  readonly r_outcome: 'reserved' | 'refused' | 'capacity_exhausted' | 'committed';
  readonly r_used: string[] | null;
  readonly r_oldest: (string | number | null)[] | null;
  readonly r_snapshots:
    { readonly used: string; readonly allowed: boolean; readonly resetAtMs: number | null }[] | null;
}

/** A bucket's state as the peek function returns it: numbers as text (or numbers), so none loses a digit. */
export interface StateRow {
  readonly bucket_id: string;
  readonly window_type: 'sliding' | 'session';
  readonly window_ms: string | number;
  readonly last_activity_ms: string | number;
  readonly charged: string | number;
  readonly oldest_ms: string | number | null;
  readonly held: string | number;
  readonly live_hold: boolean;
}

export function bucketStates(rows: readonly StateRow[]): Map<string, BucketState> {
  return new Map(
    rows.map((row) => [
      row.bucket_id,
      {
        window: bucketWindow(row.window_type, Number(row.window_ms)),
        lastActivityMs: Number(row.last_activity_ms),
        charged: toBigInt(row.charged),
        oldestChargeMs: toMs(row.oldest_ms),
        held: toBigInt(row.held),
        liveHold: row.live_hold,
      },
    ]),
  );
}
