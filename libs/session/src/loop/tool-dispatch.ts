/**
 * Runs one tool call, once, never retried: unknown tool, timeout, cancellation and an ordinary thrown
 * Error all become failed results the model sees. The tool gets a signal that fires on the run's
 * cancellation or at its deadline; if it ignores it, the session stops waiting, and whatever the tool
 * does later is logged (or ends the session, if it is an unexpected programming error).
 */
import {
  isAbortError,
  type ToolCall,
  ToolContext,
  ToolResult,
  type SessionContext,
  isProgrammingError,
} from '@helios/core';
import { type RunState } from './run-state.js';
import { type SessionCore } from './session-core.js';

type Ending =
  | { readonly kind: 'result'; readonly result: ToolResult }
  | { readonly kind: 'threw'; readonly error: unknown }
  | { readonly kind: 'timeout' }
  | { readonly kind: 'cancelled' };

export async function dispatchTool(
  core: SessionCore,
  run: RunState,
  call: ToolCall,
  sessionContext: SessionContext,
): Promise<ToolResult> {
  const binding = core.bindings.get(call.name);
  if (!binding) return ToolResult.failure(`tool not found: ${call.name}`);
  const timeoutMs = binding.timeoutMs ?? core.options.limits.toolTimeoutDefaultMs;
  // The context fires on the run's cancellation or at the deadline; `settle` ends the wait at once.
  let settle: ((ending: Ending) => void) | undefined;
  let fired = false;
  const onFire = (): void => {
    fired = true;
    settle?.(firedEnding());
  };
  const context = ToolContext.create(sessionContext, timeoutMs, Date.now(), onFire);
  const firedEnding = (): Ending =>
    ToolContext.timedOut(context) ? { kind: 'timeout' } : { kind: 'cancelled' };
  let settled = false;
  try {
    const slots = core.slots.for(binding.category);
    let release = slots.tryAcquire();
    if (!release) {
      try {
        release = await slots.acquire(context.signal);
      } catch {
        return ToolContext.timedOut(context)
          ? timeoutResult(call.name, timeoutMs)
          : cancelledResult(call.name, run);
      }
    }
    const releaseSlot = release;
    // One promise for the whole wait: the tool's own ending, or the moment its context fires.
    const ending = await new Promise<Ending>((resolve) => {
      settle = resolve;
      if (fired) {
        resolve(firedEnding());
        return;
      }
      let running: Promise<ToolResult>;
      try {
        running = binding.tool.execute(call.arguments, context);
      } catch (error) {
        running = Promise.reject(error as Error);
      }
      running.then(
        (result) => {
          releaseSlot();
          if (settled)
            core.options.logger.warn(`tool '${call.name}' finished after the session stopped waiting`);
          else resolve({ kind: 'result', result });
        },
        (error: unknown) => {
          releaseSlot();
          if (isProgrammingError(error)) core.raiseFatal(error);
          else if (settled && !isAbortError(error)) {
            core.options.logger.warn(
              `tool '${call.name}' failed after the session stopped waiting`,
              core.redaction.errorForLog(error),
            );
          }
          // A tool that honours its signal rejects with an AbortError: that is the timeout or cancel itself.
          resolve(fired && !isProgrammingError(error) ? firedEnding() : { kind: 'threw', error });
        },
      );
    });
    switch (ending.kind) {
      case 'result':
        return ending.result;
      case 'timeout':
        return timeoutResult(call.name, timeoutMs);
      case 'cancelled':
        return cancelledResult(call.name, run);
      case 'threw': {
        const error = ending.error;
        if (isProgrammingError(error)) throw error;
        return ToolResult.failure(
          `tool '${call.name}' threw: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      default: {
        const unknown: never = ending;
        return unknown;
      }
    }
  } finally {
    settled = true;
    context[Symbol.dispose](); // explicit: `using` compiles to helper allocations on every call
  }
}

function timeoutResult(name: string, timeoutMs: number): ToolResult {
  return ToolResult.failure(`tool '${name}' timed out after ${timeoutMs} ms`);
}

function cancelledResult(name: string, run: RunState): ToolResult {
  return ToolResult.failure(`tool '${name}' cancelled: ${run.cancelReason()}`);
}
