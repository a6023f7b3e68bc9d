/**
 * @helios/persistence — PostgreSQL for Helios, one folder per domain: `embedded/` (an embedded PostgreSQL
 * server for zero-setup runs), `instance/` (the installation's metadata row), `governance/` (the
 * governance stores and their tables), `observability/` (annotations with SCIM filters, the prompt
 * registry, the trace store, and the configurable schema they share), `sessions/` (the session
 * store); `createPersistence` makes the observability and session stores in one call. Every table has
 * a TypeORM entity (HELIOS_ENTITIES); the schema itself comes from @helios/migrations. Test and process
 * helpers live in `@helios/persistence/testing`.
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
export { PgLimitStore, type PgLimitStoreOptions } from './governance/pg-limit-store.js';
export { LimitAuthority, type LimitAuthorityOptions } from './governance/limit-authority/limit-authority.js';
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

export * from './observability/entities/index.js';
export {
  AUTHOR_KINDS,
  DEFAULT_PAGE_SIZE,
  MAX_PAGE_SIZE,
  type Annotation,
  type AnnotationInput,
  type AuthorKind,
  type Page,
  type Paginate,
} from './observability/annotation.js';
export { PgAnnotationStore, ANNOTATION_FILTER_ATTRIBUTES } from './observability/pg-annotation-store.js';
export {
  PgPromptRegistry,
  type CreatePromptOptions,
  type Prompt,
  type PromptRef,
} from './observability/pg-prompt-registry.js';
export { renderTemplate, templateVariables, type PromptVariables } from './observability/prompt-template.js';
export {
  MAX_FILTER_DEPTH,
  MAX_FILTER_LENGTH,
  parseScimFilter,
  type ScimCompareOperator,
  type ScimFilter,
  type ScimLiteral,
} from './observability/scim-filter.js';
export {
  compileScimFilter,
  escapeLike,
  scimAttributes,
  type CompiledFilter,
  type ScimAttribute,
  type ScimAttributes,
  type ScimAttributeType,
} from './observability/scim-sql.js';
export { PromptNotFoundError, PromptVariableMissingError, ScimFilterError } from './observability/errors.js';
export {
  DEFAULT_SCHEMA,
  PersistenceConfig,
  SCHEMA_NAME_PATTERN,
  type PersistenceConfigOptions,
} from './observability/persistence-config.js';
export {
  DEFAULT_TRACE_BATCH_SIZE,
  DEFAULT_TRACE_CAPACITY,
  PgTraceStore,
  type PgTraceStoreOptions,
  type TraceStoreStats,
} from './observability/pg-trace-store.js';
export { type TraceStoreLogger } from './observability/trace-batch-writer.js';
export { type TraceFilter } from './observability/trace-filter.js';
export {
  TRACE_GROUPINGS,
  type LatencyPercentiles,
  type TraceGrouping,
  type TraceListQuery,
  type TraceRollup,
  type TraceSummary,
  type TraceSummaryQuery,
} from './observability/trace-queries.js';
export { type RedactText } from './observability/trace-rows.js';

export {
  SessionEntity,
  SessionEntryEntity,
  type SessionEntryRow,
  type SessionRow,
} from './sessions/session.entities.js';
export { PgSessionStore } from './sessions/pg-session-store.js';
export { createPersistence, type HeliosPersistence, type PersistenceOptions } from './create-persistence.js';
