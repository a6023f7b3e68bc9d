/**
 * The adapter API's request and response shapes, snake_case exactly as the seed shows: the service
 * answers with these bodies, the HTTP layer validates requests and sends the bodies on, and the client
 * parses them.
 */
import { type FieldError } from '@helios/core';
import { type DriftChange } from '../drift/drift-change.js';
import { type BudgetBlock } from '../stores/budget-block.js';

export type WireDecision =
  'allow' | 'deny' | 'require_approval' | 'rate_limited' | 'spend_limited' | 'budget_exceeded' | 'dry_run';

export interface WireToolDefinition {
  readonly name: string;
  readonly description?: string | undefined;
  readonly input_schema?: unknown;
  readonly output_schema?: unknown;
  readonly title?: string | undefined;
  readonly annotations?: Readonly<Record<string, unknown>> | undefined;
}

export interface EvaluateRequest {
  /** Default `sideband`. */
  readonly origin?: string | undefined;
  readonly adapter_version?: string | undefined;
  readonly agent_id?: string | null | undefined;
  readonly session_id?: string | null | undefined;
  readonly tool: WireToolDefinition;
  readonly arguments?: Readonly<Record<string, unknown>> | undefined;
  readonly metadata?: Readonly<Record<string, unknown>> | null | undefined;
}

export interface AuditEvidenceEntry {
  readonly evidence_key: string;
  readonly evidence_data: unknown;
  readonly ttl_seconds?: number | undefined;
}

export interface AuditRequest {
  readonly evaluation_id: string;
  readonly status: 'success' | 'error' | 'not_executed';
  readonly error?: string | undefined;
  readonly duration_ms?: number | undefined;
  readonly result?: unknown;
  readonly actual_amount?: number | undefined;
  readonly evidence?: readonly AuditEvidenceEntry[] | undefined;
}

export interface ResolveApprovalRequest {
  readonly resolution: 'approved' | 'denied' | 'timeout' | 'cancelled';
  readonly resolved_by?: string | undefined;
  readonly reason?: string | undefined;
  /** Reserved; accepted and ignored (budget approvals are scope-once anyway). */
  readonly scope?: 'once' | 'always' | undefined;
}

export interface InstallScanRequest {
  readonly origin?: string | undefined;
  readonly agent_id?: string | null | undefined;
  readonly session_id?: string | null | undefined;
  readonly package: {
    readonly name: string;
    readonly version?: string | undefined;
    readonly source?: string | undefined;
  };
  readonly metadata?: Readonly<Record<string, unknown>> | null | undefined;
}

export interface FeedbackBlock {
  readonly message: string;
  readonly suggestion?: string;
}

export interface RateBlock {
  readonly current: number;
  readonly limit: number;
  readonly window_ms: number;
  readonly reset_at_ms: number;
}

export type SpendBlock =
  | {
      readonly current_spend: number;
      readonly limit: number;
      readonly currency: string;
      readonly window_ms: number;
      readonly reset_at_ms: number;
    }
  | { readonly reason: 'invalid_amount'; readonly limit: number; readonly currency: string };

/** A budget's state as the caller sees it; stores keep the one a decision saw (stores/budget-block.ts). */
export { type BudgetBlock } from '../stores/budget-block.js';

export interface LimitsBlock {
  readonly rate?: RateBlock;
  readonly spend?: SpendBlock;
  readonly budgets?: readonly BudgetBlock[];
}

/** The native ticket a `require_approval` decision opened, as the service reports it. */
export interface ApprovalHandle {
  readonly id: string;
  readonly timeout_ms: number;
}

/** The ticket on the wire: the HTTP layer adds where to resolve it (`/approval/<id>/resolve`). */
export interface ApprovalBlock extends ApprovalHandle {
  readonly resolve_path: string;
}

/** POST /evaluate's body as the service returns it (its approval carries no path: no URLs here). */
export interface EvaluateDecisionBody {
  readonly evaluation_id: string;
  readonly decision: WireDecision;
  readonly reason: string;
  readonly matched_rule: string | null;
  readonly matched_rule_index: number | null;
  readonly feedback?: FeedbackBlock;
  readonly approval?: ApprovalHandle;
  readonly limits?: LimitsBlock;
  readonly dry_run?: {
    readonly would_forward: boolean;
    readonly evidence_satisfied: boolean;
    readonly limits_ok: boolean;
    readonly session_unresolved?: true;
  };
  readonly tool_drift?: { readonly changes: readonly DriftChange[] };
}

