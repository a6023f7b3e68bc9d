/**
 * Runs one tool call, once, never retried: unknown tool, timeout, cancellation and an ordinary thrown
 * Error all become failed results the model sees. The tool gets a signal that fires on the run's
 * cancellation or at its deadline; if it ignores it, the session stops waiting, and whatever the tool
 * does later is logged (or ends the session, if it is an unexpected programming error).
 */
import { isAbortError, type ToolCall, type ToolContext, ToolResult, type SessionContext } from '@helios/core';
import { isProgrammingError } from '../programming-error.js';
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
  const controller = new AbortController();
  const onRunAbort = (): void => controller.abort(run.signal.reason);
  run.signal.addEventListener('abort', onRunAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    controller.abort(new DOMException(`tool '${call.name}' timed out`, 'TimeoutError'));
  }, timeoutMs);
  const context: ToolContext = Object.freeze({
    signal: controller.signal,
    deadline: Date.now() + timeoutMs,
    sessionContext,
  });
  let settled = false;
  try {
    let release: () => void;
    try {
      release = await core.slots.for(binding.category).acquire(controller.signal);
    } catch {
      return timedOut ? timeoutResult(call.name, timeoutMs) : cancelledResult(call.name, run);
    }
    const running = Promise.resolve().then(() => binding.tool.execute(call.arguments, context));
    running.then(
      () => {
        release();
        if (settled)
          core.options.logger.warn(`tool '${call.name}' finished after the session stopped waiting`);
      },
      (error: unknown) => {
        release();
        if (isProgrammingError(error)) core.raiseFatal(error);
        else if (settled && !isAbortError(error)) {
          core.options.logger.warn(
            `tool '${call.name}' failed after the session stopped waiting`,
            core.redaction.errorForLog(error),
          );
        }
      },
    );
    const ending = await race(running, controller.signal, () => timedOut);
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
    clearTimeout(timer);
    run.signal.removeEventListener('abort', onRunAbort);
  }
}

function timeoutResult(name: string, timeoutMs: number): ToolResult {
  return ToolResult.failure(`tool '${name}' timed out after ${timeoutMs} ms`);
}

function cancelledResult(name: string, run: RunState): ToolResult {
  return ToolResult.failure(`tool '${name}' cancelled: ${run.cancelReason()}`);
}

/** The tool's own ending, or the moment its signal fires, whichever comes first. */
function race(running: Promise<ToolResult>, signal: AbortSignal, timedOut: () => boolean): Promise<Ending> {
  const fired = (): Ending => (timedOut() ? { kind: 'timeout' } : { kind: 'cancelled' });
  if (signal.aborted) return Promise.resolve(fired());
  return new Promise<Ending>((resolve) => {
    const onAbort = (): void => resolve(fired());
    signal.addEventListener('abort', onAbort, { once: true });
    running.then(
      (result) => {
        signal.removeEventListener('abort', onAbort);
        resolve({ kind: 'result', result });
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        // A tool that honours its signal rejects with an AbortError: that is the timeout or cancel itself.
        resolve(signal.aborted && !isProgrammingError(error) ? fired() : { kind: 'threw', error });
      },
    );
  });
}
