/**
 * The local limit authority's statements (migration `1765584000000-limit-local-authority`) and the
 * conversions of their answers.
 */
import { createHash } from 'node:crypto';
import { bucketId, bucketWindow, windowLengthMs, type BucketCheck } from '@helios/governance';
import { toBigInt, type NamedStatement } from '../sql.js';
import { type ChargeRow, type CommitRow, type HoldRow, type LedgerRow } from './rows.js';

export const CLAIM: NamedStatement = {
  name: 'helios_limit_claim',
  text: `SELECT * FROM "helios_limit_claim"($1::text[], $2::text[], $3::int[], $4::text[], $5::text[],
           $6::bigint[], $7::boolean[], $8::text, $9::bigint, $10::bigint)`,
};

export const DEMOTE: NamedStatement = {
  name: 'helios_limit_demote',
  text: `SELECT "helios_limit_demote"($1::text, $2::text[], $3::bigint[], $4::bigint[], $5::jsonb, $6::jsonb,
           $7::jsonb, $8::jsonb, $9::bigint, $10::bigint) AS "id"`,
};

/**
 * Buckets per hand-back statement. A hand-back turns every charge still in its buckets' windows into a
 * row (a few µs each), so handing back thousands at once (a shutdown, a takeover) is one long
 * transaction holding all their rows; in slices, each is bounded and what it handed back stays so.
 */
export const DEMOTE_SLICE = 500;

/** `work` over `items` (buckets, or rows of them), DEMOTE_SLICE at a time, one after another. */
export async function inSlices<T>(
  items: readonly T[],
  work: (slice: readonly T[]) => Promise<void>,
): Promise<void> {
  for (let i = 0; i < items.length; i += DEMOTE_SLICE) await work(items.slice(i, i + DEMOTE_SLICE));
}

/** An owner's own hand-back: DEMOTE fenced by its keys ($11), so nothing lands once it was taken over. */
export const DEMOTE_FENCED: NamedStatement = {
  name: 'helios_limit_demote_fenced',
  text: `${DEMOTE.text} WHERE "helios_limit_fence"($11::bigint[])`,
};

/** What a fenced statement of an owner another process took over fails with (helios_limit_fence). */
export const FENCED_OFF = 'HL002';

/** Charges decided here with no finalization to carry them (a commit without an evaluation id). */
export const WRITE_CHARGES: NamedStatement = {
  name: 'helios_limit_write_now',
  text: `SELECT "helios_limit_fence"($1::bigint[]) AND "helios_limit_journal_charges"($4::text, $2::jsonb, $3::jsonb) AS "ok"`,
};

/** The owner's charge journal into runs, one per bucket (migration OwnerChargeJournal), fenced. */
export const COMPACT_JOURNAL: NamedStatement = {
  name: 'helios_limit_compact_journal',
  text: `SELECT "helios_limit_compact_journal"($1::text, $2::bigint[]) AS "runs"`,
};

/**
 * Deletes what left the window of the owner's sliding buckets (the shared path retires while it decides;
 * here the rows only need to go): charge rows from before the claim, and runs whose newest charge left.
 * Fenced, and only buckets the owner still owns.
 */
export const RETIRE: NamedStatement = {
  name: 'helios_limit_retire_owned',
  text: `WITH "due" AS (
           SELECT a."id", a."cut" FROM unnest($1::text[], $2::bigint[]) AS a("id", "cut")
           WHERE "helios_limit_fence"($3::bigint[])
             AND EXISTS (SELECT 1 FROM "limit_buckets" lb WHERE lb."bucket_id" = a."id" AND lb."owner" = $4::text)),
         "runs" AS (
           DELETE FROM "limit_charge_runs" r USING "due" d WHERE r."bucket_id" = d."id" AND r."last_ms" <= d."cut")
         DELETE FROM "limit_charges" c USING "due" d WHERE c."bucket_id" = d."id" AND c."at_ms" <= d."cut"`,
};

/** A reservation's commit latch on the shared path (its first commit's snapshots), if any. */
export const COMMIT_LATCH: NamedStatement = {
  name: 'helios_limit_commit_latch',
  text: `SELECT "snapshots" FROM "limit_commits" WHERE "reservation_id" = $1::text`,
};

/** Every process that owns buckets, other than the asking one. */
export const OWNERS: NamedStatement = {
  name: 'helios_limit_owners',
  text: `SELECT DISTINCT "owner" FROM "limit_buckets" WHERE "owner" IS NOT NULL AND "owner" <> $1::text`,
};

