/**
 * Pending evaluations, the backlog totals and the tombstones (migrations GovernanceStores1764633600000,
 * PendingBacklogSplit1764720000000, PendingSeqUnindexed1764806400000, PendingAutovacuum1764892800000).
 * The hot store (PgPendingEvaluationStore) writes these with raw multi-row SQL; the entities describe
 * the tables. `pending_evaluations`' autovacuum settings are table storage options TypeORM cannot
 * express (README).
 */
import { EntitySchema } from 'typeorm';
import { atLeast, IDENTITY, oneOf } from './schema-terms.js';

export interface PendingEvaluationRow {
  readonly evaluationId: string;
  /** Orders due() oldest first across processes; not indexed (PendingSeqUnindexed). */
  readonly seq: string;
  /** The entry minus its commit latch. */
  readonly payload: unknown;
  readonly bytes: number;
  readonly createdAtMs: string;
  readonly expiresAtMs: string;
  readonly commitLatch: unknown;
  readonly createdAt: Date;
}

export const PendingEvaluationEntity = new EntitySchema<PendingEvaluationRow>({
  name: 'PendingEvaluation',
  tableName: 'pending_evaluations',
  columns: {
    evaluationId: {
      name: 'evaluation_id',
      type: 'text',
      primary: true,
      primaryKeyConstraintName: 'pending_evaluations_pkey',
    },
    seq: { type: 'bigint', generated: IDENTITY },
    payload: { type: 'jsonb' },
    bytes: { type: 'integer' },
    createdAtMs: { name: 'created_at_ms', type: 'bigint' },
    expiresAtMs: { name: 'expires_at_ms', type: 'bigint' },
    commitLatch: { name: 'commit_latch', type: 'jsonb', nullable: true },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
  },
  indices: [{ name: 'pending_evaluations_expires_at', columns: ['expiresAtMs'] }],
  checks: [{ name: 'pending_evaluations_bytes_check', expression: atLeast('bytes', 0) }],
});

/** One row: what was ever admitted. The backlog is admitted minus freed. */
export interface PendingBacklogRow {
  readonly singleton: boolean;
  readonly admittedCount: string;
  readonly admittedBytes: string;
}

export const PendingBacklogEntity = new EntitySchema<PendingBacklogRow>({
  name: 'PendingBacklog',
  tableName: 'pending_backlog',
  columns: {
    singleton: {
      type: 'boolean',
      primary: true,
      default: true,
      primaryKeyConstraintName: 'pending_backlog_pkey',
    },
    admittedCount: { name: 'admitted_count', type: 'bigint' },
    admittedBytes: { name: 'admitted_bytes', type: 'bigint' },
  },
  checks: [
    { name: 'pending_backlog_singleton_check', expression: '"singleton"' },
    // Named for the columns' names before PendingBacklogSplit renamed them.
    { name: 'pending_backlog_count_check', expression: atLeast('admitted_count', 0) },
    { name: 'pending_backlog_bytes_check', expression: atLeast('admitted_bytes', 0) },
  ],
});

/** One row: what was ever finalized. */
export interface PendingBacklogFreedRow {
  readonly singleton: boolean;
  readonly freedCount: string;
  readonly freedBytes: string;
}

export const PendingBacklogFreedEntity = new EntitySchema<PendingBacklogFreedRow>({
  name: 'PendingBacklogFreed',
  tableName: 'pending_backlog_freed',
  columns: {
    singleton: {
      type: 'boolean',
      primary: true,
      default: true,
      primaryKeyConstraintName: 'pending_backlog_freed_pkey',
    },
    freedCount: { name: 'freed_count', type: 'bigint' },
    freedBytes: { name: 'freed_bytes', type: 'bigint' },
  },
  checks: [
    { name: 'pending_backlog_freed_singleton_check', expression: '"singleton"' },
    { name: 'pending_backlog_freed_freed_count_check', expression: atLeast('freed_count', 0) },
    { name: 'pending_backlog_freed_freed_bytes_check', expression: atLeast('freed_bytes', 0) },
  ],
});

export interface EvaluationTombstoneRow {
  readonly evaluationId: string;
  readonly auditRecordId: string;
  readonly finalizedBy: 'evaluate' | 'audit' | 'expired';
  readonly payloadHash: string | null;
  readonly expiresAtMs: string;
  /** The audit record the finalization wrote (write-ahead copy, see recover-audit-records.ts). */
  readonly record: unknown;
}

export const EvaluationTombstoneEntity = new EntitySchema<EvaluationTombstoneRow>({
  name: 'EvaluationTombstone',
  tableName: 'evaluation_tombstones',
  columns: {
    evaluationId: {
      name: 'evaluation_id',
      type: 'text',
      primary: true,
      primaryKeyConstraintName: 'evaluation_tombstones_pkey',
    },
    auditRecordId: { name: 'audit_record_id', type: 'text' },
    finalizedBy: { name: 'finalized_by', type: 'text' },
    payloadHash: { name: 'payload_hash', type: 'text', nullable: true },
    expiresAtMs: { name: 'expires_at_ms', type: 'bigint' },
    record: { type: 'jsonb', nullable: true },
  },
  indices: [{ name: 'evaluation_tombstones_expires_at', columns: ['expiresAtMs'] }],
  checks: [
    {
      name: 'evaluation_tombstones_finalized_by_check',
      expression: oneOf('finalized_by', ['evaluate', 'audit', 'expired']),
    },
  ],
});
