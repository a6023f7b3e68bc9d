/**
 * A budget's state as one decision saw it, in the adapter API's snake_case (the `limits.budgets` entries
 * of an evaluate response). A pending evaluation keeps the blocks its decision saw, so a store persists
 * this shape; the audit trail records it as-is.
 */
export interface BudgetBlock {
  readonly name: string;
  readonly limit: number;
  readonly spent: number;
  readonly remaining: number;
  readonly attempted_amount: number | null;
  readonly currency: string;
  readonly window: string;
  readonly on_exceed: 'deny' | 'require_approval';
  readonly allowed: boolean;
  readonly reset_at_ms: number | null;
  readonly reason?: 'invalid_amount';
  /** Present on committed blocks in the audit trail only. */
  readonly kind?: 'spend' | 'approved_overage';
}
