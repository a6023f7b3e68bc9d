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
  // Fires on the run's cancellation or at the deadline; disposing it clears the timer and the listener.
  let fire: () => void = () => undefined;
  let fired = false;
  const aborted = new Promise<void>((resolve) => (fire = resolve));
  const context = ToolContext.create(sessionContext, timeoutMs, Date.now(), () => {
    fired = true;
    fire();
  });
  const timedOut = (): boolean => ToolContext.timedOut(context);
  let settled = false;
  try {
    const slots = core.slots.for(binding.category);
    let release = slots.tryAcquire();
    if (!release) {
      try {
        release = await slots.acquire(context.signal);
      } catch {
        return timedOut() ? timeoutResult(call.name, timeoutMs) : cancelledResult(call.name, run);
      }
    }
    const releaseSlot = release;
    const running = Promise.resolve().then(() => binding.tool.execute(call.arguments, context));
    running.then(
      () => {
        releaseSlot();
        if (settled)
          core.options.logger.warn(`tool '${call.name}' finished after the session stopped waiting`);
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
      },
    );
    const ending = await race(running, aborted, () => fired, timedOut);
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

/** The tool's own ending, or the moment its signal fires (`aborted`), whichever comes first. */
function race(
  running: Promise<ToolResult>,
  aborted: Promise<void>,
  hasFired: () => boolean,
  timedOut: () => boolean,
): Promise<Ending> {
  const fired = (): Ending => (timedOut() ? { kind: 'timeout' } : { kind: 'cancelled' });
  return Promise.race([
    aborted.then(fired),
    running.then(
      (result): Ending => ({ kind: 'result', result }),
      // A tool that honours its signal rejects with an AbortError: that is the timeout or cancel itself.
      (error: unknown): Ending =>
        hasFired() && !isProgrammingError(error) ? fired() : { kind: 'threw', error },
    ),
  ]);
}
