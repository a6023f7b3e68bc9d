/**
 * PendingEvaluation ↔ the JSON payload of its row. JSON has no bigint and no undefined, so planned
 * charges carry their amounts as decimal strings and absent optional fields come back as undefined.
 */
import { bucketIdOf, type CommitLatch, type PendingEvaluation, type PlannedCharge } from '@helios/governance';

type EncodedCharge = Omit<PlannedCharge, 'id' | 'amount' | 'limit' | 'budgetName' | 'currency'> & {
  readonly amount: string;
  readonly limit: string;
  readonly budgetName: string | null;
  readonly currency: string | null;
};

export type EncodedPending = Omit<
  PendingEvaluation,
  'charges' | 'commit' | 'reservationId' | 'budgetsAtEvaluate' | 'approvalTicketId'
> & {
  readonly charges: readonly EncodedCharge[];
  readonly reservationId: string | null;
  readonly budgetsAtEvaluate: PendingEvaluation['budgetsAtEvaluate'] | null;
  readonly approvalTicketId: string | null;
};

/**
 * The payload column; the commit latch has its own column (latchCommit updates only that). Field by
 * field, as encodeCharge: this runs for every admitted call.
 */
export function encodePending(entry: PendingEvaluation): EncodedPending {
  return {
    evaluationId: entry.evaluationId,
    auditRecordId: entry.auditRecordId,
    origin: entry.origin,
    agentId: entry.agentId,
    sessionId: entry.sessionId,
    toolName: entry.toolName,
    toolInputJson: entry.toolInputJson,
    metadataJson: entry.metadataJson,
    action: entry.action,
    matchedRuleName: entry.matchedRuleName,
    matchedRuleIndex: entry.matchedRuleIndex,
    flaggedDestructive: entry.flaggedDestructive,
    reservationId: entry.reservationId ?? null,
    charges: entry.charges.map(encodeCharge),
    budgetsAtEvaluate: entry.budgetsAtEvaluate ?? null,
    approvalTicketId: entry.approvalTicketId ?? null,
    timestampIso: entry.timestampIso,
    createdAtMs: entry.createdAtMs,
    expiresAtMs: entry.expiresAtMs,
    bytes: entry.bytes,
  };
}

/**
 * Field by field: a spread plus overrides takes V8's slow path (microseconds per call on Node 20), and
 * the bucket id is left out (the decoder derives it).
 */
function encodeCharge(charge: PlannedCharge): EncodedCharge {
  return {
    key: charge.key,
    role: charge.role,
    epoch: charge.epoch,
    limit: charge.limit.toString(),
    amount: charge.amount.toString(),
    family: charge.family,
    window: charge.window,
    breached: charge.breached,
    currency: charge.currency ?? null,
    onBreach: charge.onBreach,
    budgetName: charge.budgetName ?? null,
    senderScoped: charge.senderScoped,
  };
}

function decodeCharge(charge: EncodedCharge): PlannedCharge {
  return {
    id: bucketIdOf(charge.family, charge.epoch, charge.key),
    key: charge.key,
    role: charge.role,
    epoch: charge.epoch,
    limit: BigInt(charge.limit),
    amount: BigInt(charge.amount),
    family: charge.family,
    window: charge.window,
    breached: charge.breached,
    currency: charge.currency ?? undefined,
    onBreach: charge.onBreach,
    budgetName: charge.budgetName ?? undefined,
    senderScoped: charge.senderScoped,
  };
}

/** A payload written before entries kept their arguments and metadata as JSON text. */
interface LegacyFields {
  readonly toolInput?: unknown;
  readonly metadata?: unknown;
}

export function decodePending(stored: EncodedPending, latch: CommitLatch | null): PendingEvaluation {
  const payload = upgradeLegacy(stored);
  return {
    ...payload,
    reservationId: payload.reservationId ?? undefined,
    budgetsAtEvaluate: payload.budgetsAtEvaluate ?? undefined,
    approvalTicketId: payload.approvalTicketId ?? undefined,
    charges: payload.charges.map(decodeCharge),
    ...(latch === null ? {} : { commit: latch }),
  };
}

/** Rows admitted by an earlier version carry `toolInput` / `metadata` objects: turned into the texts. */
function upgradeLegacy(stored: EncodedPending): EncodedPending {
  if (typeof stored.toolInputJson === 'string') return stored;
  const { toolInput, metadata, ...rest } = stored as EncodedPending & LegacyFields;
  return {
    ...rest,
    toolInputJson: JSON.stringify(toolInput ?? {}),
    metadataJson: metadata === null || metadata === undefined ? null : JSON.stringify(metadata),
  };
}
