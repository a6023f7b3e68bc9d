/** In-memory approval tickets (tests, single-process embedding). */
import {
  type ApprovalTicket,
  type ApprovalTicketStore,
  type TicketResolution,
} from '../approval-ticket-store.js';

export class MemoryApprovalTicketStore implements ApprovalTicketStore {
  private readonly tickets = new Map<string, ApprovalTicket>();

  create(ticket: ApprovalTicket): Promise<void> {
    this.tickets.set(ticket.id, ticket);
    return Promise.resolve();
  }

  get(ticketId: string): Promise<ApprovalTicket | undefined> {
    return Promise.resolve(this.tickets.get(ticketId));
  }

  resolve(ticketId: string, resolution: TicketResolution): Promise<ApprovalTicket | undefined> {
    const ticket = this.tickets.get(ticketId);
    if (ticket === undefined || ticket.status !== 'pending') return Promise.resolve(undefined);
    const resolved: ApprovalTicket = {
      ...ticket,
      status: resolution.status,
      resolvedAtMs: resolution.resolvedAtMs,
      ...(resolution.resolvedBy === undefined ? {} : { resolvedBy: resolution.resolvedBy }),
      ...(resolution.denialReason === undefined ? {} : { denialReason: resolution.denialReason }),
    };
    this.tickets.set(ticketId, resolved);
    return Promise.resolve(resolved);
  }
}
