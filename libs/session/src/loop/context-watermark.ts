/**
 * Context fill, checked before and after every turn: at 85 % of the effective budget one
 * ContextWarning (re-armed by a compaction or a history swap); at 95 % the compactor runs, framed by
 * PreCompact and PostCompact hooks, and a strictly shorter history is swapped in (ContextEdited).
 */
import { CostEstimate, Usage, isProgrammingError } from '@helios/core';
import { ContextCompactor } from '../compaction.js';
import { effectiveContextTokens } from '../limits.js';
import { type Verdict } from '../result-message.js';
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
  const { contextCompactor, costCalculator, model, logger } = core.options;
  const before = [...core.history];
  const tokensBefore = core.historyTokens;
  const pre = await core.decide(run, 'PreCompact', (hook, context) => hook.handle(before, context));
  const input = pre?.outcome.type === 'MutateHistory' ? pre.outcome.messages : before;
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
    run.addUsage(usage, result.modelId ? costCalculator.cost(result.modelId, usage) : CostEstimate.ZERO);
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
