/** Approval tickets. Adapter-door tickets are native: the adapter's own UI resolves them. */
export type TicketStatus =
  | 'pending'
  | 'approved'
  | 'denied'
  | 'timeout'
  | 'cancelled'
  | 'break_glass'
  | 'client_disconnected'
  | 'shutdown_cancelled';

export interface BreachedBudget {
  readonly name: string;
  readonly limit: number;
  readonly spent: number;
  readonly attempted_amount: number;
  readonly currency: string;
  readonly window: string;
}

export interface ApprovalTicket {
  readonly id: string;
  readonly evaluationId: string | undefined;
  /** `native:<origin>` for adapter tickets. */
  readonly channelName: string;
  readonly toolName: string;
  readonly toolInput: Readonly<Record<string, unknown>>;
  readonly matchedRule: string | null;
  readonly ruleIndex: number | null;
  readonly sessionId: string | null;
  readonly requestedAtMs: number;
  /** Enforced on access: min(rule or budget timeout, evaluation TTL). */
  readonly timeoutAtMs: number;
  /** The configured timeout, as reported on the wire. */
  readonly timeoutMs: number;
  readonly status: TicketStatus;
  readonly breachedBudgets: readonly BreachedBudget[] | undefined;
  readonly resolvedAtMs?: number;
  readonly resolvedBy?: string;
  readonly denialReason?: string;
}

export interface TicketResolution {
  readonly status: Exclude<TicketStatus, 'pending'>;
  readonly resolvedAtMs: number;
  readonly resolvedBy?: string | undefined;
  readonly denialReason?: string | undefined;
}

export interface ApprovalTicketStore {
  create(ticket: ApprovalTicket): Promise<void>;
  get(ticketId: string): Promise<ApprovalTicket | undefined>;
  /** Compare-and-set from `pending`; undefined when the ticket was not pending (someone resolved first). */
  resolve(ticketId: string, resolution: TicketResolution): Promise<ApprovalTicket | undefined>;
}
