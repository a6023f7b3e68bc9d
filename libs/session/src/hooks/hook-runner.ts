/**
 * Runs one phase's hooks in priority order (ascending, stable) until one decides. Continue, nothing,
 * an outcome the phase does not honour, or an ordinary thrown Error all let the next hook speak; an
 * unexpected programming error propagates and ends the session.
 */
import { isProgrammingError } from '@helios/core';
import { type SessionLogger } from '../logger.js';
import {
  DEFAULT_HOOK_PRIORITY,
  type Hook,
  type HookContext,
  hookName,
  type HookOf,
  type HookPhase,
  type HookReturn,
  phaseName,
} from './hook.js';
import { type HookOutcome, type HookOutcomeKind } from './hook-outcome.js';

export interface HookDecision {
  readonly hookName: string;
  readonly outcome: HookOutcome;
  /** When the deciding hook was invoked, on the caller's clock (0 without one). */
  readonly startTime: number;
}

/** Which outcomes each deciding phase acts on; any other outcome counts as Continue. */
export const HONOURED: Readonly<Record<Exclude<HookPhase, 'OnStreamEvent'>, ReadonlySet<HookOutcomeKind>>> = {
  OnUserMessage: new Set(['MutateText', 'Block', 'Stop']),
  PreModelTurn: new Set(['Stop', 'Inject', 'MutateHistory']),
  PostModelTurn: new Set(['Stop', 'Inject']),
  PreToolUse: new Set(['MutateArgs', 'Block', 'Inject', 'Stop']),
  PostToolUse: new Set(['MutateResult', 'Inject', 'Stop']),
  PreStop: new Set(['Stop', 'Inject']),
  PreCompact: new Set(['MutateHistory']),
  PostCompact: new Set(['Stop']),
};

export type DecidingPhase = keyof typeof HONOURED;

const NO_HOOKS: readonly Hook[] = Object.freeze([]);

export class HookRegistry {
  readonly #byPhase = new Map<HookPhase, Hook[]>();

  constructor(hooks: readonly Hook[]) {
    const ordered = hooks
      .map((hook, index) => ({ hook, index }))
      .sort(
        (a, b) =>
          (a.hook.priority ?? DEFAULT_HOOK_PRIORITY) - (b.hook.priority ?? DEFAULT_HOOK_PRIORITY) ||
          a.index - b.index,
      );
    for (const { hook } of ordered) {
      const list = this.#byPhase.get(hook.type) ?? [];
      list.push(hook);
      this.#byPhase.set(hook.type, list);
    }
  }

  of<P extends HookPhase>(phase: P): readonly HookOf<P>[] {
    return (this.#byPhase.get(phase) ?? NO_HOOKS) as HookOf<P>[];
  }

  has(phase: HookPhase): boolean {
    return this.#byPhase.has(phase);
  }
}

/** Asks the phase's hooks in order; resolves with the first decision, or undefined when all continue. */
export async function decide<P extends DecidingPhase>(
  hooks: readonly HookOf<P>[],
  phase: P,
  context: HookContext,
  invoke: (hook: HookOf<P>, context: HookContext) => HookReturn,
  logger: SessionLogger,
  redactForLog: (error: unknown) => unknown,
  clock?: () => number,
): Promise<HookDecision | undefined> {
  for (const hook of hooks) {
    let outcome: HookOutcome | undefined;
    // Read per hook, so a traced decision spans the deciding hook alone.
    const startTime = clock ? clock() : 0;
    try {
      outcome = await invoke(hook, context);
    } catch (error) {
      if (isProgrammingError(error)) throw error;
      logger.warn(
        `hook ${hookName(hook)} (${phaseName(phase)}) threw; treated as Continue`,
        redactForLog(error),
      );
      continue;
    }
    if (outcome === undefined || outcome === null || outcome.type === 'Continue') continue;
    if (!HONOURED[phase].has(outcome.type)) {
      logger.warn(`hook ${hookName(hook)} returned ${outcome.type}, which ${phaseName(phase)} ignores`);
      continue;
    }
    return { hookName: hookName(hook), outcome, startTime };
  }
  return undefined;
}
