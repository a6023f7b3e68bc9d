import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Check-and-hold and commit as server-side functions: one statement, one round trip each. Before this,
 * a limited `/evaluate` held its buckets' row locks across ten statements sent one at a time, so every
 * other call on the bucket queued behind the network; now the locks live only as long as the function
 * runs. The statements are the ones the store sent before, in the same order and under the same
 * READ COMMITTED rules (each statement after the lock sees what the previous holder committed).
 *
 * Bucket rows come in distinct and sorted by id (the one lock order); checks and charges come in the
 * caller's order. What the functions return is raw bucket state (and for a commit, its snapshots), so
 * the arithmetic of a snapshot stays the governance library's (limit-arithmetic.ts); the one decision
 * they make inside — refuse, or place the holds — uses the same formula, and the store contracts hold
 * the two to agreement.
 */
const STATES = `
CREATE FUNCTION "helios_limit_states"(p_ids text[], p_now bigint, p_except text)
RETURNS TABLE ("bucket_id" text, "window_type" text, "window_ms" bigint, "last_activity_ms" bigint,
               "charged" numeric, "oldest_ms" bigint, "held" numeric, "live_hold" boolean)
LANGUAGE sql STABLE AS $$
  SELECT b."bucket_id", b."window_type", b."window_ms", b."last_activity_ms",
    (SELECT coalesce(sum(c."amount"), 0) FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"
       AND (b."window_type" = 'session' OR c."at_ms" > p_now - b."window_ms")),
    (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"
       AND b."window_type" = 'sliding' AND c."at_ms" > p_now - b."window_ms"),
    (SELECT coalesce(sum(h."amount"), 0) FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id"
       AND h."expires_at_ms" > p_now AND h."reservation_id" IS DISTINCT FROM p_except),
    EXISTS (SELECT 1 FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id" AND h."expires_at_ms" > p_now)
  FROM "limit_buckets" b WHERE b."bucket_id" = ANY(p_ids)
$$`;

/**
 * What a bucket's state counts against a check (limit-arithmetic.ts `usedOf`): charges that still count
 * (none for a session pot idle past its TTL with nothing held) plus other calls' live holds.
 */
const USED = `
CREATE FUNCTION "helios_limit_used"(p_state record, p_now bigint)
RETURNS numeric LANGUAGE plpgsql IMMUTABLE AS $$
BEGIN
  RETURN CASE WHEN p_state."window_type" = 'session' AND NOT p_state."live_hold"
                   AND p_now - p_state."last_activity_ms" > p_state."window_ms"
              THEN 0 ELSE p_state."charged" END + p_state."held";
END $$`;

/** Creates missing rows, locks them all in id order; a row swept away in between is created again. */
const LOCK = `
CREATE FUNCTION "helios_limit_lock"(p_ids text[], p_family text[], p_epoch int[], p_key text[],
  p_window_type text[], p_window_ms bigint[], p_sender boolean[], p_now bigint)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE locked int;
BEGIN
  FOR attempt IN 1..3 LOOP
    INSERT INTO "limit_buckets" ("bucket_id", "family", "epoch", "bucket_key", "window_type", "window_ms",
                                 "sender_scoped", "last_activity_ms")
    SELECT t.*, p_now FROM unnest(p_ids, p_family, p_epoch, p_key, p_window_type, p_window_ms, p_sender) AS t
    ORDER BY 1 ON CONFLICT ("bucket_id") DO NOTHING;
    SELECT count(*) INTO locked FROM (SELECT 1 FROM "limit_buckets" WHERE "bucket_id" = ANY(p_ids)
                                      ORDER BY "bucket_id" FOR UPDATE) AS l;
    IF locked = cardinality(p_ids) THEN RETURN; END IF;
  END LOOP;
  RAISE EXCEPTION 'limit buckets vanished while being locked three times in a row';
END $$`;

/**
 * Brings locked buckets up to date before anything is counted: a bucket whose window was reconfigured
 * starts over, an idle session pot forgets its charges, expired holds and aged-out charges go.
 */
