import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { RELEASE, SWEEP } from './1765152000000-limit-running-sums.js';
import { boundedDefinitions, orReplace, replaceOnce } from './1765497600000-limit-retirement-bounds.js';

/**
 * Local limit authority: a bucket may be owned by one API process, which then decides its reservations
 * and commits in memory (libs/persistence limit-authority). Until then — and again once the owner hands
 * it back — the bucket is shared and decided by `helios_limit_apply` as before.
 *
 * While a bucket is owned its row's running sums are not maintained: the owner's memory is the
 * authority, and the durable truth is the rows the owner writes with the calls themselves — a hold is
 * its pending evaluation (written before /evaluate answers), a charge is an entry of a
 * `limit_charge_runs` row written by the finalization that records the call (one row per bucket per
 * finalization batch: a batch of 16 calls on one bucket inserts, indexes, deletes and vacuums one row,
 * not 16). Handing a bucket back (`helios_limit_demote`) turns its runs into `limit_charges` rows and
 * rewrites its sums, holds and liveness from those rows and the owner's live holds.
 *
 * Ownership: `owner` names the owning process; the process holds a session-level SHARED advisory lock
 * on a key derived from that name for as long as it lives, and each statement that writes what it
 * decided in memory takes the same lock shared for its transaction (`helios_limit_fence`). Another
 * process that finds the owner's key free (its connection is gone) takes it EXCLUSIVELY — which waits
 * for the dead owner's statements still in flight — before rebuilding its buckets, so nothing the dead
 * owner decided can land afterwards.
 *
 * The shared-path functions refuse an owned bucket (SQLSTATE HL001; DETAIL is a JSON array of
 * [owner, bucket] pairs): the caller
 * asks the owner to hand it back and retries. The charge sweep and the retention sweep skip owned
 * buckets (their sums are not maintained).
 */
const OWNED_CHECK = (ids: string): string => `
  IF EXISTS (SELECT 1 FROM "limit_buckets" ob WHERE ob."bucket_id" = ANY(${ids}) AND ob."owner" IS NOT NULL) THEN
    RAISE EXCEPTION USING ERRCODE = 'HL001', MESSAGE = 'limit buckets owned by a process',
      DETAIL = (SELECT json_agg(json_build_array(ob."owner", ob."bucket_id"))::text FROM "limit_buckets" ob
                WHERE ob."bucket_id" = ANY(${ids}) AND ob."owner" IS NOT NULL);
  END IF;`;

/** Fails a statement of a process whose buckets another process took over (see the file comment). */
const FENCE = `
CREATE FUNCTION "helios_limit_fence"(p_keys bigint[])
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  FOR i IN 1..coalesce(cardinality(p_keys), 0) LOOP
    IF NOT pg_try_advisory_xact_lock_shared(p_keys[i]) THEN
      RAISE EXCEPTION USING ERRCODE = 'HL002',
        MESSAGE = 'this process''s limit buckets were taken over by another process';
    END IF;
  END LOOP;
  RETURN true;
END $$`;

/**
 * An owned bucket's charges, a run per write: three aligned arrays (in no particular order), `last_ms`
 * the newest instant (a run leaves once its newest charge left the window; until then the owner's
 * memory ignores its older ones).
 */
const RUNS_TABLE = `
CREATE TABLE "limit_charge_runs" (
  "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
  "bucket_id" text NOT NULL,
  "last_ms" bigint NOT NULL,
  "reservation_ids" text[] NOT NULL,
  "amounts" numeric(1000, 0)[] NOT NULL,
  "at_ms" bigint[] NOT NULL
)`;
const RUNS_INDEX = `CREATE INDEX "limit_charge_runs_bucket_last" ON "limit_charge_runs" ("bucket_id", "last_ms")`;
/** Every charge, a row each, whether its bucket is shared (a row) or owned (an entry of a run). */
export const ENTRIES_VIEW = `
CREATE VIEW "limit_charge_entries" AS
  SELECT "bucket_id", "reservation_id", "amount", "at_ms" FROM "limit_charges"
  UNION ALL
  SELECT r."bucket_id", e."reservation_id", e."amount", e."at_ms"
  FROM "limit_charge_runs" r, unnest(r."reservation_ids", r."amounts", r."at_ms") AS e("reservation_id", "amount", "at_ms")`;

/** The runs of buckets `ids` become `limit_charges` rows (the bucket is leaving its owner). */
const expandRuns = (ids: string): string => `
  INSERT INTO "limit_charges" ("bucket_id", "reservation_id", "amount", "at_ms")
  SELECT r."bucket_id", e."r", e."a", e."t"
  FROM "limit_charge_runs" r, unnest(r."reservation_ids", r."amounts", r."at_ms") AS e("r", "a", "t")
  WHERE r."bucket_id" = ANY(${ids});
  DELETE FROM "limit_charge_runs" r WHERE r."bucket_id" = ANY(${ids});`;

