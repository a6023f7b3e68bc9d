/**
 * Context fill, checked before and after every turn: at 85 % of the effective budget one
 * ContextWarning (re-armed by a compaction or a history swap); at 95 % the compactor runs, framed by
 * PreCompact and PostCompact hooks, and a strictly shorter history is swapped in (ContextEdited).
 */
import { CostEstimate, Usage, isProgrammingError } from '@helios/core';
import { ContextCompactor } from '../compaction.js';
import { effectiveContextTokens } from '../limits.js';
import { type Verdict } from '../result-message.js';
import { SerializedError } from '../serialized-error.js';
import { type RunState } from './run-state.js';
import { type SessionCore } from './session-core.js';

export const WARNING_FILL = 0.85;
export const COMPACTION_FILL = 0.95;

/** Whether the history reached the warning watermark (checkContext has something to do). */
export function contextNeedsCare(core: SessionCore): boolean {
  return fillOf(core) >= WARNING_FILL;
}

function fillOf(core: SessionCore): number {
  const { limits, model } = core.options;
  return core.historyTokens / effectiveContextTokens(limits.maxContextTokens, model.contextWindow);
}

export async function checkContext(core: SessionCore, run: RunState): Promise<Verdict | undefined> {
  const { contextCompactor } = core.options;
  const fill = fillOf(core);
  if (fill < WARNING_FILL) return undefined;
  if (!core.contextWarned) {
    core.contextWarned = true;
    core.emit(run, { type: 'ContextWarning', usagePct: fill });
  }
  if (fill < COMPACTION_FILL || ContextCompactor.isDisabled(contextCompactor)) return undefined;
  return compact(core, run);
}

async function compact(core: SessionCore, run: RunState): Promise<Verdict | undefined> {
  const { contextCompactor, model, logger } = core.options;
  const before = [...core.history];
  const tokensBefore = core.historyTokens;
  const pre = await core.decide(run, 'PreCompact', (hook, context) => hook.handle(before, context));
  const input = pre?.outcome.type === 'MutateHistory' ? pre.outcome.messages : before;
  const startTime = run.trace?.now();
  let result;
  try {
    result = await contextCompactor.compact(input, { sessionId: core.sessionId, signal: run.signal, model });
  } catch (error) {
    if (isProgrammingError(error)) throw error;
    logger.warn('context compaction failed; history unchanged', core.redaction.errorForLog(error));
    return undefined;
  }
  const usage = result.usage ?? Usage.ZERO;
  if (usage.totalTokens > 0) {
    const unpriced = chargeCompaction(core, run, { usage, modelId: result.modelId, startTime });
    if (unpriced) return unpriced;
  }
  if (result.history.length >= before.length) return undefined;
  core.replaceHistory(result.history);
  const payload = {
    historyBefore: before,
    historyAfter: [...result.history],
    tokensBefore,
    tokensAfter: core.historyTokens,
    removedBlocks: before.length - result.history.length,
  };
  const post = await core.decide(run, 'PostCompact', (hook, context) => hook.handle(payload, context));
  core.emit(run, {
    type: 'ContextEdited',
    removedBlocks: payload.removedBlocks,
    tokensBefore,
    tokensAfter: payload.tokensAfter,
  });
  return post?.outcome.type === 'Stop' ? { type: 'Success', result: post.outcome.result } : undefined;
}

/** What a compaction's model call spent, by which model (when the compactor says), from when. */
interface CompactionSpend {
  readonly usage: Usage;
  readonly modelId: string | undefined;
  readonly startTime: number | undefined;
}

/**
 * Counts what the compaction's model call spent against the run and traces it as a `model.call` span
 * (purpose `compaction`), so trace totals keep equalling the run's. Tokens without the model that spent
 * them cannot be priced: pricing them at zero would let them past the budget, so the run ends instead.
 */
function chargeCompaction(core: SessionCore, run: RunState, spent: CompactionSpend): Verdict | undefined {
  const { usage, modelId, startTime } = spent;
  const cost = modelId ? core.options.costCalculator.cost(modelId, usage) : CostEstimate.ZERO;
  run.addUsage(usage, cost);
  const span = run.trace
    ?.span('model.call', startTime)
    .attribute('purpose', 'compaction')
    .usage(usage)
    .cost(cost);
  if (modelId) {
    span?.attribute('modelId', modelId).end();
    return undefined;
  }
  const message = `the context compactor reported ${usage.totalTokens} tokens without the id of the model that spent them, so they cannot be priced against the budget`;
  span?.fail(message);
  return { type: 'ErrorDuringExecution', error: SerializedError.ofKind('UnpricedUsage', message) };
}
