/**
 * The limit store's statements: each a call of one server-side function (migration
 * `1765065600000-limit-functions`), sent as a named statement so PostgreSQL parses it once per
 * connection, and the conversions between bucket checks and the functions' array parameters and
 * answers.
 */
import {
  bucketId,
  bucketWindow,
  windowLengthMs,
  type BucketCheck,
  type BucketState,
  type CommitCharge,
} from '@helios/governance';
import { toBigInt, toMs, type NamedStatement } from './sql.js';

const BUCKET_PARAMS = `$2::text[], $3::text[], $4::int[], $5::text[], $6::text[], $7::bigint[], $8::boolean[]`;

export const RESERVE: NamedStatement = {
  name: 'helios_limit_reserve',
  text: `SELECT "helios_limit_reserve"($1::text, ${BUCKET_PARAMS}, $9::text[], $10::numeric[], $11::numeric[],
           $12::boolean[], $13::text[], $14::numeric[], $15::bigint, $16::bigint, $17::int) AS "answer"`,
};

export const COMMIT: NamedStatement = {
  name: 'helios_limit_commit',
  text: `SELECT "helios_limit_commit"($1::text, ${BUCKET_PARAMS}, $9::text[], $10::numeric[], $11::numeric[],
           $12::text[], $13::int[], $14::text[], $15::text[], $16::numeric[], $17::text[], $18::text, $19::text,
           $20::text, $21::bigint) AS "answer"`,
};

/** One statement is one snapshot: no transaction needed for a consistent read of several buckets. */
export const PEEK: NamedStatement = {
  name: 'helios_limit_peek',
  text: `SELECT * FROM "helios_limit_states"($1::text[], $2::bigint, NULL)`,
};

export const RELEASE: NamedStatement = {
  name: 'helios_limit_release',
  text: `DELETE FROM "limit_holds" WHERE "reservation_id" = $1`,
};

/** Distinct checks by bucket id, sorted: the one lock order every statement uses. */
export function distinctSorted<T extends BucketCheck>(checks: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const check of checks) if (!byId.has(bucketId(check))) byId.set(bucketId(check), check);
  return [...byId.keys()].sort().map((id) => byId.get(id) as T);
}

/** The bucket rows a statement creates and locks, as the functions' seven parallel arrays. */
export function bucketParams(checks: readonly BucketCheck[]): unknown[] {
  const sorted = distinctSorted(checks);
  return [
    sorted.map(bucketId),
    sorted.map((c) => c.family),
    sorted.map((c) => c.epoch),
    sorted.map((c) => c.key),
    sorted.map((c) => c.window.type),
    sorted.map((c) => windowLengthMs(c.window)),
    sorted.map((c) => c.senderScoped),
  ];
}

/** A reservation's holds: one per bucket, two checks of one call on the same bucket holding their sum. */
export function holdParams(checks: readonly BucketCheck[]): [string[], string[]] {
  const amounts = new Map<string, bigint>();
  for (const check of checks)
    amounts.set(bucketId(check), (amounts.get(bucketId(check)) ?? 0n) + check.amount);
  return [[...amounts.keys()], [...amounts.values()].map(String)];
}

/** A commit's budget ledger rows, as the function's six parallel arrays. */
export function ledgerParams(charges: readonly CommitCharge[]): unknown[] {
  const rows = charges.flatMap((charge) => (charge.ledger ? [{ charge, ledger: charge.ledger }] : []));
  return [
    rows.map((r) => r.ledger.budgetName),
    rows.map((r) => r.charge.epoch),
    rows.map((r) => r.charge.key),
    rows.map((r) => r.ledger.kind),
    rows.map((r) => r.charge.amount.toString()),
    rows.map((r) => r.ledger.currency),
  ];
}

/** A bucket's state as the functions return it: numbers as text (or numbers), so none loses a digit. */
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