/**
 * Charges decided in memory, and their budget ledger rows, as JSON arrays:
 * `[{"b": bucket, "r": reservation, "a": amount, "t": at_ms}]` (a run per bucket) and budget_events
 * rows by column name.
 */
export const WRITE_CHARGES = `
CREATE FUNCTION "helios_limit_write_charges"(p_charges jsonb, p_ledger jsonb)
RETURNS boolean LANGUAGE plpgsql AS $$
BEGIN
  IF jsonb_array_length(p_charges) > 0 THEN
    INSERT INTO "limit_charge_runs" ("bucket_id", "last_ms", "reservation_ids", "amounts", "at_ms")
    SELECT c."b", max(c."t"), array_agg(c."r"), array_agg(c."a"), array_agg(c."t")
    FROM jsonb_to_recordset(p_charges) AS c("b" text, "r" text, "a" numeric, "t" bigint) GROUP BY c."b";
  END IF;
  IF jsonb_array_length(p_ledger) > 0 THEN
    INSERT INTO "budget_events" ("budget_name", "epoch", "bucket_key", "kind", "amount", "currency",
                                 "tool_name", "origin", "audit_record_id", "timestamp_ms")
    SELECT l."budget_name", l."epoch", l."bucket_key", l."kind", l."amount", l."currency", l."tool_name",
           l."origin", l."audit_record_id", l."timestamp_ms"
    FROM jsonb_to_recordset(p_ledger) AS l("budget_name" text, "epoch" int, "bucket_key" text, "kind" text,
      "amount" numeric, "currency" text, "tool_name" text, "origin" text, "audit_record_id" text, "timestamp_ms" bigint);
  END IF;
  RETURN true;
END $$`;

/**
 * Claims buckets for `p_owner` (created when missing), each in id order under its row lock, and returns
 * what the owner needs to decide in memory: the charges still in the window (oldest first) and the live
 * holds (amounts as text: a numeric array would come back as doubles). Per bucket: `claimed` (or
 * already ours: its rows are not reloaded into memory); `owned` (another process owns it: `c_owner`);
 * `cooling` (handed back less than `p_cooldown_ms` ago: contended, it stays shared for now).
 * `c_live_others` (when a sender-keyed bucket is asked for) counts the live sender-keyed buckets not
 * owned by `p_owner` — every sender-keyed bucket another process owns counts, live or not — under the
 * lock the shared path's count takes: with the owner's own live ones, the sender-key cap it decides
 * against.
 */
