/**
 * What a committed /audit recorded before anything else could fail: the hash of its payload (a retry
 * with another payload is a conflict) and the commit's inputs, from which the evidence chain is rebuilt
 * (the limit store's commit latch answers the first commit's snapshots again). Latches written before
 * this shape carry the chain itself (`evidenceChain`) and are used as they are.
 */
export interface CommitLatch {
  readonly payloadHash: string;
  /** The `actual_amount` charged, in micro-units as a decimal string; null when none was sent. */
  readonly actualAmount?: string | null;
  /** Earlier latches: the chain as the first /audit built it. */
  readonly evidenceChain?: Readonly<Record<string, unknown>> | null;
}
