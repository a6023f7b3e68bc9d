/**
 * @helios/persistence — PostgreSQL for Helios, one folder per domain: `embedded/` (an embedded PostgreSQL
 * server for zero-setup runs), `instance/` (the installation's metadata row), `governance/` (the
 * governance stores and their tables). Every table has a TypeORM entity (HELIOS_ENTITIES); the schema
 * itself comes from @helios/migrations. Test and process helpers live in `@helios/persistence/testing`.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export { HELIOS_ENTITIES, heliosEntityOptions } from './entities.js';

export {
  EmbeddedPostgres,
  type EmbeddedLogger,
  type EmbeddedPostgresOptions,
} from './embedded/embedded-postgres.js';
export { DataDirInUseError, EmbeddedPostgresError } from './embedded/errors.js';
export { DEFAULT_RELOCATION_ROOT, relocatedClusterDir } from './embedded/placement.js';

export { InstanceMetadataEntity, type InstanceMetadataRow } from './instance/instance-metadata.entity.js';

export * from './governance/entities/index.js';
export { PgLimitStore } from './governance/pg-limit-store.js';
export { type LedgerFilter } from './governance/budget-ledger.js';
export { PgPendingEvaluationStore } from './governance/pg-pending-evaluation-store.js';
export { PgApprovalTicketStore } from './governance/pg-approval-ticket-store.js';
export { PgAuditSink, type AuditSinkLogger, type PgAuditSinkOptions } from './governance/pg-audit-sink.js';
export { findAuditRecord } from './governance/audit-record-row.js';
export {
  sweepGovernanceRetention,
  type RetentionSweepOptions,
  type RetentionSweepResult,
} from './governance/retention-sweep.js';
export { recoverAuditRecords, type RecoverOptions } from './governance/recover-audit-records.js';
