/**
 * The statements on `limit_buckets`, `limit_holds` and `limit_charges` that the limit store composes
 * into its transactions. Every function takes the transaction's query runner.
 */
import {
  bucketId,
  bucketWindow,
  isIdleSessionPot,
  sameWindow,
  windowLengthMs,
  type BucketCheck,
  type BucketState,
} from '@helios/governance';
import { type QueryRunner } from 'typeorm';
import { run, toBigInt, toMs } from './sql.js';

/**
 * A bucket `b` is live while it has an unexpired hold or a charge that still counts (memory: !isEmpty).
 * `now` is the placeholder of the current instant, e.g. `$2::bigint`. The session clause mirrors
 * governance's isIdleSessionPot, negated (a live hold is the first clause).
 */
export const liveBucket = (now: string): string => `(
  EXISTS (SELECT 1 FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id" AND h."expires_at_ms" > ${now})
  OR (b."window_type" = 'sliding' AND EXISTS (SELECT 1 FROM "limit_charges" c
        WHERE c."bucket_id" = b."bucket_id" AND c."at_ms" > ${now} - b."window_ms"))
  OR (b."window_type" = 'session' AND ${now} - b."last_activity_ms" <= b."window_ms"
        AND EXISTS (SELECT 1 FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"))
)`;

/** Distinct checks by bucket id, sorted: the one lock order every transaction uses. */
export function distinctSorted<T extends BucketCheck>(checks: readonly T[]): T[] {
  const byId = new Map<string, T>();
  for (const check of checks) if (!byId.has(bucketId(check))) byId.set(bucketId(check), check);
  return [...byId.keys()].sort().map((id) => byId.get(id) as T);
}

/**
 * Creates missing bucket rows (ON CONFLICT DO NOTHING), then locks all of them FOR UPDATE in sorted
 * order. A row deleted between the two (the retention sweep collects idle buckets) is created again.
 */
export async function lockBuckets(
  runner: QueryRunner,
  checks: readonly BucketCheck[],
  nowMs: number,
): Promise<void> {
  const sorted = distinctSorted(checks);
  if (sorted.length === 0) return;
  const ids = sorted.map(bucketId);
  for (let attempt = 0; attempt < 3; attempt++) {
    await run(
      runner,
      `INSERT INTO "limit_buckets"
         ("bucket_id", "family", "epoch", "bucket_key", "window_type", "window_ms", "sender_scoped", "last_activity_ms")
       SELECT * FROM unnest($1::text[], $2::text[], $3::int[], $4::text[], $5::text[], $6::bigint[], $7::bool[],
                            $8::bigint[]) ORDER BY 1
       ON CONFLICT ("bucket_id") DO NOTHING`,
      [
        ids,
        sorted.map((c) => c.family),
        sorted.map((c) => c.epoch),
        sorted.map((c) => c.key),
        sorted.map((c) => c.window.type),
        sorted.map((c) => windowLengthMs(c.window)),
        sorted.map((c) => c.senderScoped),
        sorted.map(() => nowMs),
      ],
    );
    // ORDER BY sits below the row locks in the plan: rows are locked in bucket_id order.
    const locked = await run(
      runner,
      `SELECT "bucket_id" FROM "limit_buckets" WHERE "bucket_id" = ANY($1::text[]) ORDER BY "bucket_id" FOR UPDATE`,
      [ids],
    );
    if (locked.rows.length === ids.length) return;
  }
  throw new Error('limit buckets vanished while being locked three times in a row');
}

/**
 * Each bucket's BucketState at `nowMs` (charges, holds, activity), for governance's limit arithmetic;
 * `except` leaves one reservation's holds out. The subqueries compute BucketState's fields in the
 * database (`charged`, `oldest_ms` → oldestChargeMs, `held`, `live_hold` → liveHold).
 */