export const CLAIM = `
CREATE FUNCTION "helios_limit_claim"(p_ids text[], p_family text[], p_epoch int[], p_key text[],
  p_window_type text[], p_window_ms bigint[], p_sender boolean[], p_owner text, p_now bigint,
  p_cooldown_ms bigint)
RETURNS TABLE ("c_bucket" text, "c_outcome" text, "c_owner" text, "c_last" bigint,
  "c_charge_at" bigint[], "c_charge_amount" text[], "c_hold_res" text[], "c_hold_amount" text[],
  "c_hold_expires" bigint[], "c_live_others" bigint)
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  b record; found bigint; live bigint;
BEGIN
  FOR attempt IN 1..3 LOOP
    INSERT INTO "limit_buckets" ("bucket_id", "family", "epoch", "bucket_key", "window_type", "window_ms",
                                 "sender_scoped", "last_activity_ms")
    SELECT t.*, p_now FROM unnest(p_ids, p_family, p_epoch, p_key, p_window_type, p_window_ms, p_sender) AS t
    ORDER BY 1 ON CONFLICT ("bucket_id") DO NOTHING;
    SELECT count(*) INTO found FROM (SELECT 1 FROM "limit_buckets" lb WHERE lb."bucket_id" = ANY(p_ids)
                                     ORDER BY lb."bucket_id" FOR UPDATE) AS l;
    EXIT WHEN found = cardinality(p_ids);
    IF attempt = 3 THEN RAISE EXCEPTION 'limit buckets vanished while being claimed three times in a row'; END IF;
  END LOOP;
  IF true = ANY(p_sender) THEN
    PERFORM pg_advisory_xact_lock(4711000002);
    -- Shared live ones (what this call claims is counted by the owner, from memory), then every
    -- sender-keyed bucket another process owns (two index ranges around this owner's own).
    SELECT count(*) INTO live FROM "limit_buckets" lb
    WHERE lb."sender_scoped" AND lb."live_until_ms" > p_now AND lb."owner" IS NULL
      AND NOT (lb."bucket_id" = ANY(p_ids) AND NOT coalesce(p_now - lb."demoted_at_ms" < p_cooldown_ms, false));
    live := live + (SELECT count(*) FROM "limit_buckets" lb
                    WHERE (lb."owner" < p_owner OR lb."owner" > p_owner) AND lb."sender_scoped");
  END IF;
  FOR k IN 1..cardinality(p_ids) LOOP
    SELECT * INTO b FROM "limit_buckets" lb WHERE lb."bucket_id" = p_ids[k];
    c_bucket := p_ids[k]; c_owner := b."owner"; c_last := b."last_activity_ms"; c_live_others := live;
    c_charge_at := NULL; c_charge_amount := NULL; c_hold_res := NULL; c_hold_amount := NULL; c_hold_expires := NULL;
    IF b."owner" IS NOT NULL AND b."owner" <> p_owner THEN
      c_outcome := 'owned'; RETURN NEXT; CONTINUE;
    END IF;
    IF b."owner" IS NULL AND p_now - b."demoted_at_ms" < p_cooldown_ms THEN
      c_outcome := 'cooling'; RETURN NEXT; CONTINUE;
    END IF;
    IF b."owner" = p_owner THEN
      c_outcome := 'claimed'; RETURN NEXT; CONTINUE;
    END IF;
    IF b."window_type" <> p_window_type[k] OR b."window_ms" <> p_window_ms[k] THEN
      -- A reconfigured window starts over, as on the shared path.
      DELETE FROM "limit_charges" c WHERE c."bucket_id" = p_ids[k];
      DELETE FROM "limit_holds" h WHERE h."bucket_id" = p_ids[k];
      UPDATE "limit_buckets" lb SET "window_type" = p_window_type[k], "window_ms" = p_window_ms[k],
        "charged" = 0, "charge_count" = 0, "held" = 0, "hold_count" = 0, "oldest_ms" = NULL,
        "hold_expiry_ms" = NULL, "last_activity_ms" = p_now
      WHERE lb."bucket_id" = p_ids[k];
      c_last := p_now;
    ELSE
      DELETE FROM "limit_holds" h WHERE h."bucket_id" = p_ids[k] AND h."expires_at_ms" <= p_now;
      IF b."window_type" = 'sliding' THEN
        DELETE FROM "limit_charges" c WHERE c."bucket_id" = p_ids[k] AND c."at_ms" <= p_now - b."window_ms";
      ELSIF p_now - b."last_activity_ms" > b."window_ms"
            AND NOT EXISTS (SELECT 1 FROM "limit_holds" h WHERE h."bucket_id" = p_ids[k]) THEN
        -- An idle session pot with nothing held is over.
        DELETE FROM "limit_charges" c WHERE c."bucket_id" = p_ids[k];
      END IF;
    END IF;
    SELECT array_agg(c."at_ms" ORDER BY c."at_ms", c."id"), array_agg(c."amount"::text ORDER BY c."at_ms", c."id")
    INTO c_charge_at, c_charge_amount FROM "limit_charges" c WHERE c."bucket_id" = p_ids[k];
    SELECT array_agg(h."reservation_id"), array_agg(h."amount"::text), array_agg(h."expires_at_ms")
    INTO c_hold_res, c_hold_amount, c_hold_expires FROM "limit_holds" h WHERE h."bucket_id" = p_ids[k];
    -- Owned, a bucket's liveness is its owner's to know: other processes count an owned sender-keyed
    -- bucket as live through the owner index, so the live range holds shared buckets only.
    UPDATE "limit_buckets" lb SET "owner" = p_owner, "demoted_at_ms" = NULL, "live_until_ms" = 0
    WHERE lb."bucket_id" = p_ids[k];
    c_outcome := 'claimed'; c_owner := p_owner;
    RETURN NEXT;
  END LOOP;
END $$`;

/**
 * Hands `p_owner`'s buckets `p_ids` back to the shared path: charges not yet written (`p_charges`,
 * `p_ledger`) are written, the commits decided in memory on them become commit latches (`p_commits`:
 * `[{"r": reservation, "s": snapshots, "t": committed_at_ms}]`), charges that no longer count are
 * deleted (before the owner's oldest counting one, `p_since`; by the window when that is null), the holds become exactly `p_holds`
 * (`[{"r": reservation, "b": bucket, "a": amount, "e": expires_at_ms}]`), and the running sums, bounds
 * and liveness are recomputed from the rows. `p_demoted_at` (null: none) starts the claim cooldown: a
 * bucket handed back because another process needed it stays shared for the cooldown after it. Buckets
 * no longer owned by `p_owner` are left alone.
 * Returns the buckets handed back.
 */
