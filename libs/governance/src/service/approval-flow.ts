/**
 * POST /approval/:id/resolve for native tickets. Deadlines are applied first, so a resolve that
 * arrives after min(rule timeout, evaluation TTL) deterministically gets `already_resolved`.
 */
import { enforceDeadlines, timeOutIfDue } from './expiry.js';
import { failure, type ResolveApprovalResult } from './results.js';
import { type ServiceContext } from './service-context.js';
import { type ResolveApprovalRequest } from '../wire/wire-types.js';

export async function resolveApproval(
  context: ServiceContext,
  ticketId: string,
  request: ResolveApprovalRequest,
): Promise<ResolveApprovalResult> {
  const needsResolver = request.resolution === 'approved' || request.resolution === 'denied';
  if (needsResolver && (request.resolved_by === undefined || request.resolved_by.trim() === '')) {
    return failure({ error: 'resolved_by_required' });
  }
  const { approvals, pending } = context.stores;
  const ticket = await approvals.get(ticketId);
  if (ticket === undefined) return failure({ error: 'ticket_not_found' });
  if (!ticket.channelName.startsWith('native:')) return failure({ error: 'not_a_native_ticket' });

  const apply = async (): Promise<ResolveApprovalResult> => {
    const entry = ticket.evaluationId === undefined ? undefined : await pending.get(ticket.evaluationId);
    if (entry !== undefined) await enforceDeadlines(context, entry);
    else await timeOutIfDue(context, ticket, context.clock.now());
    const current = await approvals.get(ticketId);
    if (current === undefined || current.status !== 'pending') {
      return failure({ error: 'already_resolved', ...(current ? { status: current.status } : {}) });
    }
    const resolved = await approvals.resolve(ticketId, {
      status: request.resolution,
      resolvedAtMs: context.clock.now(),
      resolvedBy: request.resolved_by,
      // The reason is recorded for denials only.
      denialReason: request.resolution === 'denied' ? request.reason : undefined,
    });
    if (resolved === undefined) return failure({ error: 'already_resolved' });
    return { type: 'Resolved', body: { ok: true } };
  };
  return ticket.evaluationId === undefined ? apply() : context.locks.run(ticket.evaluationId, apply);
}
