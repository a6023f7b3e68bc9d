import { type MigrationInterface, type QueryRunner } from 'typeorm';
import { LimitFunctions1765065600000 } from './1765065600000-limit-functions.js';

/**
 * Limit checks in O(1) of the window's fill, decided in batches.
 *
 * Running sums: each bucket row carries `charged`/`charge_count` (its charge rows) and `held`/`hold_count`
 * (its hold rows), with `oldest_ms` (its oldest charge) and `hold_expiry_ms` (no hold expires earlier).
 * Every transaction that inserts or deletes such a row adjusts them, so the sums are always the rows'
 * sums; a charge is added once and retired once (deleted through the `(bucket_id, at_ms)` index when it
 * leaves the window), a hold likewise through `(bucket_id, expires_at_ms)`, and only when the row says
 * one is due. A check reads the row, never the window. `live_until_ms` is the instant the bucket stops
 * being live (no unexpired hold, no counting charge); the sender-key capacity counts live sender-scoped
 * buckets through a partial index on it instead of testing every sender bucket.
 *
 * Batches: `helios_limit_apply` takes many reservations and commits at once — the group commit of the
 * store's statement batcher — locks the union of their buckets once, in id order, brings them up to
 * date once, then decides each in arrival order against running in-memory sums, exactly as a serial
 * order of single calls would, and writes the result in a few set-based statements.
 * One round trip, one transaction and one WAL flush for the batch; no lock is held across the network.
 */
const LIVE_UNTIL = `
CREATE FUNCTION "helios_limit_live_until"(p_bucket "limit_buckets")
RETURNS bigint LANGUAGE sql STABLE AS $$
  SELECT greatest(
    CASE WHEN p_bucket."hold_count" > 0 THEN
      (SELECT max(h."expires_at_ms") FROM "limit_holds" h WHERE h."bucket_id" = p_bucket."bucket_id") END,
    CASE WHEN p_bucket."charge_count" > 0 THEN
      CASE WHEN p_bucket."window_type" = 'sliding'
        THEN (SELECT max(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = p_bucket."bucket_id") + p_bucket."window_ms"
        -- A session pot with charges is live while not idle: now - last_activity <= ttl.
        ELSE p_bucket."last_activity_ms" + p_bucket."window_ms" + 1 END END,
    0)
$$`;

/**
 * A read-only snapshot of buckets (peek): the row's sums less what expired since the row was last
 * brought up to date — only the rows between its retirement point and now, never the window.
 */
export const STATES = `
CREATE FUNCTION "helios_limit_states"(p_ids text[], p_now bigint)
RETURNS TABLE ("bucket_id" text, "window_type" text, "window_ms" bigint, "last_activity_ms" bigint,
               "charged" numeric, "oldest_ms" bigint, "held" numeric, "live_hold" boolean)
LANGUAGE sql STABLE AS $$
  SELECT b."bucket_id", b."window_type", b."window_ms", b."last_activity_ms",
    b."charged" - CASE WHEN b."window_type" = 'sliding' AND b."oldest_ms" <= p_now - b."window_ms" THEN coalesce(
      (SELECT sum(c."amount") FROM "limit_charges" c
       WHERE c."bucket_id" = b."bucket_id" AND c."at_ms" <= p_now - b."window_ms"), 0) ELSE 0 END,
    CASE WHEN b."window_type" = 'sliding' THEN
      CASE WHEN b."oldest_ms" > p_now - b."window_ms" THEN b."oldest_ms"
           ELSE (SELECT min(c."at_ms") FROM "limit_charges" c
                 WHERE c."bucket_id" = b."bucket_id" AND c."at_ms" > p_now - b."window_ms") END END,
    b."held" - CASE WHEN b."hold_expiry_ms" <= p_now THEN coalesce(
      (SELECT sum(h."amount") FROM "limit_holds" h
       WHERE h."bucket_id" = b."bucket_id" AND h."expires_at_ms" <= p_now), 0) ELSE 0 END,
    CASE WHEN b."hold_count" = 0 THEN false WHEN b."hold_expiry_ms" > p_now THEN true
         ELSE EXISTS (SELECT 1 FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id" AND h."expires_at_ms" > p_now) END
  FROM "limit_buckets" b WHERE b."bucket_id" = ANY(p_ids)
$$`;

