import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Durable state of the governance engine, so the adapter API survives a crash and several API processes
 * can share one database:
 * - limit buckets, holds and charges: the one counter behind rule rate/spend limits and budgets.
 *   `reserve` locks a call's bucket rows (sorted, FOR UPDATE), sums charges in the window plus other
 *   calls' live holds and inserts its holds in the same transaction; `limit_commits` makes a commit
 *   idempotent per reservation id.
 * - the budget ledger (`budget_events`, history of every budget charge) and `budget_meta` (the epoch of
 *   each budget's identity tuple; a new tuple starts a fresh pot).
 * - pending evaluations (written before /evaluate answers) with a backlog counter row that enforces the
 *   count and byte caps in one statement, and the tombstones that make /audit replays idempotent.
 * - approval tickets, resolved by compare-and-set.
 * Money and counters are bigint (micro-units), never floating point. Times the service passes in are
 * epoch milliseconds (`*_ms`), because the service's clock — not the database's — defines windows.
 */
export class GovernanceStores1764633600000 implements MigrationInterface {
  readonly name = 'GovernanceStores1764633600000';

  async up(queryRunner: QueryRunner): Promise<void> {
    // bucket_id = family|epoch|key: family and epoch hold no '|', so the id is unambiguous.
    await queryRunner.query(`
      CREATE TABLE "limit_buckets" (
        "bucket_id" text PRIMARY KEY,
        "family" text NOT NULL CHECK ("family" IN ('rate', 'spend', 'budget')),
        "epoch" integer NOT NULL CHECK ("epoch" >= 0),
        "bucket_key" text NOT NULL,
        "window_type" text NOT NULL CHECK ("window_type" IN ('sliding', 'session')),
        "window_ms" bigint NOT NULL CHECK ("window_ms" >= 0),
        "sender_scoped" boolean NOT NULL,
        "last_activity_ms" bigint NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    // The sender-key capacity check scans only sender-scoped buckets.
    await queryRunner.query(
      `CREATE INDEX "limit_buckets_sender_scoped" ON "limit_buckets" ("bucket_id") WHERE "sender_scoped"`,
    );
    await queryRunner.query(`
      CREATE TABLE "limit_holds" (
        "reservation_id" text NOT NULL,
        "bucket_id" text NOT NULL REFERENCES "limit_buckets" ("bucket_id") ON DELETE CASCADE,
        "amount" bigint NOT NULL CHECK ("amount" >= 0),
        "expires_at_ms" bigint NOT NULL,
        PRIMARY KEY ("reservation_id", "bucket_id")
      )`);
    await queryRunner.query(
      `CREATE INDEX "limit_holds_bucket_expiry" ON "limit_holds" ("bucket_id", "expires_at_ms")`,
    );
    await queryRunner.query(`
      CREATE TABLE "limit_charges" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "bucket_id" text NOT NULL REFERENCES "limit_buckets" ("bucket_id") ON DELETE CASCADE,
        "reservation_id" text NOT NULL,
        "amount" bigint NOT NULL CHECK ("amount" >= 0),
        "at_ms" bigint NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX "limit_charges_bucket_at" ON "limit_charges" ("bucket_id", "at_ms") INCLUDE ("amount")`,
    );
    await queryRunner.query(`CREATE INDEX "limit_charges_at" ON "limit_charges" ("at_ms")`);
    await queryRunner.query(`
      CREATE TABLE "limit_commits" (
        "reservation_id" text PRIMARY KEY,
        "snapshots" jsonb,
        "committed_at_ms" bigint NOT NULL
      )`);
    await queryRunner.query(
      `CREATE INDEX "limit_commits_committed_at" ON "limit_commits" ("committed_at_ms")`,
    );

    await queryRunner.query(`
      CREATE TABLE "budget_meta" (
        "budget_name" text PRIMARY KEY,
        "identity" text NOT NULL,
        "epoch" integer NOT NULL CHECK ("epoch" >= 1),
        "updated_at" timestamptz NOT NULL DEFAULT now()
      )`);
    // audit_record_id has no foreign key: the ledger row is written at commit, its record may follow.
    await queryRunner.query(`
      CREATE TABLE "budget_events" (
        "id" bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
        "budget_name" text NOT NULL,
        "epoch" integer NOT NULL CHECK ("epoch" >= 0),
        "bucket_key" text NOT NULL,
        "kind" text NOT NULL CHECK ("kind" IN ('spend', 'approved_overage')),
        "amount" bigint NOT NULL CHECK ("amount" >= 0),
        "currency" text NOT NULL,
        "tool_name" text NOT NULL,
        "origin" text NOT NULL,
        "audit_record_id" text NOT NULL,
        "timestamp_ms" bigint NOT NULL,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX "budget_events_pot" ON "budget_events" ("budget_name", "epoch", "bucket_key", "timestamp_ms")`,
    );
    await queryRunner.query(`CREATE INDEX "budget_events_timestamp_ms" ON "budget_events" ("timestamp_ms")`);

    // seq orders due() oldest first across processes; payload is the entry minus its commit latch.
    await queryRunner.query(`
      CREATE TABLE "pending_evaluations" (
        "evaluation_id" text PRIMARY KEY,
        "seq" bigint GENERATED ALWAYS AS IDENTITY UNIQUE,
        "payload" jsonb NOT NULL,
        "bytes" integer NOT NULL CHECK ("bytes" >= 0),
        "created_at_ms" bigint NOT NULL,
        "expires_at_ms" bigint NOT NULL,
        "commit_latch" jsonb,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX "pending_evaluations_expires_at" ON "pending_evaluations" ("expires_at_ms")`,
    );
    // One row: the backlog's count and bytes, updated in the same statement as each admit/finalize.
    await queryRunner.query(`
      CREATE TABLE "pending_backlog" (
        "singleton" boolean PRIMARY KEY DEFAULT true CHECK ("singleton"),
        "count" integer NOT NULL CHECK ("count" >= 0),
        "bytes" bigint NOT NULL CHECK ("bytes" >= 0)
      )`);
    await queryRunner.query(`INSERT INTO "pending_backlog" ("count", "bytes") VALUES (0, 0)`);
    await queryRunner.query(`
      CREATE TABLE "evaluation_tombstones" (
        "evaluation_id" text PRIMARY KEY,
        "audit_record_id" text NOT NULL,
        "finalized_by" text NOT NULL CHECK ("finalized_by" IN ('evaluate', 'audit', 'expired')),
        "payload_hash" text,
        "expires_at_ms" bigint NOT NULL,
        -- The audit record the finalization wrote (write-ahead): written to audit_records at recovery
        -- if the sink's buffer died with the process.
        "record" jsonb
      )`);
    await queryRunner.query(
      `CREATE INDEX "evaluation_tombstones_expires_at" ON "evaluation_tombstones" ("expires_at_ms")`,
    );

    await queryRunner.query(`
      CREATE TABLE "approval_tickets" (
        "id" text PRIMARY KEY,
        "evaluation_id" text,
        "channel_name" text NOT NULL,
        "tool_name" text NOT NULL,
        "tool_input" jsonb NOT NULL,
        "matched_rule" text,
        "rule_index" integer,
        "session_id" text,
        "requested_at_ms" bigint NOT NULL,
        "timeout_at_ms" bigint NOT NULL,
        "timeout_ms" bigint NOT NULL,
        "status" text NOT NULL CHECK ("status" IN ('pending', 'approved', 'denied', 'timeout', 'cancelled',
          'break_glass', 'client_disconnected', 'shutdown_cancelled')),
        "breached_budgets" jsonb,
        "resolved_at_ms" bigint,
        "resolved_by" text,
        "denial_reason" text,
        "created_at" timestamptz NOT NULL DEFAULT now()
      )`);
    await queryRunner.query(
      `CREATE INDEX "approval_tickets_evaluation_id" ON "approval_tickets" ("evaluation_id")`,
    );
    await queryRunner.query(
      `CREATE INDEX "approval_tickets_requested_at" ON "approval_tickets" ("requested_at_ms")`,
    );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of [
      'approval_tickets',
      'evaluation_tombstones',
      'pending_backlog',
      'pending_evaluations',
      'budget_events',
      'budget_meta',
      'limit_commits',
      'limit_charges',
      'limit_holds',
      'limit_buckets',
    ]) {
      await queryRunner.query(`DROP TABLE "${table}"`);
    }
  }
}
