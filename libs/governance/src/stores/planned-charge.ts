/**
 * A charge planned at /evaluate: the bucket check the call was held on, plus what /audit needs to
 * commit it. Kept with the pending evaluation (stores persist it as-is) until the call is audited.
 */
import { type BucketCheck } from './limit-store.js';

/** Which limit the charge feeds: the matched rule's rate or spend limit, or a budget. */
export type ChargeRole = 'rate' | 'spend' | 'budget';

export interface PlannedCharge extends BucketCheck {
  readonly role: ChargeRole;
  readonly budgetName: string | undefined;
  readonly currency: string | undefined;
  /** Set after the gate: a break-glass budget that was over its limit at /evaluate. */
  readonly breached: boolean;
}