/**
 * Locks a batch's buckets and brings them up to date in memory, for the caller to decide against and
 * write back in one statement. `p_ids` (created when missing, with their windows) come first in the
 * returned arrays, then those of `p_extra` that still exist (rows that must exist already). Locks are
 * taken in id order. Then, statements only where the row says there is something to do: a bucket whose
 * window was reconfigured starts over; expired holds retire (`hold_expiry_ms`, the earliest expiry, is
 * due); an idle session pot with nothing held forgets its charges; charges that left a sliding window
 * (`oldest_ms` is past it) retire. Each retired row is deleted once and its amount subtracted; `o_dirty`
 * marks the buckets whose row must be written back.
 */
export const PREPARE = `
CREATE FUNCTION "helios_limit_prepare"(p_ids text[], p_family text[], p_epoch int[], p_key text[],
  p_window_type text[], p_window_ms bigint[], p_sender boolean[], p_extra text[], p_now bigint,
  OUT o_ids text[], OUT o_wtype text[], OUT o_wms bigint[], OUT o_sender boolean[], OUT o_charged numeric[],
  OUT o_count bigint[], OUT o_held numeric[], OUT o_hold_count int[], OUT o_last bigint[], OUT o_oldest bigint[],
  OUT o_expiry bigint[], OUT o_live bigint[], OUT o_dirty boolean[])
LANGUAGE plpgsql
-- Plans made once per connection (planning each statement of every call cost more than running it),
-- and by index: a scan chosen while a table is small or full of dead rows would stay in that plan.
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  n int := cardinality(p_ids); found bigint; changed text[] := '{}'; due text[] := '{}'; idle text[] := '{}';
  aged text[] := '{}'; cut bigint[] := '{}'; g_ids text[]; g_sum numeric[]; g_n bigint[]; g_next bigint[]; k int;
BEGIN
  o_ids := p_ids || ARRAY(SELECT e FROM unnest(p_extra) AS e WHERE NOT e = ANY(p_ids) ORDER BY e);
  FOR attempt IN 1..3 LOOP
    SELECT count(*), array_agg(b."window_type" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."window_ms" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."sender_scoped" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."charged" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."charge_count" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."held" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."hold_count" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."last_activity_ms" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."oldest_ms" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."hold_expiry_ms" ORDER BY array_position(o_ids, b."bucket_id")),
      array_agg(b."live_until_ms" ORDER BY array_position(o_ids, b."bucket_id"))
    INTO found, o_wtype, o_wms, o_sender, o_charged, o_count, o_held, o_hold_count, o_last, o_oldest, o_expiry, o_live
    FROM (SELECT * FROM "limit_buckets" WHERE "bucket_id" = ANY(o_ids) ORDER BY "bucket_id" FOR UPDATE) AS b;
    EXIT WHEN found = cardinality(o_ids);
    IF attempt = 3 THEN RAISE EXCEPTION 'limit buckets vanished while being locked three times in a row'; END IF;
    INSERT INTO "limit_buckets" ("bucket_id", "family", "epoch", "bucket_key", "window_type", "window_ms",
                                 "sender_scoped", "last_activity_ms")
    SELECT t.*, p_now FROM unnest(p_ids, p_family, p_epoch, p_key, p_window_type, p_window_ms, p_sender) AS t
    ORDER BY 1 ON CONFLICT ("bucket_id") DO NOTHING;
    -- An extra row that vanished took its holds with it (ON DELETE CASCADE): nothing left to settle there.
    o_ids := p_ids || ARRAY(SELECT b."bucket_id" FROM "limit_buckets" b
                            WHERE b."bucket_id" = ANY(o_ids[n + 1:]) ORDER BY b."bucket_id");
  END LOOP;
  o_dirty := array_fill(false, ARRAY[cardinality(o_ids)]);
  FOR k IN 1..n LOOP
    IF o_wtype[k] <> p_window_type[k] OR o_wms[k] <> p_window_ms[k] THEN
      changed := changed || o_ids[k];
      o_wtype[k] := p_window_type[k]; o_wms[k] := p_window_ms[k]; o_sender[k] := p_sender[k];
      o_charged[k] := 0; o_count[k] := 0; o_held[k] := 0; o_hold_count[k] := 0; o_last[k] := p_now;
      o_oldest[k] := NULL; o_expiry[k] := NULL; o_live[k] := 0; o_dirty[k] := true;
    END IF;
  END LOOP;
  IF cardinality(changed) > 0 THEN
    DELETE FROM "limit_charges" WHERE "bucket_id" = ANY(changed);
    DELETE FROM "limit_holds" WHERE "bucket_id" = ANY(changed);
  END IF;
  FOR k IN 1..cardinality(o_ids) LOOP
    IF o_expiry[k] <= p_now THEN due := due || o_ids[k]; END IF;
  END LOOP;
  IF cardinality(due) > 0 THEN
    WITH gone AS (
      DELETE FROM "limit_holds" WHERE "bucket_id" = ANY(due) AND "expires_at_ms" <= p_now
      RETURNING "bucket_id", "amount"),
    g AS (SELECT "bucket_id", sum("amount") AS s, count(*) AS c FROM gone GROUP BY "bucket_id")
    SELECT array_agg(d), array_agg(coalesce(g.s, 0)), array_agg(coalesce(g.c, 0)),
      array_agg((SELECT min(h."expires_at_ms") FROM "limit_holds" h WHERE h."bucket_id" = d AND h."expires_at_ms" > p_now))
    INTO g_ids, g_sum, g_n, g_next FROM unnest(due) AS d LEFT JOIN g ON g."bucket_id" = d;
    FOR i IN 1..cardinality(g_ids) LOOP
      k := array_position(o_ids, g_ids[i]);
      o_held[k] := o_held[k] - g_sum[i]; o_hold_count[k] := o_hold_count[k] - g_n[i];
      o_expiry[k] := g_next[i]; o_dirty[k] := true;
    END LOOP;
  END IF;
  FOR k IN 1..cardinality(o_ids) LOOP
    IF o_wtype[k] = 'session' AND o_count[k] > 0 AND o_hold_count[k] = 0 AND p_now - o_last[k] > o_wms[k] THEN
      idle := idle || o_ids[k];
      o_charged[k] := 0; o_count[k] := 0; o_oldest[k] := NULL; o_dirty[k] := true;
    ELSIF o_wtype[k] = 'sliding' AND o_oldest[k] <= p_now - o_wms[k] THEN
      aged := aged || o_ids[k]; cut := cut || (p_now - o_wms[k]);
    END IF;
  END LOOP;
  IF cardinality(idle) > 0 THEN DELETE FROM "limit_charges" WHERE "bucket_id" = ANY(idle); END IF;
  IF cardinality(aged) > 0 THEN
    WITH gone AS (
      DELETE FROM "limit_charges" c USING unnest(aged, cut) AS a(id, cut)
      WHERE c."bucket_id" = a.id AND c."at_ms" <= a.cut RETURNING c."bucket_id", c."amount"),
    g AS (SELECT "bucket_id", sum("amount") AS s, count(*) AS c FROM gone GROUP BY "bucket_id")
    SELECT array_agg(a.id), array_agg(coalesce(g.s, 0)), array_agg(coalesce(g.c, 0)),
      array_agg((SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = a.id AND c."at_ms" > a.cut))
    INTO g_ids, g_sum, g_n, g_next FROM unnest(aged, cut) AS a(id, cut) LEFT JOIN g ON g."bucket_id" = a.id;
    FOR i IN 1..cardinality(g_ids) LOOP
      k := array_position(o_ids, g_ids[i]);
      o_charged[k] := o_charged[k] - g_sum[i]; o_count[k] := o_count[k] - g_n[i];
      o_oldest[k] := g_next[i]; o_dirty[k] := true;
    END LOOP;
  END IF;
  FOR k IN 1..cardinality(o_ids) LOOP
    -- Nothing left: not live (retirement never moves live_until_ms otherwise; what it removed was not live).
    IF o_dirty[k] AND o_count[k] = 0 AND o_hold_count[k] = 0 THEN o_live[k] := 0; END IF;
  END LOOP;
END $$`;