/** The buckets a dead owner left, with their last activity. */
export const OWNED_BY: NamedStatement = {
  name: 'helios_limit_owned_by',
  text: `SELECT "bucket_id", "last_activity_ms" FROM "limit_buckets" WHERE "owner" = $1::text`,
};

/** Unexpired holds already in rows (placed on the shared path before the bucket was claimed). */
export const HOLD_ROWS: NamedStatement = {
  name: 'helios_limit_hold_rows',
  text: `SELECT "reservation_id" AS "r", "bucket_id" AS "b", "amount"::text AS "a", "expires_at_ms" AS "e"
         FROM "limit_holds" WHERE "bucket_id" = ANY($1::text[]) AND "expires_at_ms" > $2::bigint`,
};

/** Pending evaluations whose holds may be on a dead owner's buckets (none committed, none expired). */
export const LIVE_PENDING: NamedStatement = {
  name: 'helios_limit_live_pending',
  text: `SELECT "payload", "commit_latch" FROM "pending_evaluations"
         WHERE "expires_at_ms" > $1::bigint AND "commit_latch" IS NULL`,
};

/** The advisory lock key of an owner: 64 bits of a hash of its name, as PostgreSQL's signed bigint. */
export function ownerKey(owner: string): string {
  return createHash('sha256').update(`helios-limit-owner:${owner}`).digest().readBigInt64BE(0).toString();
}

/** The channel an owner listens on for hand-back requests (an identifier: ≤ 63 bytes). */
export function ownerChannel(owner: string): string {
  return `helios_limits_${owner}`;
}

export interface ClaimRow {
  readonly c_bucket: string;
  readonly c_outcome: 'claimed' | 'owned' | 'cooling';
  readonly c_owner: string | null;
  readonly c_last: string;
  readonly c_charge_at: string[] | null;
  readonly c_charge_amount: string[] | null;
  readonly c_hold_res: string[] | null;
  readonly c_hold_amount: string[] | null;
  readonly c_hold_expires: string[] | null;
  /** Live sender-keyed buckets not owned by the claimer (null when no sender-keyed bucket was asked for). */
  readonly c_live_others: string | null;
}

export function claimParams(
  checks: readonly BucketCheck[],
  owner: string,
  nowMs: number,
  cooldownMs: number,
): unknown[] {
  return [
    checks.map(bucketId),
    checks.map((c) => c.family),
    checks.map((c) => c.epoch),
    checks.map((c) => c.key),
    checks.map((c) => c.window.type),
    checks.map((c) => windowLengthMs(c.window)),
    checks.map((c) => c.senderScoped),
    owner,
    nowMs,
    cooldownMs,
  ];
}

/** A claimed bucket's rows, as SlidingBucket.restore takes them. */
export function claimedState(row: ClaimRow, check: BucketCheck) {
  const at = row.c_charge_at ?? [];
  const amounts = row.c_charge_amount ?? [];
  const holdIds = row.c_hold_res ?? [];
  return {
    window: bucketWindow(check.window.type, windowLengthMs(check.window)),
    lastActivityMs: Number(row.c_last),
    charges: at.map((t, i) => ({ atMs: Number(t), amount: toBigInt(amounts[i]) })),
    holds: new Map(
      holdIds.map((id, i) => [
        id,
        { amount: toBigInt(row.c_hold_amount?.[i]), expiresAtMs: Number(row.c_hold_expires?.[i]) },
      ]),
    ),
  };
}

export function demoteParams(
  owner: string,
  ids: readonly string[],
  lastActivity: readonly number[],
  /** Per bucket, its oldest counting charge (none: every row goes); null when unknown (a dead owner's). */
  since: readonly (number | string | null)[],
  writes: {
    holds: readonly HoldRow[];
    charges: readonly ChargeRow[];
    ledger: readonly LedgerRow[];
    commits: readonly CommitRow[];
  },
  nowMs: number,
  /** When the claim cooldown starts (null: none). */
  demotedAtMs: number | null,
): unknown[] {
  return [
    owner,
    ids,
    lastActivity,
    since,
    JSON.stringify(writes.holds),
    JSON.stringify(writes.charges),
    JSON.stringify(writes.ledger),
    JSON.stringify(writes.commits),
    nowMs,
    demotedAtMs,
  ];
}