export const DEMOTE = `
CREATE FUNCTION "helios_limit_demote"(p_owner text, p_ids text[], p_last bigint[], p_since bigint[],
  p_holds jsonb, p_charges jsonb, p_ledger jsonb, p_commits jsonb, p_now bigint, p_demoted_at bigint)
RETURNS SETOF text
LANGUAGE plpgsql
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  ids text[];
BEGIN
  ids := ARRAY(SELECT lb."bucket_id" FROM "limit_buckets" lb WHERE lb."bucket_id" = ANY(p_ids)
               AND lb."owner" = p_owner ORDER BY lb."bucket_id" FOR UPDATE);
  IF cardinality(ids) = 0 THEN RETURN; END IF;
  PERFORM "helios_limit_write_charges"(
    (SELECT coalesce(jsonb_agg(c), '[]') FROM jsonb_array_elements(p_charges) c WHERE c->>'b' = ANY(ids)),
    p_ledger);${expandRuns('ids')}
  -- Commits decided in memory become the shared path's latches: a retried commit answers them again.
  INSERT INTO "limit_commits" ("reservation_id", "snapshots", "committed_at_ms")
  SELECT c."r", c."s", c."t" FROM jsonb_to_recordset(p_commits) AS c("r" text, "s" jsonb, "t" bigint)
  ORDER BY c."r" ON CONFLICT ("reservation_id") DO NOTHING;
  DELETE FROM "limit_holds" h WHERE h."bucket_id" = ANY(ids);
  INSERT INTO "limit_holds" ("reservation_id", "bucket_id", "amount", "expires_at_ms")
  SELECT h."r", h."b", sum(h."a"), max(h."e")
  FROM jsonb_to_recordset(p_holds) AS h("r" text, "b" text, "a" numeric, "e" bigint)
  WHERE h."b" = ANY(ids) AND h."e" > p_now GROUP BY h."r", h."b" ORDER BY h."b", h."r";
  UPDATE "limit_buckets" lb SET "last_activity_ms" = greatest(lb."last_activity_ms", l.last)
  FROM unnest(p_ids, p_last) AS l(id, last) WHERE lb."bucket_id" = l.id AND lb."bucket_id" = ANY(ids);
  -- The owner knows what still counts (its oldest counting charge, p_since); without it, the window says.
  DELETE FROM "limit_charges" c USING "limit_buckets" lb, unnest(p_ids, p_since) AS s(id, since)
  WHERE lb."bucket_id" = ANY(ids) AND c."bucket_id" = lb."bucket_id" AND s.id = lb."bucket_id"
    AND CASE WHEN s.since IS NOT NULL THEN c."at_ms" < s.since
      ELSE (lb."window_type" = 'sliding' AND c."at_ms" <= p_now - lb."window_ms")
        OR (lb."window_type" = 'session' AND p_now - lb."last_activity_ms" > lb."window_ms"
            AND NOT EXISTS (SELECT 1 FROM "limit_holds" h WHERE h."bucket_id" = lb."bucket_id")) END;
  UPDATE "limit_buckets" lb SET
    "charged" = coalesce((SELECT sum(c."amount") FROM "limit_charges" c WHERE c."bucket_id" = lb."bucket_id"), 0),
    "charge_count" = (SELECT count(*) FROM "limit_charges" c WHERE c."bucket_id" = lb."bucket_id"),
    "oldest_ms" = (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = lb."bucket_id"),
    "held" = coalesce((SELECT sum(h."amount") FROM "limit_holds" h WHERE h."bucket_id" = lb."bucket_id"), 0),
    "hold_count" = (SELECT count(*) FROM "limit_holds" h WHERE h."bucket_id" = lb."bucket_id"),
    "hold_expiry_ms" = (SELECT min(h."expires_at_ms") FROM "limit_holds" h WHERE h."bucket_id" = lb."bucket_id"),
    "owner" = NULL, "demoted_at_ms" = p_demoted_at
  WHERE lb."bucket_id" = ANY(ids);
  UPDATE "limit_buckets" lb SET "live_until_ms" = "helios_limit_live_until"(lb) WHERE lb."bucket_id" = ANY(ids);
  RETURN QUERY SELECT unnest(ids);
END $$`;

/**
 * Shared-path functions, edited to refuse owned buckets (and the sweep to skip them), and the shared
 * path's sender-key count to count owned sender-keyed buckets as live.
 */