/**
 * Applies a batch of operations in arrival order: reservations (`r`: check and hold) and commits (`c`:
 * holds become charges), as the store's batcher collected them — one statement, one transaction.
 * Operation i's items (a reservation's checks, a commit's charges) are
 * `p_item_*[p_op_end[i-1]+1 .. p_op_end[i]]`, each naming its bucket by its index in `p_ids`; a commit's
 * ledger rows name their item by index.
 *
 * A reservation is all or nothing: `refused` (some refusing check would pass its limit),
 * `capacity_exhausted` (new sender-keyed buckets past the cap, counted under an advisory lock taken
 * after the row locks) or `reserved`. For every check it returns what the check saw: `used` (counting
 * charges plus other calls' live holds, those of earlier operations of the batch included) and the
 * oldest counting charge.
 *
 * A commit turns its reservation's holds into charges once, and writes its pending evaluation's commit
 * latch (`p_op_latch_id`, `p_op_latch`) in the same transaction. The latch rows come first (sorted, so two
 * batches never wait on each other's latches in a cycle): a commit already latched — retried, or
 * concurrent in another batch — answers the first commit's snapshots (`r_snapshots`). Each snapshot is
 * taken right after its charge, as a serial order would see it.
 *
 * Everything is decided against the buckets' running sums in memory, then holds, charges, ledger rows,
 * snapshots and the buckets' new sums are written in one statement at the end.
 */
