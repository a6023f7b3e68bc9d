/**
 * What the loop calls when the context passes 95 % of its budget. The default is a SummarizingCompactor;
 * `disabled()` leaves the history as it is (a long session overflows and the provider's error ends it).
 */
import { type Message, type Model, type Usage } from '@helios/core';

export interface CompactionContext {
  readonly sessionId: string;
  readonly signal: AbortSignal;
  readonly model: Model;
}

export interface CompactionResult {
  readonly history: readonly Message[];
  /** Tokens the compaction itself spent (a summary call); counted against the run's budget. */
  readonly usage?: Usage;
  /** The model that spent `usage`, for pricing; required when usage is not zero. */
  readonly modelId?: string;
}

export interface ContextCompactor {
  /** Only a strictly shorter history is swapped in. */
  compact(history: readonly Message[], context: CompactionContext): Promise<CompactionResult>;
}

const DISABLED: ContextCompactor = Object.freeze({
  compact: (history: readonly Message[]) => Promise.resolve({ history }),
});

export const ContextCompactor = {
  disabled: (): ContextCompactor => DISABLED,
  isDisabled: (compactor: ContextCompactor): boolean => compactor === DISABLED,
} as const;