const REFRESH = `
CREATE FUNCTION "helios_limit_refresh"(p_ids text[], p_window_type text[], p_window_ms bigint[],
  p_sender boolean[], p_now bigint)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE changed text[];
BEGIN
  SELECT array_agg(b."bucket_id") INTO changed
  FROM "limit_buckets" b JOIN unnest(p_ids, p_window_type, p_window_ms) AS w(id, wtype, wms) ON w.id = b."bucket_id"
  WHERE b."window_type" <> w.wtype OR b."window_ms" <> w.wms;
  IF changed IS NOT NULL THEN
    DELETE FROM "limit_charges" WHERE "bucket_id" = ANY(changed);
    DELETE FROM "limit_holds" WHERE "bucket_id" = ANY(changed);
    UPDATE "limit_buckets" b SET "window_type" = w.wtype, "window_ms" = w.wms, "sender_scoped" = w.sender,
      "last_activity_ms" = p_now
    FROM unnest(p_ids, p_window_type, p_window_ms, p_sender) AS w(id, wtype, wms, sender)
    WHERE b."bucket_id" = w.id AND b."bucket_id" = ANY(changed);
  END IF;
  DELETE FROM "limit_charges" c USING "limit_buckets" b
  WHERE b."bucket_id" = ANY(p_ids) AND c."bucket_id" = b."bucket_id" AND b."window_type" = 'session'
    AND p_now - b."last_activity_ms" > b."window_ms"
    AND NOT EXISTS (SELECT 1 FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id" AND h."expires_at_ms" > p_now);
  DELETE FROM "limit_holds" WHERE "bucket_id" = ANY(p_ids) AND "expires_at_ms" <= p_now;
  DELETE FROM "limit_charges" c USING "limit_buckets" b
  WHERE b."bucket_id" = ANY(p_ids) AND c."bucket_id" = b."bucket_id"
    AND b."window_type" = 'sliding' AND c."at_ms" <= p_now - b."window_ms";
END $$`;

/** Live: an unexpired hold, a charge still in its window, or a session pot not yet idle with charges. */
const LIVE = `
CREATE FUNCTION "helios_limit_live"(p_bucket "limit_buckets", p_now bigint)
RETURNS boolean LANGUAGE sql STABLE AS $$
  SELECT EXISTS (SELECT 1 FROM "limit_holds" h WHERE h."bucket_id" = p_bucket."bucket_id" AND h."expires_at_ms" > p_now)
    OR (p_bucket."window_type" = 'sliding' AND EXISTS (SELECT 1 FROM "limit_charges" c
          WHERE c."bucket_id" = p_bucket."bucket_id" AND c."at_ms" > p_now - p_bucket."window_ms"))
    OR (p_bucket."window_type" = 'session' AND p_now - p_bucket."last_activity_ms" <= p_bucket."window_ms"
          AND EXISTS (SELECT 1 FROM "limit_charges" c WHERE c."bucket_id" = p_bucket."bucket_id"))
$$`;

/**
 * Check and hold, all or nothing. Returns `{type, states}`: `refused` (some refusing check would pass
 * its limit: nothing held), `capacity_exhausted` (new sender-keyed buckets past the cap, counted under
 * an advisory lock taken after the row locks) or `reserved` (holds placed, buckets touched). `states`
 * are the buckets as every check saw them: refreshed, without this reservation's own holds.
 */
const RESERVE = `
CREATE FUNCTION "helios_limit_reserve"(p_reservation text,
  p_ids text[], p_family text[], p_epoch int[], p_key text[], p_window_type text[], p_window_ms bigint[],
  p_sender boolean[], p_check_ids text[], p_amounts numeric[], p_limits numeric[], p_refuse boolean[],
  p_hold_ids text[], p_hold_amounts numeric[], p_now bigint, p_expires bigint, p_max_sender int)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE states jsonb; refused boolean; fresh int; live int;
BEGIN
  PERFORM "helios_limit_lock"(p_ids, p_family, p_epoch, p_key, p_window_type, p_window_ms, p_sender, p_now);
  PERFORM "helios_limit_refresh"(p_ids, p_window_type, p_window_ms, p_sender, p_now);
  WITH s AS (SELECT * FROM "helios_limit_states"(p_ids, p_now, p_reservation))
  SELECT (SELECT coalesce(jsonb_agg(jsonb_build_object(
      -- Numbers as text: money of any size, and bigints, survive the driver's JSON.parse exactly.
      'bucket_id', s."bucket_id", 'window_type', s."window_type", 'window_ms', s."window_ms"::text,
      'last_activity_ms', s."last_activity_ms"::text, 'charged', s."charged"::text,
      'oldest_ms', s."oldest_ms"::text, 'held', s."held"::text, 'live_hold', s."live_hold")), '[]'::jsonb) FROM s),
    coalesce(bool_or(c.refuse AND (
      "helios_limit_used"(s, p_now) + c.amount > c.lim)), false)
  INTO states, refused
  FROM unnest(p_check_ids, p_amounts, p_limits, p_refuse) AS c(id, amount, lim, refuse)
  JOIN s ON s."bucket_id" = c.id;
  IF refused THEN RETURN jsonb_build_object('type', 'refused', 'states', states); END IF;
  SELECT count(*) INTO fresh FROM "limit_buckets" b
  WHERE b."bucket_id" = ANY(p_ids) AND b."sender_scoped" AND NOT "helios_limit_live"(b, p_now);
  IF fresh > 0 THEN
    PERFORM pg_advisory_xact_lock(4711000002);
    SELECT count(*) INTO live FROM "limit_buckets" b WHERE b."sender_scoped" AND "helios_limit_live"(b, p_now);
    IF live + fresh > p_max_sender THEN RETURN jsonb_build_object('type', 'capacity_exhausted'); END IF;
  END IF;
  INSERT INTO "limit_holds" ("reservation_id", "bucket_id", "amount", "expires_at_ms")
  SELECT p_reservation, t.id, t.amount, p_expires FROM unnest(p_hold_ids, p_hold_amounts) AS t(id, amount)
  ON CONFLICT ("reservation_id", "bucket_id") DO UPDATE
    SET "amount" = EXCLUDED."amount", "expires_at_ms" = EXCLUDED."expires_at_ms";
  UPDATE "limit_buckets" SET "last_activity_ms" = p_now WHERE "bucket_id" = ANY(p_ids);
  RETURN jsonb_build_object('type', 'reserved', 'states', states);
END $$`;