export const APPLY = `
CREATE FUNCTION "helios_limit_apply"(
  p_ids text[], p_family text[], p_epoch int[], p_key text[], p_window_type text[], p_window_ms bigint[],
  p_sender boolean[], p_op_kind text[], p_op_res text[], p_op_end int[], p_op_expires bigint[],
  p_op_max_sender int[], p_op_tool text[], p_op_origin text[], p_op_audit text[], p_op_latch_id text[],
  p_op_latch jsonb[], p_item_bucket int[], p_amounts numeric[], p_limits numeric[], p_refuse boolean[],
  p_ledger_item int[], p_ledger_budget text[], p_ledger_kind text[], p_ledger_currency text[], p_now bigint)
RETURNS TABLE ("r_ord" int, "r_outcome" text, "r_used" text[], "r_oldest" bigint[], "r_snapshots" jsonb)
LANGUAGE plpgsql
-- Plans made once per connection (planning each statement of every call cost more than running it),
-- and by index: a scan chosen while a table is small or full of dead rows would stay in that plan.
SET plan_cache_mode = force_generic_plan SET enable_seqscan = off AS $$
DECLARE
  v_ids text[]; v_wtype text[]; v_wms bigint[]; v_sender boolean[]; v_charged numeric[]; v_count bigint[];
  v_held numeric[]; v_hold_count int[]; v_last bigint[]; v_oldest bigint[]; v_expiry bigint[]; v_live bigint[];
  v_dirty boolean[]; recount boolean[]; active boolean[]; placed_until bigint[];
  commits text[]; latched text[] := '{}'; hold_ids text[] := '{}'; own_keys text[]; own_amounts numeric[];
  d_op int[]; d_bucket int[]; d_amount numeric[]; p int := 1;
  h_res text[] := '{}'; h_bucket text[] := '{}'; h_amount numeric[] := '{}'; h_expires bigint[] := '{}';
  c_item int[] := '{}'; c_op int[] := '{}'; snap_ids text[] := '{}'; snaps jsonb[] := '{}';
  l_ids text[] := '{}'; l_values jsonb[] := '{}';
  live_total bigint; made_live int := 0; v_first int := 1; k int; pos int; own numeric; v_used numeric;
  refused boolean; fresh int[]; placed int[]; uses text[]; olds bigint[]; snap jsonb;
BEGIN
  commits := ARRAY(SELECT r FROM unnest(p_op_kind, p_op_res) AS o(kind, r) WHERE o.kind = 'c');
  IF cardinality(commits) > 0 THEN
    WITH ins AS (
      INSERT INTO "limit_commits" ("reservation_id", "committed_at_ms")
      SELECT r, p_now FROM unnest(commits) AS r ORDER BY r
      ON CONFLICT ("reservation_id") DO NOTHING RETURNING "reservation_id")
    SELECT (SELECT coalesce(array_agg("reservation_id"), '{}') FROM ins),
      (SELECT coalesce(array_agg(DISTINCT h."bucket_id"), '{}') FROM "limit_holds" h
       WHERE h."reservation_id" IN (SELECT "reservation_id" FROM ins))
    INTO latched, hold_ids;
  END IF;
  -- Brought up to date while committing reservations' own holds still count as live: a session pot
  -- they kept alive up to this instant is not over, and the commit is its activity.
  SELECT * INTO v_ids, v_wtype, v_wms, v_sender, v_charged, v_count, v_held, v_hold_count, v_last, v_oldest,
    v_expiry, v_live, v_dirty
  FROM "helios_limit_prepare"(p_ids, p_family, p_epoch, p_key, p_window_type, p_window_ms, p_sender, hold_ids,
                              p_now);
  recount := array_fill(false, ARRAY[cardinality(v_ids)]);
  active := recount;
  placed_until := array_fill(0::bigint, ARRAY[cardinality(v_ids)]);
  -- A retried reservation replaces its own holds, so they do not count against it.
  SELECT array_agg(h."reservation_id" || chr(31) || h."bucket_id"), array_agg(h."amount")
  INTO own_keys, own_amounts FROM "limit_holds" h
  WHERE h."reservation_id" = ANY(ARRAY(SELECT r FROM unnest(p_op_kind, p_op_res) AS o(kind, r) WHERE o.kind = 'r'));
  IF cardinality(latched) > 0 THEN
    WITH gone AS (
      DELETE FROM "limit_holds" WHERE "reservation_id" = ANY(latched)
      RETURNING "reservation_id", "bucket_id", "amount")
    SELECT array_agg(array_position(p_op_res, g."reservation_id") ORDER BY array_position(p_op_res, g."reservation_id")),
      array_agg(array_position(v_ids, g."bucket_id") ORDER BY array_position(p_op_res, g."reservation_id")),
      array_agg(g."amount" ORDER BY array_position(p_op_res, g."reservation_id"))
    INTO d_op, d_bucket, d_amount FROM gone g;
  END IF;
  FOR i IN 1..cardinality(p_op_res) LOOP
    r_ord := i; r_outcome := NULL; r_used := NULL; r_oldest := NULL; r_snapshots := NULL;
    IF p_op_kind[i] = 'r' THEN
      refused := false; uses := '{}'; olds := '{}'; fresh := '{}'; placed := '{}';
      FOR j IN v_first..p_op_end[i] LOOP
        k := p_item_bucket[j];
        own := 0;
        IF own_keys IS NOT NULL THEN
          pos := array_position(own_keys, p_op_res[i] || chr(31) || p_ids[k]);
          IF pos IS NOT NULL THEN own := own_amounts[pos]; END IF;
        END IF;
        v_used := v_charged[k] + v_held[k] - own;
        uses := uses || v_used::text;
        olds := olds || v_oldest[k];
        IF p_refuse[j] AND v_used + p_amounts[j] > p_limits[j] THEN refused := true; END IF;
        IF v_sender[k] AND NOT v_live[k] > p_now AND NOT k = ANY(fresh) THEN fresh := fresh || k; END IF;
      END LOOP;
      r_used := uses; r_oldest := olds;
      IF refused THEN
        r_outcome := 'refused';
      ELSE
        IF cardinality(fresh) > 0 AND live_total IS NULL THEN
          PERFORM pg_advisory_xact_lock(4711000002);
          SELECT count(*) + made_live INTO live_total FROM "limit_buckets" lb
          WHERE lb."sender_scoped" AND lb."live_until_ms" > p_now;
        END IF;
        IF cardinality(fresh) > 0 AND live_total + cardinality(fresh) > p_op_max_sender[i] THEN
          r_outcome := 'capacity_exhausted'; r_used := NULL; r_oldest := NULL;
        ELSE
          r_outcome := 'reserved';
          FOR j IN v_first..p_op_end[i] LOOP
            k := p_item_bucket[j];
            IF NOT k = ANY(placed) THEN
              placed := placed || k;
              pos := CASE WHEN own_keys IS NULL THEN NULL
                          ELSE array_position(own_keys, p_op_res[i] || chr(31) || p_ids[k]) END;
              IF pos IS NULL THEN v_hold_count[k] := v_hold_count[k] + 1;
              ELSE v_held[k] := v_held[k] - own_amounts[pos]; END IF;
            END IF;
            IF v_sender[k] AND NOT v_live[k] > p_now AND p_op_expires[i] > p_now THEN
              made_live := made_live + 1;
              IF live_total IS NOT NULL THEN live_total := live_total + 1; END IF;
            END IF;
            v_held[k] := v_held[k] + p_amounts[j];
            v_last[k] := p_now;
            v_expiry[k] := least(v_expiry[k], p_op_expires[i]);
            placed_until[k] := greatest(placed_until[k], p_op_expires[i]);
            v_live[k] := greatest(v_live[k], p_op_expires[i],
              CASE WHEN v_wtype[k] = 'session' AND v_count[k] > 0 THEN p_now + v_wms[k] + 1 END);
            v_dirty[k] := true;
            h_res := h_res || p_op_res[i]; h_bucket := h_bucket || p_ids[k];
            h_amount := h_amount || p_amounts[j]; h_expires := h_expires || p_op_expires[i];
          END LOOP;
        END IF;
      END IF;
      RETURN NEXT;
    ELSIF p_op_res[i] = ANY(latched) THEN
      WHILE p <= coalesce(cardinality(d_op), 0) AND d_op[p] = i LOOP
        k := d_bucket[p];
        IF k IS NOT NULL THEN
          v_held[k] := v_held[k] - d_amount[p]; v_hold_count[k] := v_hold_count[k] - 1;
          v_dirty[k] := true; recount[k] := true;
        END IF;
        p := p + 1;
      END LOOP;
      snap := '[]';
      FOR j IN v_first..p_op_end[i] LOOP
        k := p_item_bucket[j];
        v_charged[k] := v_charged[k] + p_amounts[j]; v_count[k] := v_count[k] + 1;
        v_last[k] := p_now; v_oldest[k] := coalesce(v_oldest[k], p_now);
        v_live[k] := greatest(v_live[k], p_now + v_wms[k] + CASE WHEN v_wtype[k] = 'session' THEN 1 ELSE 0 END);
        v_dirty[k] := true; active[k] := true;
        v_used := v_charged[k] + v_held[k];
        snap := snap || jsonb_build_object('used', v_used::text, 'allowed', v_used <= p_limits[j],
          'resetAtMs', CASE WHEN v_wtype[k] = 'sliding' THEN v_oldest[k] + v_wms[k] END);
        c_item := c_item || j; c_op := c_op || i;
      END LOOP;
      snap_ids := snap_ids || p_op_res[i]; snaps := snaps || snap;
      IF p_op_latch_id[i] IS NOT NULL THEN
        l_ids := l_ids || p_op_latch_id[i]; l_values := l_values || p_op_latch[i];
      END IF;
      r_outcome := 'committed'; r_snapshots := snap;
      RETURN NEXT;
    END IF;
    v_first := p_op_end[i] + 1;
  END LOOP;
  WITH placed_holds AS (
    INSERT INTO "limit_holds" ("reservation_id", "bucket_id", "amount", "expires_at_ms")
    SELECT r, hb, sum(a), max(e) FROM unnest(h_res, h_bucket, h_amount, h_expires) AS t(r, hb, a, e)
    GROUP BY r, hb ORDER BY hb, r
    ON CONFLICT ("reservation_id", "bucket_id") DO UPDATE
      SET "amount" = EXCLUDED."amount", "expires_at_ms" = EXCLUDED."expires_at_ms"),
  charged AS (
    INSERT INTO "limit_charges" ("bucket_id", "reservation_id", "amount", "at_ms")
    SELECT p_ids[p_item_bucket[c.j]], p_op_res[c.o], p_amounts[c.j], p_now
    FROM unnest(c_item, c_op) WITH ORDINALITY AS c(j, o, ord) ORDER BY c.ord),
  ledger AS (
    INSERT INTO "budget_events" ("budget_name", "epoch", "bucket_key", "kind", "amount", "currency",
                                 "tool_name", "origin", "audit_record_id", "timestamp_ms")
    SELECT l.budget, p_epoch[p_item_bucket[l.j]], p_key[p_item_bucket[l.j]], l.kind, p_amounts[l.j], l.cur,
      p_op_tool[c.o], p_op_origin[c.o], p_op_audit[c.o], p_now
    FROM unnest(p_ledger_item, p_ledger_budget, p_ledger_kind, p_ledger_currency) WITH ORDINALITY
      AS l(j, budget, kind, cur, ord)
    JOIN unnest(c_item, c_op) AS c(j, o) ON c.j = l.j ORDER BY l.ord),
  latches AS (
    UPDATE "limit_commits" lc SET "snapshots" = s.v FROM unnest(snap_ids, snaps) AS s(id, v)
    WHERE lc."reservation_id" = ANY(snap_ids) AND lc."reservation_id" = s.id),
  -- The pending evaluation's commit latch, durable exactly when its charges are (first commit only).
  pending_latches AS (
    UPDATE "pending_evaluations" pe SET "commit_latch" = l.v FROM unnest(l_ids, l_values) AS l(id, v)
    WHERE pe."evaluation_id" = ANY(l_ids) AND pe."evaluation_id" = l.id)
  UPDATE "limit_buckets" lb SET "window_type" = t.wtype, "window_ms" = t.wms, "sender_scoped" = t.sender,
    "charged" = t.charged, "charge_count" = t.n, "held" = t.held, "hold_count" = t.hn,
    "last_activity_ms" = t.last, "oldest_ms" = t.oldest, "hold_expiry_ms" = t.expiry,
    -- A dropped hold may end a sender bucket's liveness early: recomputed from the holds as the DELETE
    -- left them, plus what this statement adds (its holds and charges are invisible to its subqueries).
    "live_until_ms" = CASE WHEN NOT (t.recount AND t.sender) THEN t.live ELSE greatest(
      (SELECT max(h."expires_at_ms") FROM "limit_holds" h WHERE h."bucket_id" = t.id), t.placed,
      CASE WHEN t.n > 0 THEN CASE WHEN t.wtype = 'sliding'
        THEN greatest((SELECT max(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = t.id),
                      CASE WHEN t.active THEN p_now END) + t.wms
        ELSE t.last + t.wms + 1 END END, 0) END
  FROM unnest(v_ids, v_wtype, v_wms, v_sender, v_charged, v_count, v_held, v_hold_count, v_last, v_oldest,
              v_expiry, v_live, v_dirty, recount, active, placed_until)
    AS t(id, wtype, wms, sender, charged, n, held, hn, last, oldest, expiry, live, dirty, recount, active, placed)
  WHERE lb."bucket_id" = t.id AND t.dirty;
  RETURN QUERY
    SELECT u.ord::int, 'committed'::text, NULL::text[], NULL::bigint[], coalesce(lc."snapshots", '[]'::jsonb)
    FROM unnest(p_op_kind, p_op_res) WITH ORDINALITY AS u(kind, id, ord)
    JOIN "limit_commits" lc ON lc."reservation_id" = u.id
    WHERE u.kind = 'c' AND NOT u.id = ANY(latched);
END $$`;

