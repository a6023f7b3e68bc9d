/**
 * `audit_records` (migration GovernanceAudit1764547200000): the governance audit trail, the reference's
 * 29 columns in its order. Append-only: a trigger refuses UPDATE, TRUNCATE and any DELETE outside the
 * retention sweep — triggers and their function live only in the migration (see the README).
 */
import { type RecordKind } from '@helios/governance';
import { EntitySchema } from 'typeorm';
import { atLeast, oneOf } from './schema-terms.js';

export interface AuditRecordRow {
  readonly id: string;
  readonly timestamp: Date;
  readonly sessionId: string | null;
  readonly agentId: string | null;
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly policyDecision: string;
  readonly blockReason: string | null;
  readonly matchedRule: string | null;
  readonly evidenceChain: unknown;
  readonly approvalStatus: string | null;
  readonly approvedBy: string | null;
  readonly upstreamResponse: unknown;
  readonly upstreamError: string | null;
  readonly upstreamHttpStatus: number | null;
  readonly upstreamLatencyMs: number | null;
  readonly totalDurationMs: number;
  readonly approvalWaitMs: number;
  readonly proxyComputeMs: number;
  readonly flaggedDestructive: boolean;
  readonly dryRun: boolean;
  readonly createdAt: Date;
  readonly environment: string | null;
  readonly matchedRuleIndex: number | null;
  readonly recordKind: string;
  readonly origin: string;
  readonly metadata: unknown;
  readonly sessionSource: string | null;
  readonly protocolVersion: string | null;
}

/** Every RecordKind, in the migration CHECK's order; a kind governance adds fails the build here. */
const RECORD_KINDS = Object.keys({
  tool_call: true,
  drift_event: true,
  install_scan: true,
  evaluation_expired: true,
  policy_reload: true,
} satisfies Record<RecordKind, true>);

export const AuditRecordEntity = new EntitySchema<AuditRecordRow>({
  name: 'AuditRecord',
  tableName: 'audit_records',
  columns: {
    id: { type: 'uuid', primary: true, primaryKeyConstraintName: 'audit_records_pkey' },
    timestamp: { type: 'timestamptz' },
    sessionId: { name: 'session_id', type: 'text', nullable: true },
    agentId: { name: 'agent_id', type: 'text', nullable: true },
    toolName: { name: 'tool_name', type: 'text' },
    toolInput: { name: 'tool_input', type: 'jsonb', default: {} },
    policyDecision: { name: 'policy_decision', type: 'text' },
    blockReason: { name: 'block_reason', type: 'text', nullable: true },
    matchedRule: { name: 'matched_rule', type: 'text', nullable: true },
    evidenceChain: { name: 'evidence_chain', type: 'jsonb', nullable: true },
    approvalStatus: { name: 'approval_status', type: 'text', nullable: true },
    approvedBy: { name: 'approved_by', type: 'text', nullable: true },
    upstreamResponse: { name: 'upstream_response', type: 'jsonb', nullable: true },
    upstreamError: { name: 'upstream_error', type: 'text', nullable: true },
    upstreamHttpStatus: { name: 'upstream_http_status', type: 'integer', nullable: true },
    upstreamLatencyMs: { name: 'upstream_latency_ms', type: 'double precision', nullable: true },
    totalDurationMs: { name: 'total_duration_ms', type: 'double precision', default: 0 },
    approvalWaitMs: { name: 'approval_wait_ms', type: 'double precision', default: 0 },
    proxyComputeMs: { name: 'proxy_compute_ms', type: 'double precision', default: 0 },
    flaggedDestructive: { name: 'flagged_destructive', type: 'boolean', default: false },
    dryRun: { name: 'dry_run', type: 'boolean', default: false },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
    environment: { type: 'text', nullable: true },
    matchedRuleIndex: { name: 'matched_rule_index', type: 'integer', nullable: true },
    recordKind: { name: 'record_kind', type: 'text', default: 'tool_call' },
    origin: { type: 'text', default: 'sideband' },
    metadata: { type: 'jsonb', nullable: true },
    sessionSource: { name: 'session_source', type: 'text', nullable: true },
    protocolVersion: { name: 'protocol_version', type: 'text', nullable: true },
  },
  indices: [
    { name: 'audit_records_created_at', columns: ['createdAt'] },
    { name: 'audit_records_tool_name', columns: ['toolName'] },
    { name: 'audit_records_policy_decision', columns: ['policyDecision'] },
    { name: 'audit_records_session_id', columns: ['sessionId'] },
    { name: 'audit_records_block_reason', columns: ['blockReason'] },
    { name: 'audit_records_record_kind', columns: ['recordKind'] },
    { name: 'audit_records_origin', columns: ['origin'] },
    { name: 'audit_records_upstream_status_created_at', columns: ['upstreamHttpStatus', 'createdAt'] },
  ],
  checks: [
    { name: 'audit_records_matched_rule_index_check', expression: atLeast('matched_rule_index', 0) },
    { name: 'audit_records_record_kind_check', expression: oneOf('record_kind', RECORD_KINDS) },
  ],
});
