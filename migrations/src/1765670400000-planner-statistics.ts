import { type MigrationInterface, type QueryRunner } from 'typeorm';

/**
 * Planner statistics that cost less to keep, for the tables a busy API writes thousands of rows a
 * second into. Autoanalyze samples up to 30,000 rows of a table each time a tenth of it changed (at
 * most once per table per `autovacuum_naptime`): while such a table is young that is a pass every few
 * seconds, each costing 100–560 ms of CPU on this machine (measured after a few minutes of governance
 * load: `audit_records` at 216,000 rows 420–560 ms, `budget_events` at 99,000 rows 290 ms,
 * `limit_charge_runs` at 55,000 rows 160 ms), tens of µs per evaluate + audit pair in all.
 *
 * 1. No statistics for columns no query estimates a selectivity of: JSON documents, arrays, and unique
 *    ids read only through their own index. Most of a pass went on them (sorting JSON documents, the
 *    element statistics of the charge runs' arrays): ANALYZE of `audit_records` at 58,000 rows
 *    455 → 268 ms, `evaluation_tombstones` 191 → 137 ms. Columns queries filter or sort on (time, tool,
 *    session, decision, kind, bucket, budget pot) keep the default target.
 * 2. Analyzed after 100,000 changed rows (plus the default tenth of the table), not 50: every query on
 *    these tables goes through an index whose bounds the planner reads from the index itself, so a
 *    young table's statistics change no plan, and a large one is analyzed as often as before.
 */
export const NO_STATISTICS: readonly (readonly [table: string, columns: readonly string[]])[] = [
  ['audit_records', ['id', 'tool_input', 'evidence_chain', 'upstream_response', 'metadata']],
  ['evaluation_tombstones', ['evaluation_id', 'audit_record_id', 'payload_hash', 'record']],
  ['pending_evaluations', ['evaluation_id', 'payload', 'commit_latch']],
  ['limit_charge_runs', ['reservation_ids', 'amounts', 'at_ms']],
  ['limit_charges', ['reservation_id']],
  ['limit_commits', ['reservation_id', 'snapshots']],
  ['budget_events', ['audit_record_id', 'amount', 'tool_name', 'origin']],
];

/** Tables that grow (or churn) with every call: analyzed after this many changed rows, plus a tenth. */
export const BUSY_TABLES = [
  'audit_records',
  'evaluation_tombstones',
  'pending_evaluations',
  'limit_charge_runs',
  'limit_charges',
  'limit_commits',
  'budget_events',
  // One row each, updated by every admission or finalization batch: no statistics can change a plan.
  'pending_backlog',
  'pending_backlog_freed',
];
export const ANALYZE_THRESHOLD = 100_000;

/** The statements setting these columns' statistics target (a later migration's columns too). */
export function setTargets(target: number, columns = NO_STATISTICS): string[] {
  return columns.map(
    ([table, columns]) =>
      `ALTER TABLE "${table}" ${columns.map((column) => `ALTER COLUMN "${column}" SET STATISTICS ${target}`).join(', ')}`,
  );
}

export class PlannerStatistics1765670400000 implements MigrationInterface {
  readonly name = 'PlannerStatistics1765670400000';

  async up(queryRunner: QueryRunner): Promise<void> {
    for (const statement of setTargets(0)) await queryRunner.query(statement);
    for (const table of BUSY_TABLES)
      await queryRunner.query(
        `ALTER TABLE "${table}" SET (autovacuum_analyze_threshold = ${ANALYZE_THRESHOLD})`,
      );
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    for (const table of BUSY_TABLES)
      await queryRunner.query(`ALTER TABLE "${table}" RESET (autovacuum_analyze_threshold)`);
    // -1: back to default_statistics_target.
    for (const statement of setTargets(-1)) await queryRunner.query(statement);
  }
}