/** Drops a reservation's holds (call not executed, or refused later in the flow), keeping the sums. */
export const RELEASE = `
CREATE FUNCTION "helios_limit_release"(p_reservation text)
RETURNS void LANGUAGE plpgsql AS $$
DECLARE ids text[];
BEGIN
  SELECT array_agg(DISTINCT "bucket_id") INTO ids FROM "limit_holds" WHERE "reservation_id" = p_reservation;
  IF ids IS NULL THEN RETURN; END IF;
  PERFORM 1 FROM "limit_buckets" WHERE "bucket_id" = ANY(ids) ORDER BY "bucket_id" FOR UPDATE;
  WITH gone AS (DELETE FROM "limit_holds" WHERE "reservation_id" = p_reservation RETURNING "bucket_id", "amount"),
  t AS (SELECT "bucket_id", sum("amount") AS s, count(*) AS n FROM gone GROUP BY "bucket_id")
  UPDATE "limit_buckets" b SET "held" = b."held" - t.s, "hold_count" = b."hold_count" - t.n
  FROM t WHERE b."bucket_id" = t."bucket_id";
  UPDATE "limit_buckets" b SET "live_until_ms" = "helios_limit_live_until"(b)
  WHERE b."bucket_id" = ANY(ids) AND b."sender_scoped";
END $$`;

