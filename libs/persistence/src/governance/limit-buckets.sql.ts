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

export const RESERVE: NamedStatement = {
  name: 'helios_limit_reserve',
  text: `SELECT "r_ord", "r_outcome", "r_used", "r_oldest" FROM "helios_limit_reserve"(${BUCKET_PARAMS},
           $8::text[], $9::bigint[], $10::int[], $11::int[], $12::int[], $13::numeric[], $14::numeric[],
           $15::boolean[], $16::bigint)`,
};

export const COMMIT: NamedStatement = {
  name: 'helios_limit_commit',
  text: `SELECT "r_ord", "r_snapshots" FROM "helios_limit_commit"(${BUCKET_PARAMS}, $8::text[], $9::int[],
           $10::text[], $11::text[], $12::text[], $13::int[], $14::numeric[], $15::numeric[], $16::int[],
           $17::text[], $18::text[], $19::text[], $20::bigint)`,
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

/** One reservation of a batch, at the instant its call read the clock. */
export interface ReserveItem {
  readonly request: ReserveRequest;
  readonly nowMs: number;
}

/** One commit of a batch. */
export interface CommitItem {
  readonly reservationId: string;
  readonly charges: readonly CommitCharge[];
  readonly context: CommitContext;
  readonly nowMs: number;
}

/** A batch runs at its latest item's instant: as if every call in it had read the clock that late. */
export function batchNow(items: readonly { readonly nowMs: number }[]): number {
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

export function reserveParams(items: readonly ReserveItem[]): unknown[] {
  const checks = items.flatMap((item) => item.request.checks);
  const { params, indexes } = bucketArrays(checks);
  return [
    ...params,
    items.map((item) => item.request.reservationId),
    items.map((item) => item.request.expiresAtMs),
    items.map((item) => item.request.maxSenderKeys),
    sliceEnds(items.map((item) => item.request.checks.length)),
    indexes,
    checks.map((check) => check.amount.toString()),
    checks.map((check) => check.limit.toString()),
    checks.map((check) => check.onBreach === 'refuse'),
    batchNow(items),
  ];
}

export function commitParams(items: readonly CommitItem[]): unknown[] {
  const charges = items.flatMap((item) => item.charges);
  const { params, indexes } = bucketArrays(charges);
  const ledger = charges.flatMap((charge, i) => (charge.ledger ? [{ index: i + 1, ...charge.ledger }] : []));
  return [
    ...params,
    items.map((item) => item.reservationId),
    sliceEnds(items.map((item) => item.charges.length)),
    items.map((item) => item.context.toolName),
    items.map((item) => item.context.origin),
    items.map((item) => item.context.auditRecordId),
    indexes,
    charges.map((charge) => charge.amount.toString()),
    charges.map((charge) => charge.limit.toString()),
    ledger.map((row) => row.index),
    ledger.map((row) => row.budgetName),
    ledger.map((row) => row.kind),
    ledger.map((row) => row.currency),
    batchNow(items),
  ];
}

/** One reservation's answer: what each of its checks saw (none when the sender-key capacity refused it). */
export interface ReserveRow {
  readonly r_ord: number;
  readonly r_outcome: 'reserved' | 'refused' | 'capacity_exhausted';
  readonly r_used: string[] | null;
  readonly r_oldest: (string | number | null)[] | null;
}

/** One commit's post-commit snapshots; numbers as text where they may exceed a double. */
export interface CommitRow {
  readonly r_ord: number;
  readonly r_snapshots: {
    readonly used: string;
    readonly allowed: boolean;
    readonly resetAtMs: number | null;
  }[];
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