export async function readBucketStates(
  runner: QueryRunner,
  ids: readonly string[],
  nowMs: number,
  except: string | null,
): Promise<Map<string, BucketState>> {
  const { rows } = await run<{
    bucket_id: string;
    window_type: 'sliding' | 'session';
    window_ms: string;
    last_activity_ms: string;
    charged: string;
    oldest_ms: string | null;
    held: string;
    live_hold: boolean;
  }>(
    runner,
    `SELECT b."bucket_id", b."window_type", b."window_ms", b."last_activity_ms",
       (SELECT coalesce(sum(c."amount"), 0) FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"
          AND (b."window_type" = 'session' OR c."at_ms" > $2::bigint - b."window_ms"))::text AS "charged",
       (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"
          AND b."window_type" = 'sliding' AND c."at_ms" > $2::bigint - b."window_ms") AS "oldest_ms",
       (SELECT coalesce(sum(h."amount"), 0) FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id"
          AND h."expires_at_ms" > $2::bigint AND h."reservation_id" IS DISTINCT FROM $3::text)::text AS "held",
       EXISTS (SELECT 1 FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id"
          AND h."expires_at_ms" > $2::bigint) AS "live_hold"
     FROM "limit_buckets" b WHERE b."bucket_id" = ANY($1::text[])`,
    [ids, nowMs, except],
  );
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

/**
 * Brings the locked buckets up to date before anything is counted, as SlidingBucket's prune does: a
 * bucket whose window was reconfigured starts over, an idle session pot forgets its charges, expired
 * holds and charges that left their window are dropped. Returns the states as they are afterwards.
 */
export async function refreshBuckets(
  runner: QueryRunner,
  checks: readonly BucketCheck[],
  nowMs: number,
  except: string | null,
): Promise<Map<string, BucketState>> {
  const sorted = distinctSorted(checks);
  const ids = sorted.map(bucketId);
  const before = await readBucketStates(runner, ids, nowMs, except);
  const reconfigured = sorted.filter((check) => {
    const state = before.get(bucketId(check));
    return state !== undefined && !sameWindow(check.window, state.window);
  });
  for (const check of reconfigured) {
    const id = bucketId(check);
    await run(runner, `DELETE FROM "limit_charges" WHERE "bucket_id" = $1`, [id]);
    await run(runner, `DELETE FROM "limit_holds" WHERE "bucket_id" = $1`, [id]);
    await run(
      runner,
      `UPDATE "limit_buckets" SET "window_type" = $2, "window_ms" = $3, "sender_scoped" = $4, "last_activity_ms" = $5
       WHERE "bucket_id" = $1`,
      [id, check.window.type, windowLengthMs(check.window), check.senderScoped, nowMs],
    );
  }
  const idle = [...before]
    .filter(([, state]) => isIdleSessionPot(state.window, state.lastActivityMs, state.liveHold, nowMs))
    .map(([id]) => id);
  if (idle.length > 0)
    await run(runner, `DELETE FROM "limit_charges" WHERE "bucket_id" = ANY($1::text[])`, [idle]);
  await run(
    runner,
    `DELETE FROM "limit_holds" WHERE "bucket_id" = ANY($1::text[]) AND "expires_at_ms" <= $2::bigint`,
    [ids, nowMs],
  );
  await run(
    runner,
    `DELETE FROM "limit_charges" c USING "limit_buckets" b
     WHERE b."bucket_id" = ANY($1::text[]) AND c."bucket_id" = b."bucket_id"
       AND b."window_type" = 'sliding' AND c."at_ms" <= $2::bigint - b."window_ms"`,
    [ids, nowMs],
  );
  if (reconfigured.length === 0 && idle.length === 0) return before;
  return readBucketStates(runner, ids, nowMs, except);
}

/** Marks the buckets active now (a session pot's idle clock restarts). */
export async function touchBuckets(
  runner: QueryRunner,
  ids: readonly string[],
  nowMs: number,
): Promise<void> {
  await run(
    runner,
    `UPDATE "limit_buckets" SET "last_activity_ms" = $2 WHERE "bucket_id" = ANY($1::text[])`,
    [ids, nowMs],
  );
}