/** Retention: deletes up to `p_limit` charges older than `p_cutoff`, keeping their buckets' sums. */
export const SWEEP = `
CREATE FUNCTION "helios_limit_sweep_charges"(p_cutoff bigint, p_limit int)
RETURNS int LANGUAGE plpgsql AS $$
DECLARE ids text[]; deleted int;
BEGIN
  SELECT array_agg(DISTINCT c."bucket_id") INTO ids
  FROM (SELECT "bucket_id" FROM "limit_charges" WHERE "at_ms" < p_cutoff LIMIT p_limit) AS c;
  IF ids IS NULL THEN RETURN 0; END IF;
  PERFORM 1 FROM "limit_buckets" WHERE "bucket_id" = ANY(ids) ORDER BY "bucket_id" FOR UPDATE;
  WITH gone AS (
    DELETE FROM "limit_charges" WHERE "id" IN (
      SELECT "id" FROM "limit_charges" WHERE "at_ms" < p_cutoff AND "bucket_id" = ANY(ids) LIMIT p_limit)
    RETURNING "bucket_id", "amount"),
  t AS (SELECT "bucket_id", sum("amount") AS s, count(*) AS n FROM gone GROUP BY "bucket_id"),
  up AS (UPDATE "limit_buckets" b SET "charged" = b."charged" - t.s, "charge_count" = b."charge_count" - t.n
         FROM t WHERE b."bucket_id" = t."bucket_id")
  SELECT coalesce(sum(t.n), 0) INTO deleted FROM t;
  UPDATE "limit_buckets" b
  SET "oldest_ms" = (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id")
  WHERE b."bucket_id" = ANY(ids);
  UPDATE "limit_buckets" b SET "live_until_ms" = "helios_limit_live_until"(b)
  WHERE b."bucket_id" = ANY(ids) AND b."sender_scoped";
  RETURN deleted;
END $$`;