/**
 * Converts a reservation's holds into charges once. The latch row first: a concurrent or retried commit
 * of the same reservation waits on it, then answers the first commit's snapshots. Snapshots are taken
 * after the charges (`used` includes them; `allowed` = still within the limit) and kept on the latch.
 */
const COMMIT = `
CREATE FUNCTION "helios_limit_commit"(p_reservation text,
  p_ids text[], p_family text[], p_epoch int[], p_key text[], p_window_type text[], p_window_ms bigint[],
  p_sender boolean[], p_charge_ids text[], p_amounts numeric[], p_limits numeric[],
  p_ledger_budget text[], p_ledger_epoch int[], p_ledger_key text[], p_ledger_kind text[],
  p_ledger_amount numeric[], p_ledger_currency text[], p_tool text, p_origin text, p_audit_record text,
  p_now bigint)
RETURNS jsonb LANGUAGE plpgsql AS $$
DECLARE latched boolean; answer jsonb;
BEGIN
  INSERT INTO "limit_commits" ("reservation_id", "committed_at_ms") VALUES (p_reservation, p_now)
  ON CONFLICT ("reservation_id") DO NOTHING RETURNING true INTO latched;
  IF latched IS NULL THEN
    SELECT coalesce(lc."snapshots", '[]'::jsonb) INTO answer FROM "limit_commits" lc
    WHERE lc."reservation_id" = p_reservation;
    RETURN answer;
  END IF;
  IF cardinality(p_ids) > 0 THEN
    PERFORM "helios_limit_lock"(p_ids, p_family, p_epoch, p_key, p_window_type, p_window_ms, p_sender, p_now);
    -- Refreshed while this call's own holds still count as live: a session pot they kept alive up to
    -- this instant is not over, and the commit is its activity.
    PERFORM "helios_limit_refresh"(p_ids, p_window_type, p_window_ms, p_sender, p_now);
    UPDATE "limit_buckets" SET "last_activity_ms" = p_now WHERE "bucket_id" = ANY(p_ids);
  END IF;
  DELETE FROM "limit_holds" WHERE "reservation_id" = p_reservation;
  INSERT INTO "limit_charges" ("bucket_id", "reservation_id", "amount", "at_ms")
  SELECT t.id, p_reservation, t.amount, p_now FROM unnest(p_charge_ids, p_amounts) AS t(id, amount);
  INSERT INTO "budget_events" ("budget_name", "epoch", "bucket_key", "kind", "amount", "currency", "tool_name",
                               "origin", "audit_record_id", "timestamp_ms")
  SELECT n, e, k, kind, a, cur, p_tool, p_origin, p_audit_record, p_now
  FROM unnest(p_ledger_budget, p_ledger_epoch, p_ledger_key, p_ledger_kind, p_ledger_amount, p_ledger_currency)
    AS t(n, e, k, kind, a, cur);
  WITH s AS (SELECT * FROM "helios_limit_states"(p_ids, p_now, NULL)),
  used AS (
    SELECT c.ord, c.lim, s."window_type", s."window_ms", s."oldest_ms",
      "helios_limit_used"(s, p_now) AS used
    FROM unnest(p_charge_ids, p_limits) WITH ORDINALITY AS c(id, lim, ord) JOIN s ON s."bucket_id" = c.id)
  SELECT coalesce(jsonb_agg(jsonb_build_object(
      'used', used.used::text,
      'allowed', used.used <= used.lim,
      'resetAtMs', CASE WHEN used."window_type" = 'sliding' THEN coalesce(used."oldest_ms", p_now) + used."window_ms" END)
    ORDER BY used.ord), '[]'::jsonb)
  INTO answer FROM used;
  UPDATE "limit_commits" SET "snapshots" = answer WHERE "reservation_id" = p_reservation;
  RETURN answer;
END $$`;

const FUNCTIONS = [
  'helios_limit_commit',
  'helios_limit_reserve',
  'helios_limit_live',
  'helios_limit_refresh',
  'helios_limit_lock',
  'helios_limit_used',
  'helios_limit_states',
];

export class LimitFunctions1765065600000 implements MigrationInterface {
  readonly name = 'LimitFunctions1765065600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const definition of [STATES, USED, LOCK, REFRESH, LIVE, RESERVE, COMMIT])
      await queryRunner.query(definition);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of FUNCTIONS) await queryRunner.query(`DROP FUNCTION "${name}"`);
  }
}
