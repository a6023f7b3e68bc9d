/**
 * @helios/persistence — PostgreSQL for Helios: an embedded PostgreSQL server for zero-setup runs, and the
 * TypeORM entities and stores implementing the libraries' store interfaces.
 *
 * The public entry of this package: everything other packages may use is exported from here.
 */
export {
  EmbeddedPostgres,
  type EmbeddedLogger,
  type EmbeddedPostgresOptions,
} from './embedded/embedded-postgres.js';
export { DataDirInUseError, EmbeddedPostgresError } from './embedded/errors.js';
export { DEFAULT_RELOCATION_ROOT, relocatedClusterDir } from './embedded/placement.js';
export { freePort } from './embedded/free-port.js';
export { embeddedSuperuserClient, LOCK_FILE } from './embedded/superuser-client.js';
export { createScratchDatabase, type ScratchDatabase } from './scratch-database.js';
export { commandLine, isAlive, stopPostmaster, waitForExit } from './embedded/process-utils.js';

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
