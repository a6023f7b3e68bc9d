/** How a run ended: one closed family, classified in the reference's priority order (see stop-classifier). */
import { type Citation, type CostEstimate, type Usage } from '@helios/core';
import { type SerializedError } from './serialized-error.js';

interface ResultBase {
  readonly sessionId: string;
  readonly runId: string;
  /** Usage of every model call of the run. */
  readonly usage: Usage;
  readonly cost: CostEstimate;
  readonly durationMs: number;
}

export interface Success extends ResultBase {
  readonly type: 'Success';
  readonly result: string;
  /** Session-wide citations, deduplicated by value. */
  readonly citations: readonly Citation[];
}
export interface ErrorMaxTurns extends ResultBase {
  readonly type: 'ErrorMaxTurns';
  readonly turnsUsed: number;
}
export interface ErrorMaxBudgetUsd extends ResultBase {
  readonly type: 'ErrorMaxBudgetUsd';
  readonly microUsdSpent: bigint;
}
export interface ErrorMaxWallClock extends ResultBase {
  readonly type: 'ErrorMaxWallClock';
}
export interface ErrorDuringExecution extends ResultBase {
  readonly type: 'ErrorDuringExecution';
  readonly error: SerializedError;
}
export interface ErrorTransientStream extends ResultBase {
  readonly type: 'ErrorTransientStream';
  readonly providerName: string;
  readonly attemptsMade: number;
  readonly error: SerializedError;
}
export interface Refusal extends ResultBase {
  readonly type: 'Refusal';
  readonly refusalText: string;
}
export interface Cancelled extends ResultBase {
  readonly type: 'Cancelled';
  readonly reason: string;
}

export type ResultMessage =
  | Success
  | ErrorMaxTurns
  | ErrorMaxBudgetUsd
  | ErrorMaxWallClock
  | ErrorDuringExecution
  | ErrorTransientStream
  | Refusal
  | Cancelled;

/** A terminal before the run's totals are attached. */
export type Verdict =
  | { readonly type: 'Success'; readonly result: string }
  | { readonly type: 'ErrorMaxTurns'; readonly turnsUsed: number }
  | { readonly type: 'ErrorMaxBudgetUsd'; readonly microUsdSpent: bigint }
  | { readonly type: 'ErrorMaxWallClock' }
  | { readonly type: 'ErrorDuringExecution'; readonly error: SerializedError }
  | {
      readonly type: 'ErrorTransientStream';
      readonly providerName: string;
      readonly attemptsMade: number;
      readonly error: SerializedError;
    }
  | { readonly type: 'Refusal'; readonly refusalText: string }
  | { readonly type: 'Cancelled'; readonly reason: string };

/** The error text a trace records for a result that is not Success. */
export function describeResult(result: ResultMessage): string | undefined {
  switch (result.type) {
    case 'Success':
      return undefined;
    case 'ErrorMaxTurns':
      return `maxTurns reached after ${result.turnsUsed} turns`;
    case 'ErrorMaxBudgetUsd':
      return `budget exceeded: ${result.microUsdSpent} micro-USD spent`;
    case 'ErrorMaxWallClock':
      return 'maxWallClock exceeded';
    case 'ErrorDuringExecution':
    case 'ErrorTransientStream':
      return `${result.error.kind}: ${result.error.message}`;
    case 'Refusal':
      return `refused: ${result.refusalText}`;
    case 'Cancelled':
      return `cancelled: ${result.reason}`;
    default: {
      const unknown: never = result;
      return unknown;
    }
  }
}
