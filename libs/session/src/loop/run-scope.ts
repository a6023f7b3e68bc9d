/**
 * What every turn of one run works with, made once per run: the loop's steps take it whole instead of
 * four loose parameters, and passing it costs nothing per turn or per tool call.
 */
import { type Citation, type SessionContext } from '@helios/core';
import { type RunState } from './run-state.js';
import { type SessionCore } from './session-core.js';

export interface RunScope {
  readonly core: SessionCore;
  readonly run: RunState;
  /** The context every tool call of the run derives its own from (the run's signal, the secrets). */
  readonly sessionContext: SessionContext;
  /** The run's citations so far, without duplicates; a Success result carries them. */
  readonly citations: Citation[];
}
