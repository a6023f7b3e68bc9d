/** The budget ledger (`budget_events`) and budget epochs (`budget_meta`). */
import { type BudgetIdentity, type LedgerEntry, RETIRED_BUDGET_IDENTITY } from '@helios/governance';
import { type DataSource } from 'typeorm';
import { BudgetEventEntity } from './entities/budget.entities.js';
import { inTransaction, run, toBigInt } from './sql.js';

export interface LedgerFilter {
  readonly budgetName?: string;
  readonly epoch?: number;
}

/** Ledger rows, oldest first (reporting, exports, tests), through the entity. */
export async function readLedger(dataSource: DataSource, filter: LedgerFilter = {}): Promise<LedgerEntry[]> {
  const rows = await dataSource.getRepository(BudgetEventEntity).find({
    where: {
      ...(filter.budgetName === undefined ? {} : { budgetName: filter.budgetName }),
      ...(filter.epoch === undefined ? {} : { epoch: filter.epoch }),
    },
    order: { id: 'ASC' },
  });
  return rows.map((row) => ({
    budgetName: row.budgetName,
    epoch: row.epoch,
    bucketKey: row.bucketKey,
    kind: row.kind,
    amount: toBigInt(row.amount),
    currency: row.currency,
    toolName: row.toolName,
    origin: row.origin,
    auditRecordId: row.auditRecordId,
    timestampMs: Number(row.timestampMs),
  }));
}

/**
 * Records each budget's identity and returns its epoch: 1 when new, unchanged when the identity is the
 * same, +1 when it changed (the old pot stays in the ledger as history). A budget the policy no longer
 * names is retired, so adding it back later starts a fresh pot (reference §1.7). All in one
 * transaction, so two processes starting together agree on the epochs.
 */
export async function reconcileEpochs(
  dataSource: DataSource,
  budgets: readonly BudgetIdentity[],
): Promise<ReadonlyMap<string, number>> {
  // The last identity given for a name wins (one upsert may not touch a row twice).
  const latest = new Map(budgets.map((budget) => [budget.name, budget.identity]));
  const names = [...latest.keys()];
  const { rows } = await inTransaction(dataSource, async (runner) => {
    // Mirrors governance's retiredBudgetEpoch: a dropped budget keeps its epoch under the retired identity.
    await run(
      runner,
      `UPDATE "budget_meta" SET "identity" = $2, "updated_at" = now()
       WHERE "identity" <> $2 AND NOT ("budget_name" = ANY($1::text[]))`,
      [names, RETIRED_BUDGET_IDENTITY],
    );
    // The epoch expression (1 when new, kept or +1 on conflict) mirrors governance's nextBudgetEpoch.
    return run<{ budget_name: string; epoch: number }>(
      runner,
      `INSERT INTO "budget_meta" AS m ("budget_name", "identity", "epoch")
       SELECT n, i, 1 FROM unnest($1::text[], $2::text[]) AS t(n, i) ORDER BY n
       ON CONFLICT ("budget_name") DO UPDATE SET
         "identity" = EXCLUDED."identity",
         "epoch" = CASE WHEN m."identity" = EXCLUDED."identity" THEN m."epoch" ELSE m."epoch" + 1 END,
         "updated_at" = CASE WHEN m."identity" = EXCLUDED."identity" THEN m."updated_at" ELSE now() END
       RETURNING "budget_name", "epoch"`,
      [names, [...latest.values()]],
    );
  });
  return new Map(rows.map((row) => [row.budget_name, row.epoch]));
}
