/** `approval_tickets` (migration GovernanceStores1764633600000): approval tickets, resolved by compare-and-set. */
import { type TicketStatus } from '@helios/governance';
import { EntitySchema } from 'typeorm';
import { oneOf } from './schema-terms.js';

export interface ApprovalTicketRow {
  readonly id: string;
  readonly evaluationId: string | null;
  readonly channelName: string;
  readonly toolName: string;
  readonly toolInput: unknown;
  readonly matchedRule: string | null;
  readonly ruleIndex: number | null;
  readonly sessionId: string | null;
  readonly requestedAtMs: string;
  readonly timeoutAtMs: string;
  readonly timeoutMs: string;
  readonly status: string;
  readonly breachedBudgets: unknown;
  readonly resolvedAtMs: string | null;
  readonly resolvedBy: string | null;
  readonly denialReason: string | null;
  readonly createdAt: Date;
}

/** Every TicketStatus, in the migration CHECK's order; a status governance adds fails the build here. */
const STATUSES = Object.keys({
  pending: true,
  approved: true,
  denied: true,
  timeout: true,
  cancelled: true,
  break_glass: true,
  client_disconnected: true,
  shutdown_cancelled: true,
} satisfies Record<TicketStatus, true>);

export const ApprovalTicketEntity = new EntitySchema<ApprovalTicketRow>({
  name: 'ApprovalTicket',
  tableName: 'approval_tickets',
  columns: {
    id: { type: 'text', primary: true, primaryKeyConstraintName: 'approval_tickets_pkey' },
    evaluationId: { name: 'evaluation_id', type: 'text', nullable: true },
    channelName: { name: 'channel_name', type: 'text' },
    toolName: { name: 'tool_name', type: 'text' },
    toolInput: { name: 'tool_input', type: 'jsonb' },
    matchedRule: { name: 'matched_rule', type: 'text', nullable: true },
    ruleIndex: { name: 'rule_index', type: 'integer', nullable: true },
    sessionId: { name: 'session_id', type: 'text', nullable: true },
    requestedAtMs: { name: 'requested_at_ms', type: 'bigint' },
    timeoutAtMs: { name: 'timeout_at_ms', type: 'bigint' },
    timeoutMs: { name: 'timeout_ms', type: 'bigint' },
    status: { type: 'text' },
    breachedBudgets: { name: 'breached_budgets', type: 'jsonb', nullable: true },
    resolvedAtMs: { name: 'resolved_at_ms', type: 'bigint', nullable: true },
    resolvedBy: { name: 'resolved_by', type: 'text', nullable: true },
    denialReason: { name: 'denial_reason', type: 'text', nullable: true },
    createdAt: { name: 'created_at', type: 'timestamptz', default: () => 'now()' },
  },
  indices: [
    { name: 'approval_tickets_evaluation_id', columns: ['evaluationId'] },
    { name: 'approval_tickets_requested_at', columns: ['requestedAtMs'] },
  ],
  checks: [{ name: 'approval_tickets_status_check', expression: oneOf('status', STATUSES) }],
});