export function sharedEdits(): readonly (readonly [before: string, after: string])[] {
  const { PREPARE, APPLY } = boundedDefinitions();
  const liveCount = `WHERE lb."sender_scoped" AND lb."live_until_ms" > p_now;`;
  const lockAnchor = `  o_dirty := array_fill(false, ARRAY[cardinality(o_ids)]);`;
  const releaseAnchor = `  PERFORM 1 FROM "limit_buckets" WHERE "bucket_id" = ANY(ids) ORDER BY "bucket_id" FOR UPDATE;
  WITH gone AS (DELETE FROM "limit_holds" WHERE "reservation_id" = p_reservation`;
  const sweepAnchor = `  PERFORM 1 FROM "limit_buckets" WHERE "bucket_id" = ANY(ids) ORDER BY "bucket_id" FOR UPDATE;
  WITH gone AS (
    DELETE FROM "limit_charges"`;
  const sweepLocked = sweepAnchor.replace(
    'FOR UPDATE;',
    `FOR UPDATE;
  ids := ARRAY(SELECT lb."bucket_id" FROM "limit_buckets" lb WHERE lb."bucket_id" = ANY(ids) AND lb."owner" IS NULL);
  IF cardinality(ids) = 0 THEN RETURN 0; END IF;`,
  );
  return [
    [PREPARE, replaceOnce(PREPARE, lockAnchor, `${OWNED_CHECK('o_ids')}\n${lockAnchor}`)],
    // The sender-key cap counts every owned sender-keyed bucket as live (the owner alone knows).
    [
      APPLY,
      replaceOnce(
        APPLY,
        liveCount,
        `WHERE lb."sender_scoped" AND lb."live_until_ms" > p_now AND lb."owner" IS NULL;
          live_total := live_total + (SELECT count(*) FROM "limit_buckets" o
                                      WHERE o."owner" IS NOT NULL AND o."sender_scoped");`,
      ),
    ],
    [
      RELEASE,
      replaceOnce(
        RELEASE,
        releaseAnchor,
        releaseAnchor.replace('FOR UPDATE;', `FOR UPDATE;${OWNED_CHECK('ids')}`),
      ),
    ],
    [SWEEP, replaceOnce(SWEEP, sweepAnchor, sweepLocked)],
  ];
}

const NEW_FUNCTIONS = [
  'helios_limit_demote',
  'helios_limit_claim',
  'helios_limit_write_charges',
  'helios_limit_fence',
];

export class LimitLocalAuthority1765584000000 implements MigrationInterface {
  readonly name = 'LimitLocalAuthority1765584000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(
      `ALTER TABLE "limit_buckets" ADD COLUMN "owner" text, ADD COLUMN "demoted_at_ms" bigint`,
    );
    await queryRunner.query(
      `CREATE INDEX "limit_buckets_owner" ON "limit_buckets" ("owner") WHERE "owner" IS NOT NULL`,
    );
    await queryRunner.query(RUNS_TABLE);
    await queryRunner.query(RUNS_INDEX);
    await queryRunner.query(ENTRIES_VIEW);
    for (const definition of [FENCE, WRITE_CHARGES, CLAIM, DEMOTE]) await queryRunner.query(definition);
    for (const [, after] of sharedEdits()) await queryRunner.query(orReplace(after));
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // Owned buckets go back to the shared path with the sums of their rows (holds kept in memory only
    // are lost with the owners; their evaluations still expire).
    await queryRunner.query(`DO $$ BEGIN${expandRuns('ARRAY(SELECT DISTINCT "bucket_id" FROM "limit_charge_runs")')}
    END $$`);
    await queryRunner.query(`DROP VIEW "limit_charge_entries"`);
    await queryRunner.query(`DROP TABLE "limit_charge_runs"`);
    await queryRunner.query(`
      UPDATE "limit_buckets" lb SET
        "charged" = coalesce((SELECT sum(c."amount") FROM "limit_charges" c WHERE c."bucket_id" = lb."bucket_id"), 0),
        "charge_count" = (SELECT count(*) FROM "limit_charges" c WHERE c."bucket_id" = lb."bucket_id"),
        "oldest_ms" = (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = lb."bucket_id"),
        "live_until_ms" = 0
      WHERE lb."owner" IS NOT NULL`);
    for (const [before] of sharedEdits()) await queryRunner.query(orReplace(before));
    for (const name of NEW_FUNCTIONS) await queryRunner.query(`DROP FUNCTION "${name}"`);
    await queryRunner.query(`DROP INDEX "limit_buckets_owner"`);
    await queryRunner.query(`ALTER TABLE "limit_buckets" DROP COLUMN "owner", DROP COLUMN "demoted_at_ms"`);
  }
}
