/**
 * Decides after each turn whether the run is over, in the reference's priority order: wall clock,
 * budget, cancellation, maxTurns, then the finish reason. Undefined means "run another turn".
 */
import { FinishReason, TransientStreamError } from '@helios/core';
import { type Verdict } from '../result-message.js';
import { SerializedError } from '../serialized-error.js';
import { type RunState } from './run-state.js';
import { type SessionCore } from './session-core.js';

export interface TurnOutcome {
  /** Undefined when the turn was cancelled before it finished. */
  readonly finish: FinishReason | undefined;
  readonly content: string;
  readonly error?: unknown;
  readonly attempts: number;
}

/** A Stop while messages wait in the run's steering queue is not the end: they are the next turn. */
export function classify(core: SessionCore, run: RunState, outcome: TurnOutcome): Verdict | undefined {
  const limits = core.options.limits;
  const now = Date.now();
  const serialize = core.redactError;
  const redact = core.redactText;
  if (now - run.startedAt > limits.maxWallClockMs || run.wallClockFired())
    return { type: 'ErrorMaxWallClock' };
  if (limits.maxBudgetMicroUsd !== undefined && run.cost.microUsd > limits.maxBudgetMicroUsd) {
    return { type: 'ErrorMaxBudgetUsd', microUsdSpent: run.cost.microUsd };
  }
  if (run.signal.aborted) return { type: 'Cancelled', reason: run.cancelReason() };
  if (run.turns >= limits.maxTurns) return { type: 'ErrorMaxTurns', turnsUsed: run.turns };
  switch (outcome.finish) {
    case undefined:
      return { type: 'Cancelled', reason: run.cancelReason() };
    case FinishReason.CONTENT_FILTER:
    case FinishReason.REFUSAL:
      return { type: 'Refusal', refusalText: redact(outcome.content) || '[refused without text]' };
    case FinishReason.ERROR: {
      const cause = outcome.error;
      if (cause instanceof TransientStreamError) {
        return {
          type: 'ErrorTransientStream',
          providerName: cause.providerName,
          attemptsMade: outcome.attempts,
          error: serialize(cause),
        };
      }
      if (cause !== undefined) return { type: 'ErrorDuringExecution', error: serialize(cause) };
      return {
        type: 'ErrorDuringExecution',
        error: SerializedError.ofKind('ProviderError', 'the model ended its turn with an error'),
      };
    }
    case FinishReason.STOP:
      return run.queue.length > 0 ? undefined : { type: 'Success', result: outcome.content };
    case FinishReason.LENGTH:
      return {
        type: 'ErrorDuringExecution',
        error: SerializedError.ofKind(
          'max-tokens',
          `the answer was truncated at the model's output limit (raise maxOutputTokens); partial content: ${redact(outcome.content)}`,
        ),
      };
    case FinishReason.TOOL_CALLS:
      return undefined;
    default: {
      const unknown: never = outcome.finish;
      return unknown;
    }
  }
}
