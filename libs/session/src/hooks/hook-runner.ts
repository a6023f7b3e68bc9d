/**
 * Runs one phase's hooks in priority order (ascending, stable) until one decides: the first outcome
 * other than Continue ends the chain, also one the phase does not honour (the phase then acts on it as
 * on Continue, and a warning says so). Continue, nothing, or an ordinary thrown Error let the next hook
 * speak; an unexpected programming error propagates and ends the session.
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

/** Which outcomes each deciding phase acts on; any other outcome still decides, and the phase ignores it. */
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

/** What `decide` needs besides the hooks: where to log, how to redact for the log, the trace clock. */
export interface DecideEnvironment {
  readonly logger: SessionLogger;
  readonly redactForLog: (error: unknown) => unknown;
  readonly clock: (() => number) | undefined;
}

/**
 * Asks the phase's hooks in order; the first decision, or undefined when all continue. It answers
 * synchronously while the hooks do, and becomes a promise at the first hook that returns one: an
 * `await` per hook per phase was a measurable part of every turn.
 */
export function decide<P extends DecidingPhase>(
  hooks: readonly HookOf<P>[],
  phase: P,
  context: HookContext,
  invoke: (hook: HookOf<P>, context: HookContext) => HookReturn,
  environment: DecideEnvironment,
  from = 0,
): HookDecision | undefined | Promise<HookDecision | undefined> {
  for (let index = from; index < hooks.length; index += 1) {
    const hook = hooks[index] as HookOf<P>;
    // Read per hook, so a traced decision spans the deciding hook alone.
    const startTime = environment.clock ? environment.clock() : 0;
    let returned: HookReturn;
    try {
      returned = invoke(hook, context);
    } catch (error) {
      tolerate(hook, phase, error, environment);
      continue;
    }
    if (returned instanceof Promise) {
      return decideLater(returned, hooks, phase, context, invoke, environment, index, startTime);
    }
    const decision = judge(hook, phase, returned, startTime, environment);
    if (decision) return decision;
  }
  return undefined;
}

/**
 * The rest of `decide` once hook `index` answered with a promise. A function of its own, so that the
 * synchronous path allocates no closure context for it.
 */
function decideLater<P extends DecidingPhase>(
  returned: Promise<HookOutcome | undefined>,
  hooks: readonly HookOf<P>[],
  phase: P,
  context: HookContext,
  invoke: (hook: HookOf<P>, context: HookContext) => HookReturn,
  environment: DecideEnvironment,
  index: number,
  startTime: number,
): Promise<HookDecision | undefined> {
  const hook = hooks[index] as HookOf<P>;
  const next = (): HookDecision | undefined | Promise<HookDecision | undefined> =>
    decide(hooks, phase, context, invoke, environment, index + 1);
  return returned.then(
    (outcome) => judge(hook, phase, outcome, startTime, environment) ?? next(),
    (error: unknown) => {
      tolerate(hook, phase, error, environment);
      return next();
    },
  );
}

/** A hook's ordinary failure counts as Continue (logged); an unexpected programming error propagates. */
function tolerate(hook: Hook, phase: DecidingPhase, error: unknown, environment: DecideEnvironment): void {
  if (isProgrammingError(error)) throw error;
  environment.logger.warn(
    `hook ${hookName(hook)} (${phaseName(phase)}) threw; treated as Continue`,
    environment.redactForLog(error),
  );
}

/** The decision an outcome makes, or undefined when it lets the next hook speak (Continue, nothing). */
function judge(
  hook: Hook,
  phase: DecidingPhase,
  outcome: HookOutcome | undefined | null,
  startTime: number,
  environment: DecideEnvironment,
): HookDecision | undefined {
  if (outcome === undefined || outcome === null || outcome.type === 'Continue') return undefined;
  if (!HONOURED[phase].has(outcome.type)) {
    environment.logger.warn(
      `hook ${hookName(hook)} returned ${outcome.type}, which ${phaseName(phase)} ignores; later hooks are not asked`,
    );
  }
  return { hookName: hookName(hook), outcome, startTime };
}
