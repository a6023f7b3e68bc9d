/** The audit trail's record: the 29 columns of reference §1.16 (persistence maps them 1:1). */
export type RecordKind =
  'tool_call' | 'drift_event' | 'install_scan' | 'evaluation_expired' | 'policy_reload';

export type BlockReason =
  | 'policy_denied'
  | 'session_unresolved'
  | 'evidence_missing'
  | 'evidence_expired'
  | 'dependency_missing'
  | 'approval_denied'
  | 'approval_timeout'
  | 'client_disconnected'
  | 'shutdown_cancelled'
  | 'cancelled'
  | 'rate_limited'
  | 'spend_limited'
  | 'budget_exceeded'
  | 'budget_ledger_write_failed'
  | 'tool_definition_drift'
  | 'install_denied'
  | 'missing_tool_name'
  | 'header_mismatch';

export interface AuditRecord {
  readonly id: string;
  readonly timestamp: string;
  readonly sessionId: string | null;
  readonly agentId: string | null;
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  /** The INTERNAL action (or rejected/tool_drift), not the wire outcome. */
  readonly policyDecision: string;
  readonly blockReason: BlockReason | null;
  readonly matchedRule: string | null;
  readonly evidenceChain: Readonly<Record<string, unknown>> | null;
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
  readonly createdAt: string;
  readonly environment: string | null;
  readonly matchedRuleIndex: number | null;
  readonly recordKind: RecordKind;
  readonly origin: string;
  readonly metadata: Readonly<Record<string, unknown>> | null;
  readonly sessionSource: string | null;
  readonly protocolVersion: string | null;
}