/** POST /evaluate's body on the wire, as a client reads it. */
export interface EvaluateResponseBody extends Omit<EvaluateDecisionBody, 'approval'> {
  readonly approval?: ApprovalBlock;
}

export type EvidenceOutcomeReason =
  | 'key_not_in_policy_allowlist'
  | 'too_large'
  | 'too_many'
  | 'no_session'
  | 'evidence_unavailable'
  | 'closed'
  | 'session_capacity_exhausted';

export interface EvidenceOutcome {
  readonly evidence_key: string;
  readonly stored: boolean;
  readonly reason?: EvidenceOutcomeReason;
}

export interface InstallScanResponseBody {
  readonly evaluation_id: string;
  readonly decision: 'allow' | 'deny';
  readonly reason: string;
  readonly matched_rule: string | null;
  readonly matched_rule_index: number | null;
  readonly feedback?: FeedbackBlock;
}

export type GovernanceErrorCode =
  | 'invalid_request'
  | 'json_too_deep'
  | 'reserved_metadata_key'
  | 'tool_input_too_large'
  | 'metadata_too_large'
  | 'origin_limit_exceeded'
  | 'tool_baseline_limit'
  | 'tool_definition_too_large'
  | 'evaluation_backlog_full'
  | 'limit_capacity_exhausted'
  | 'evaluation_unknown'
  | 'evaluation_expired'
  | 'evaluation_conflict'
  | 'approval_unresolved'
  | 'invalid_actual_amount'
  | 'no_spend_rule'
  | 'ticket_not_found'
  | 'not_a_native_ticket'
  | 'already_resolved'
  | 'resolved_by_required'
  | 'evidence_too_large'
  | 'evidence_unavailable'
  | 'context_too_large'
  | 'session_capacity_exhausted'
  | 'sideband_shutting_down';

export interface ErrorBody {
  readonly error: GovernanceErrorCode;
  /** reserved_metadata_key: the offending key. */
  readonly key?: string;
  /** already_resolved: the ticket's terminal status when known. */
  readonly status?: string;
  /** invalid_request: every field that failed, by path. */
  readonly issues?: readonly FieldError[];
  /** json_too_deep: the deepest nesting accepted. */
  readonly max_depth?: number;
}

/** `POST /evidence` (SDK scope): grounding data for a session, checked against the policy allowlist. */
export interface EvidenceRequest {
  readonly session_id: string;
  readonly tool_name: string;
  readonly evidence_key: string;
  readonly evidence_data: unknown;
  readonly ttl_seconds?: number | undefined;
}

/** The refusal of a key no `evidence.requires` names: enough for the caller to fix its configuration. */
export interface EvidenceKeyRefusedBody {
  readonly error: 'evidence_key_not_in_policy_allowlist';
  readonly code: 'evidence_key_not_in_policy_allowlist';
  readonly key: string;
  /** The first 20 allowed keys, sorted. */
  readonly allowed_keys: readonly string[];
  readonly allowed_key_count: number;
  readonly truncated: boolean;
}

/** `POST /context` (SDK scope): one key/value of a session's context (last write wins). */
export interface ContextRequest {
  readonly session_id: string;
  readonly key: string;
  readonly value: unknown;
}

/**
 * `GET /session/:session_id/state` (SDK scope): what the session store holds, in the original's shape
 * (its Python SDK builds dataclasses from these exact keys and calls anything else malformed); empty when
 * the session is unknown.
 */
export interface SessionStateBody {
  readonly session_id: string;
  /** Unexpired entries by key. */
  readonly evidence: Readonly<Record<string, SessionEvidenceEntry>>;
  readonly context: Readonly<Record<string, unknown>>;
  /** Every tool called (ran) in the session, in order of first call; a success is sticky. */
  readonly completed_tools: readonly CompletedToolEntry[];
}

export interface SessionEvidenceEntry {
  readonly evidence_key: string;
  readonly data: unknown;
  readonly tool_name: string;
  /** When it was written, ISO-8601. */
  readonly timestamp: string;
  /** ISO-8601; null for an entry that does not expire. */
  readonly expires_at: string | null;
}

export interface CompletedToolEntry {
  readonly tool_name: string;
  /** The latest call, ISO-8601. */
  readonly timestamp: string;
  readonly succeeded: boolean;
}
