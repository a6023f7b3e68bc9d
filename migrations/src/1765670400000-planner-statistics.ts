import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * No planner statistics for columns no query estimates a selectivity of: JSON documents, arrays, and
 * unique ids read only through their own index. Autoanalyze samples up to 30,000 rows of a table each
 * time a tenth of it changed, and most of a pass went on these columns: sorting JSON documents
 * (`compareJsonbContainers`), the element statistics of the charge runs' three arrays, and unique
 * strings whose statistics say only "all distinct", which the primary key already says. Measured on
 * this machine after a minute of governance load (58,000 records): ANALYZE of `audit_records` 455 →
 * 268 ms, `evaluation_tombstones` 191 → 137 ms; on tables that a busy API writes thousands of rows a
 * second into, such passes come every few seconds while they are small. The columns queries filter or
 * sort on (time, tool, session, decision, kind, bucket, pot) keep the default target.
 */
const COLUMNS: readonly (readonly [table: string, columns: readonly string[]])[] = [
  ['audit_records', ['id', 'tool_input', 'evidence_chain', 'upstream_response', 'metadata']],
  ['evaluation_tombstones', ['evaluation_id', 'audit_record_id', 'payload_hash', 'record']],
  ['pending_evaluations', ['evaluation_id', 'payload', 'commit_latch']],
  ['limit_charge_runs', ['reservation_ids', 'amounts', 'at_ms']],
  ['limit_charges', ['reservation_id']],
  ['limit_commits', ['reservation_id', 'snapshots']],
  ['budget_events', ['audit_record_id']],
];

function setTarget(target: number): string[] {
  return COLUMNS.map(
    ([table, columns]) =>
      `ALTER TABLE "${table}" ${columns.map((column) => `ALTER COLUMN "${column}" SET STATISTICS ${target}`).join(', ')}`,
  );
}

export class PlannerStatistics1765670400000 implements MigrationInterface {
  readonly name = 'PlannerStatistics1765670400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of setTarget(0)) await queryRunner.query(statement);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    // -1: back to default_statistics_target.
    for (const statement of setTarget(-1)) await queryRunner.query(statement);
  }
}
