/** Approval tickets on PostgreSQL; `resolve` is a compare-and-set in one UPDATE (exactly one resolver wins). */
import {
  type ApprovalTicket,
  type ApprovalTicketStore,
  type BreachedBudget,
  type TicketResolution,
  type TicketStatus,
} from '@helios/governance';
import { type DataSource } from 'typeorm';
import { runPooled, toMs } from './sql.js';

interface TicketRow {
  readonly id: string;
  readonly evaluation_id: string | null;
  readonly channel_name: string;
  readonly tool_name: string;
  readonly tool_input: Record<string, unknown>;
  readonly matched_rule: string | null;
  readonly rule_index: number | null;
  readonly session_id: string | null;
  readonly requested_at_ms: string;
  readonly timeout_at_ms: string;
  readonly timeout_ms: string;
  readonly status: TicketStatus;
  readonly breached_budgets: BreachedBudget[] | null;
  readonly resolved_at_ms: string | null;
  readonly resolved_by: string | null;
  readonly denial_reason: string | null;
}

export class PgApprovalTicketStore implements ApprovalTicketStore {
  constructor(private readonly dataSource: DataSource) {}

  async create(ticket: ApprovalTicket): Promise<void> {
    await runPooled(
      this.dataSource,
      `INSERT INTO "approval_tickets" ("id", "evaluation_id", "channel_name", "tool_name", "tool_input",
         "matched_rule", "rule_index", "session_id", "requested_at_ms", "timeout_at_ms", "timeout_ms", "status",
         "breached_budgets", "resolved_at_ms", "resolved_by", "denial_reason")
       VALUES ($1, $2, $3, $4, $5::jsonb, $6, $7, $8, $9, $10, $11, $12, $13::jsonb, $14, $15, $16)`,
      [
        ticket.id,
        ticket.evaluationId ?? null,
        ticket.channelName,
        ticket.toolName,
        JSON.stringify(ticket.toolInput),
        ticket.matchedRule,
        ticket.ruleIndex,
        ticket.sessionId,
        ticket.requestedAtMs,
        ticket.timeoutAtMs,
        ticket.timeoutMs,
        ticket.status,
        ticket.breachedBudgets === undefined ? null : JSON.stringify(ticket.breachedBudgets),
        ticket.resolvedAtMs ?? null,
        ticket.resolvedBy ?? null,
        ticket.denialReason ?? null,
      ],
    );
  }

  async get(ticketId: string): Promise<ApprovalTicket | undefined> {
    const { rows } = await runPooled<TicketRow>(
      this.dataSource,
      `SELECT * FROM "approval_tickets" WHERE "id" = $1`,
      [ticketId],
    );
    return rows[0] && toTicket(rows[0]);
  }

  async resolve(ticketId: string, resolution: TicketResolution): Promise<ApprovalTicket | undefined> {
    // A racing resolver blocks on the row lock, then re-tests `status = 'pending'` and updates nothing.
    const { rows } = await runPooled<TicketRow>(
      this.dataSource,
      `UPDATE "approval_tickets"
       SET "status" = $2, "resolved_at_ms" = $3, "resolved_by" = $4, "denial_reason" = $5
       WHERE "id" = $1 AND "status" = 'pending'
       RETURNING *`,
      [
        ticketId,
        resolution.status,
        resolution.resolvedAtMs,
        resolution.resolvedBy ?? null,
        resolution.denialReason ?? null,
      ],
    );
    return rows[0] && toTicket(rows[0]);
  }
}

function toTicket(row: TicketRow): ApprovalTicket {
  const resolvedAtMs = toMs(row.resolved_at_ms);
  return {
    id: row.id,
    evaluationId: row.evaluation_id ?? undefined,
    channelName: row.channel_name,
    toolName: row.tool_name,
    toolInput: row.tool_input,
    matchedRule: row.matched_rule,
    ruleIndex: row.rule_index,
    sessionId: row.session_id,
    requestedAtMs: Number(row.requested_at_ms),
    timeoutAtMs: Number(row.timeout_at_ms),
    timeoutMs: Number(row.timeout_ms),
    status: row.status,
    breachedBudgets: row.breached_budgets ?? undefined,
    // Optional fields are absent, not undefined, exactly as the in-memory store leaves them.
    ...(resolvedAtMs === null ? {} : { resolvedAtMs }),
    ...(row.resolved_by === null ? {} : { resolvedBy: row.resolved_by }),
    ...(row.denial_reason === null ? {} : { denialReason: row.denial_reason }),
  };
}
