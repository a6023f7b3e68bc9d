import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * The governance audit trail: the 29 columns of the reference's `audit_records`, in its order, with its
 * indexes. The table is append-only at the database level: UPDATE is always refused and DELETE only
 * inside a transaction that declares itself the retention sweep (`SET LOCAL helios.audit_sweep = 'on'`),
 * so no code path — ours or a mistaken one — can rewrite history.
 */
export class GovernanceAudit1764547200000 implements MigrationInterface {
  readonly name = 'GovernanceAudit1764547200000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`
      CREATE TABLE "audit_records" (
        "id" uuid PRIMARY KEY,
        "timestamp" timestamptz NOT NULL,
        "session_id" text,
        "agent_id" text,
        "tool_name" text NOT NULL,
        "tool_input" jsonb NOT NULL DEFAULT '{}'::jsonb,
        "policy_decision" text NOT NULL,
        "block_reason" text,
        "matched_rule" text,
        "evidence_chain" jsonb,
        "approval_status" text,
        "approved_by" text,
        "upstream_response" jsonb,
        "upstream_error" text,
        "upstream_http_status" integer,
        "upstream_latency_ms" double precision,
        "total_duration_ms" double precision NOT NULL DEFAULT 0,
        "approval_wait_ms" double precision NOT NULL DEFAULT 0,
        "proxy_compute_ms" double precision NOT NULL DEFAULT 0,
        "flagged_destructive" boolean NOT NULL DEFAULT false,
        "dry_run" boolean NOT NULL DEFAULT false,
        "created_at" timestamptz NOT NULL DEFAULT now(),
        "environment" text,
        "matched_rule_index" integer CHECK ("matched_rule_index" >= 0),
        "record_kind" text NOT NULL DEFAULT 'tool_call'
          CHECK ("record_kind" IN ('tool_call', 'drift_event', 'install_scan', 'evaluation_expired', 'policy_reload')),
        "origin" text NOT NULL DEFAULT 'sideband',
        "metadata" jsonb,
        "session_source" text,
        "protocol_version" text
      )`);
    for (const [name, columns] of [
      ['audit_records_created_at', '"created_at"'],
      ['audit_records_tool_name', '"tool_name"'],
      ['audit_records_policy_decision', '"policy_decision"'],
      ['audit_records_session_id', '"session_id"'],
      ['audit_records_block_reason', '"block_reason"'],
      ['audit_records_record_kind', '"record_kind"'],
      ['audit_records_origin', '"origin"'],
      ['audit_records_upstream_status_created_at', '"upstream_http_status", "created_at"'],
    ] as const) {
      await queryRunner.query(`CREATE INDEX "${name}" ON "audit_records" (${columns})`);
    }
    await queryRunner.query(`
      CREATE FUNCTION "audit_records_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN
        IF TG_OP = 'DELETE' AND current_setting('helios.audit_sweep', true) = 'on' THEN
          RETURN OLD;
        END IF;
        RAISE EXCEPTION 'audit_records is append-only (% refused)', TG_OP USING ERRCODE = 'insufficient_privilege';
      END $$`);
    await queryRunner.query(`
      CREATE TRIGGER "audit_records_append_only" BEFORE UPDATE OR DELETE ON "audit_records"
      FOR EACH ROW EXECUTE FUNCTION "audit_records_append_only"()`);
    await queryRunner.query(`
      CREATE TRIGGER "audit_records_no_truncate" BEFORE TRUNCATE ON "audit_records"
      FOR EACH STATEMENT EXECUTE FUNCTION "audit_records_append_only"()`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`DROP TABLE "audit_records"`);
    await queryRunner.query(`DROP FUNCTION "audit_records_append_only"()`);
  }
}