const FUNCTIONS = [
  'helios_limit_sweep_charges',
  'helios_limit_release',
  'helios_limit_apply',
  'helios_limit_prepare',
  'helios_limit_states',
  'helios_limit_live_until',
];

export class LimitRunningSums1765152000000 implements MigrationInterface {
  readonly name = 'LimitRunningSums1765152000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await new LimitFunctions1765065600000().down(queryRunner);
    await queryRunner.query(`
      ALTER TABLE "limit_buckets"
        ADD COLUMN "charged" numeric NOT NULL DEFAULT 0 CONSTRAINT "limit_buckets_charged_check" CHECK ("charged" >= 0),
        ADD COLUMN "charge_count" bigint NOT NULL DEFAULT 0
          CONSTRAINT "limit_buckets_charge_count_check" CHECK ("charge_count" >= 0),
        ADD COLUMN "held" numeric NOT NULL DEFAULT 0 CONSTRAINT "limit_buckets_held_check" CHECK ("held" >= 0),
        ADD COLUMN "hold_count" integer NOT NULL DEFAULT 0
          CONSTRAINT "limit_buckets_hold_count_check" CHECK ("hold_count" >= 0),
        ADD COLUMN "oldest_ms" bigint,
        ADD COLUMN "hold_expiry_ms" bigint,
        ADD COLUMN "live_until_ms" bigint NOT NULL DEFAULT 0`);
    await queryRunner.query(`
      UPDATE "limit_buckets" b SET
        "charged" = coalesce((SELECT sum(c."amount") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"), 0),
        "charge_count" = (SELECT count(*) FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"),
        "held" = coalesce((SELECT sum(h."amount") FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id"), 0),
        "hold_count" = (SELECT count(*) FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id"),
        "oldest_ms" = (SELECT min(c."at_ms") FROM "limit_charges" c WHERE c."bucket_id" = b."bucket_id"),
        "hold_expiry_ms" = (SELECT min(h."expires_at_ms") FROM "limit_holds" h WHERE h."bucket_id" = b."bucket_id")`);
    await queryRunner.query(`DROP INDEX "limit_buckets_sender_scoped"`);
    // The sender-key capacity counts live sender-scoped buckets: an index range, not every sender bucket.
    await queryRunner.query(
      `CREATE INDEX "limit_buckets_sender_live" ON "limit_buckets" ("live_until_ms") WHERE "sender_scoped"`,
    );
    for (const definition of [LIVE_UNTIL, STATES, PREPARE, APPLY, RELEASE, SWEEP])
      await queryRunner.query(definition);
    await queryRunner.query(
      `UPDATE "limit_buckets" b SET "live_until_ms" = "helios_limit_live_until"(b) WHERE b."sender_scoped"`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const name of FUNCTIONS) await queryRunner.query(`DROP FUNCTION "${name}"`);
    await queryRunner.query(`DROP INDEX "limit_buckets_sender_live"`);
    await queryRunner.query(
      `CREATE INDEX "limit_buckets_sender_scoped" ON "limit_buckets" ("bucket_id") WHERE "sender_scoped"`,
    );
    await queryRunner.query(`
      ALTER TABLE "limit_buckets" DROP COLUMN "charged", DROP COLUMN "charge_count", DROP COLUMN "held",
        DROP COLUMN "hold_count", DROP COLUMN "oldest_ms", DROP COLUMN "hold_expiry_ms", DROP COLUMN "live_until_ms"`);
    await new LimitFunctions1765065600000().up(queryRunner);
  }
}
