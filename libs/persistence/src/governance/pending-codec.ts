/**
 * PendingEvaluation ↔ the JSON payload of its row. JSON has no bigint and no undefined, so planned
 * charges carry their amounts as decimal strings and absent optional fields come back as undefined.
 */
import { type CommitLatch, type PendingEvaluation, type PlannedCharge } from '@helios/governance';

type EncodedCharge = Omit<PlannedCharge, 'amount' | 'limit' | 'budgetName' | 'currency'> & {
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

/** The payload column; the commit latch has its own column (latchCommit updates only that). */
export function encodePending(entry: PendingEvaluation): EncodedPending {
  const { commit: _commit, ...rest } = entry;
  return {
    ...rest,
    reservationId: entry.reservationId ?? null,
    budgetsAtEvaluate: entry.budgetsAtEvaluate ?? null,
    approvalTicketId: entry.approvalTicketId ?? null,
    charges: entry.charges.map((charge) => ({
      ...charge,
      amount: charge.amount.toString(),
      limit: charge.limit.toString(),
      budgetName: charge.budgetName ?? null,
      currency: charge.currency ?? null,
    })),
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
    charges: payload.charges.map((charge) => ({
      ...charge,
      amount: BigInt(charge.amount),
      limit: BigInt(charge.limit),
      budgetName: charge.budgetName ?? undefined,
      currency: charge.currency ?? undefined,
    })),
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
