/**
 * AuditRecord ↔ the 29 columns of `audit_records`, in the table's order. Writes are raw multi-row SQL
 * (the sink's batches, the finalize statement's recordset); the read goes through the entity.
 */
import { type AuditRecord } from '@helios/governance';
import { type DataSource } from 'typeorm';
import { AuditRecordEntity, type AuditRecordRow } from './entities/audit-record.entity.js';

const COLUMNS = [
  'id',
  'timestamp',
  'session_id',
  'agent_id',
  'tool_name',
  'tool_input',
  'policy_decision',
  'block_reason',
  'matched_rule',
  'evidence_chain',
  'approval_status',
  'approved_by',
  'upstream_response',
  'upstream_error',
  'upstream_http_status',
  'upstream_latency_ms',
  'total_duration_ms',
  'approval_wait_ms',
  'proxy_compute_ms',
  'flagged_destructive',
  'dry_run',
  'created_at',
  'environment',
  'matched_rule_index',
  'record_kind',
  'origin',
  'metadata',
  'session_source',
  'protocol_version',
] as const;

/** A JSON column value: SQL NULL for null/undefined, else its JSON text (a JSON string stays a string). */
function json(value: unknown): string | null {
  return value === null || value === undefined ? null : JSON.stringify(value);
}

function values(record: AuditRecord): unknown[] {
  return [
    record.id,
    record.timestamp,
    record.sessionId,
    record.agentId,
    record.toolName,
    json(record.toolInput) ?? '{}',
    record.policyDecision,
    record.blockReason,
    record.matchedRule,
    json(record.evidenceChain),
    record.approvalStatus,
    record.approvedBy,
    json(record.upstreamResponse),
    record.upstreamError,
    record.upstreamHttpStatus,
    record.upstreamLatencyMs,
    record.totalDurationMs,
    record.approvalWaitMs,
    record.proxyComputeMs,
    record.flaggedDestructive,
    record.dryRun,
    record.createdAt,
    record.environment,
    record.matchedRuleIndex,
    record.recordKind,
    record.origin,
    json(record.metadata),
    record.sessionSource,
    record.protocolVersion,
  ];
}

/**
 * The record as one `audit_records` row object (column name → value; JSON columns as JSON values), for
 * `jsonb_populate_recordset(NULL::"audit_records", …)`: a whole batch of records is one parameter.
 */
export function auditRow(record: AuditRecord): Record<(typeof COLUMNS)[number], unknown> {
  return {
    id: record.id,
    timestamp: record.timestamp,
    session_id: record.sessionId,
    agent_id: record.agentId,
    tool_name: record.toolName,
    tool_input: record.toolInput ?? {},
    policy_decision: record.policyDecision,
    block_reason: record.blockReason,
    matched_rule: record.matchedRule,
    evidence_chain: record.evidenceChain,
    approval_status: record.approvalStatus,
    approved_by: record.approvedBy,
    // A JSON null and an absent value are both SQL NULL, as in `values()`.
    upstream_response: record.upstreamResponse ?? null,
    upstream_error: record.upstreamError,
    upstream_http_status: record.upstreamHttpStatus,
    upstream_latency_ms: record.upstreamLatencyMs,
    total_duration_ms: record.totalDurationMs,
    approval_wait_ms: record.approvalWaitMs,
    proxy_compute_ms: record.proxyComputeMs,
    flagged_destructive: record.flaggedDestructive,
    dry_run: record.dryRun,
    created_at: record.createdAt,
    environment: record.environment,
    matched_rule_index: record.matchedRuleIndex,
    record_kind: record.recordKind,
    origin: record.origin,
    metadata: record.metadata,
    session_source: record.sessionSource,
    protocol_version: record.protocolVersion,
  };
}

/**
 * One multi-row INSERT. `ON CONFLICT DO NOTHING`: an audit id is pre-allocated, and a retried /audit
 * after a crash between writing the record and finalizing writes it again; the first record stands.
 */
export function insertAuditRecordsSql(records: readonly AuditRecord[]): { sql: string; params: unknown[] } {
  const params: unknown[] = [];
  const tuples = records.map((record) => {
    const start = params.length;
    params.push(...values(record));
    return `(${COLUMNS.map((_, i) => `$${start + i + 1}`).join(', ')})`;
  });
  return {
    sql: `INSERT INTO "audit_records" (${COLUMNS.map((c) => `"${c}"`).join(', ')})
          VALUES ${tuples.join(', ')} ON CONFLICT ("id") DO NOTHING`,
    params,
  };
}

/** Reads one record back (the dashboard's detail view, durability checks) through its entity. */
export async function findAuditRecord(dataSource: DataSource, id: string): Promise<AuditRecord | undefined> {
  const row = await dataSource.getRepository(AuditRecordEntity).findOneBy({ id });
  return row === null ? undefined : fromAuditRow(row);
}

function fromAuditRow(row: AuditRecordRow): AuditRecord {
  return {
    id: row.id,
    timestamp: row.timestamp.toISOString(),
    sessionId: row.sessionId,
    agentId: row.agentId,
    toolName: row.toolName,
    toolInput: row.toolInput as AuditRecord['toolInput'],
    policyDecision: row.policyDecision,
    blockReason: row.blockReason as AuditRecord['blockReason'],
    matchedRule: row.matchedRule,
    evidenceChain: row.evidenceChain as AuditRecord['evidenceChain'],
    approvalStatus: row.approvalStatus,
    approvedBy: row.approvedBy,
    upstreamResponse: row.upstreamResponse,
    upstreamError: row.upstreamError,
    upstreamHttpStatus: row.upstreamHttpStatus,
    upstreamLatencyMs: row.upstreamLatencyMs,
    totalDurationMs: row.totalDurationMs,
    approvalWaitMs: row.approvalWaitMs,
    proxyComputeMs: row.proxyComputeMs,
    flaggedDestructive: row.flaggedDestructive,
    dryRun: row.dryRun,
    createdAt: row.createdAt.toISOString(),
    environment: row.environment,
    matchedRuleIndex: row.matchedRuleIndex,
    recordKind: row.recordKind as AuditRecord['recordKind'],
    origin: row.origin,
    metadata: row.metadata as AuditRecord['metadata'],
    sessionSource: row.sessionSource,
    protocolVersion: row.protocolVersion,
  };
}
