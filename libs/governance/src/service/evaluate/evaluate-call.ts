/**
 * POST /evaluate as named steps: admit the request (caps) → observe the tool (drift baseline, origin and
 * tool caps) → backlog room → decide (grounding, `decide()`) → judge (rule limits and budgets, held
 * atomically) → to wire → persist: a terminal record now (deny, rate_limited, spend_limited,
 * budget_exceeded, dry_run) or a pending entry (+ a native ticket for require_approval) that /audit
 * finalizes. Holds are placed here, so concurrent calls cannot both take the last slot; /audit turns
 * them into charges only if the call ran.
 *
 * The hot path awaits nothing a store answers synchronously (stores may return plain values), and
 * allocates only the call, its evaluation, its verdict and the body.
 */
import { failure, type EvaluateResult } from '../results.js';
import { appendRecord, type ServiceContext } from '../service-context.js';
import { type EvaluateRequest } from '../../wire/wire-types.js';
import { admitRequest } from './admit-request.js';
import { decideCall, needsGrounding } from './decide-call.js';
import { type Evaluation } from './evaluation.js';
import { judge } from './judge.js';
import { observationFailure, observeTool } from './observe-tool.js';
import {
  approvalTicket,
  awaitsApproval,
  pendingEntry,
  terminalRecord,
  terminalTombstone,
} from './persist.js';
import { toWireBody } from './to-wire.js';

export async function evaluateCall(
  context: ServiceContext,
  request: EvaluateRequest,
): Promise<EvaluateResult> {
  const call = admitRequest(context, request);
  if (call.type === 'Error') return call;
  const observing = observeTool(context, call, request);
  const observed = observing instanceof Promise ? await observing : observing;
  if (observed.type !== 'Observed') return observationFailure(observed);
  const checking = context.stores.pending.hasRoom(call.entryBytes, context.backlogCaps);
  if (!(checking instanceof Promise ? await checking : checking))
    return failure({ error: 'evaluation_backlog_full' });

  const nowMs = context.clock.now();
  const grounding = needsGrounding(context, call.sessionId)
    ? await context.stores.evidence?.grounding(call.sessionId, nowMs)
    : undefined;
  const evaluation: Evaluation = {
    call,
    decision: decideCall(context, call, observed, grounding),
    evaluationId: context.newId(),
    nowMs,
  };
  const judging = judge(context, evaluation);
  const verdict = judging instanceof Promise ? await judging : judging;
  if (verdict.type === 'CapacityExhausted') return failure({ error: 'limit_capacity_exhausted' });

  const body = toWireBody(evaluation, verdict);
  const { stores } = context;
  if (verdict.type !== 'Passed') {
    const record = terminalRecord(context, evaluation, verdict);
    await appendRecord(context, record);
    await stores.pending.remember(terminalTombstone(context, evaluation, record));
    return { type: 'Decided', body };
  }
  const entry = pendingEntry(context, evaluation, verdict);
  const admitting = stores.pending.admit(entry, context.backlogCaps);
  if (!(admitting instanceof Promise ? await admitting : admitting)) {
    // The backlog filled up since the pre-check: nothing is kept, holds included.
    if (verdict.reservationId !== undefined) await stores.limits.release(verdict.reservationId);
    return failure({ error: 'evaluation_backlog_full' });
  }
  if (!awaitsApproval(entry)) return { type: 'Decided', body };
  const ticket = approvalTicket(context, evaluation, verdict, entry);
  await stores.approvals.create(ticket);
  return { type: 'Decided', body: { ...body, approval: { id: ticket.id, timeout_ms: ticket.timeoutMs } } };
}
