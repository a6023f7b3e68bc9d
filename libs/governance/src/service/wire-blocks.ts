/** Store snapshots rendered as the seed's `limits` blocks (money back in decimal units, epoch-ms resets). */
import { type RuleLimit, type CompiledBudget } from '../engine/compiled-policy.js';
import { type BucketSnapshot } from '../stores/limit-store.js';
import { fromMicroUnits } from '../util/money.js';
import { type BudgetBlock, type RateBlock, type SpendBlock } from '../wire/wire-types.js';

/** `current` is projected (includes this call) when allowed, as-is when blocked. */
export function rateBlock(limit: Extract<RuleLimit, { type: 'rate' }>, snapshot: BucketSnapshot): RateBlock {
  return {
    current: Number(snapshot.allowed ? snapshot.used + 1n : snapshot.used),
    limit: limit.maxCalls,
    window_ms: limit.windowMs,
    reset_at_ms: snapshot.resetAtMs ?? 0,
  };
}

export function spendBlock(
  limit: Extract<RuleLimit, { type: 'spend' }>,
  amount: bigint,
  snapshot: BucketSnapshot,
): SpendBlock {
  return {
    current_spend: fromMicroUnits(snapshot.allowed ? snapshot.used + amount : snapshot.used),
    limit: fromMicroUnits(limit.limit),
    currency: limit.currency,
    window_ms: limit.windowMs,
    reset_at_ms: snapshot.resetAtMs ?? 0,
  };
}

export function invalidSpendBlock(limit: Extract<RuleLimit, { type: 'spend' }>): SpendBlock {
  return { reason: 'invalid_amount', limit: fromMicroUnits(limit.limit), currency: limit.currency };
}

export function budgetBlock(
  budget: CompiledBudget,
  amount: bigint | undefined,
  snapshot: BucketSnapshot,
  kind?: 'spend' | 'approved_overage',
): BudgetBlock {
  const remaining = budget.limit > snapshot.used ? budget.limit - snapshot.used : 0n;
  // Key by key in the wire order, not spreads around a literal: V8 builds `{ ...{ kind }, more }` on a
  // slow path (about a microsecond per key on Node 20), and every metered call renders two of these.
  const block: { -readonly [K in keyof BudgetBlock]: BudgetBlock[K] } = {} as BudgetBlock;
  if (kind !== undefined) block.kind = kind;
  block.name = budget.name;
  block.limit = fromMicroUnits(budget.limit);
  block.spent = fromMicroUnits(snapshot.used);
  block.remaining = fromMicroUnits(remaining);
  block.attempted_amount = amount === undefined ? null : fromMicroUnits(amount);
  block.currency = budget.currency;
  block.window = budget.windowText;
  block.on_exceed = budget.onExceed;
  block.allowed = amount !== undefined && snapshot.allowed;
  if (amount === undefined) block.reason = 'invalid_amount';
  block.reset_at_ms = snapshot.resetAtMs;
  return block;
}
