/**
 * Runs one tool call, once, never retried: unknown tool, timeout, cancellation and an ordinary thrown
 * Error all become failed results the model sees. The tool gets a signal that fires on the run's
 * cancellation or at its deadline; if it ignores it, the session stops waiting, and whatever the tool
 * does later is logged (or ends the session, if it is an unexpected programming error).
 */
import {
  isAbortError,
  isProgrammingError,
  type OwnedToolContext,
  type Tool,
  type ToolCall,
  ToolContext,
  ToolResult,
} from '@helios/core';
import { type RunScope } from './run-scope.js';

/** How the wait for a tool ended. */
type Ending =
  | { readonly kind: 'Result'; readonly result: ToolResult }
  | { readonly kind: 'Threw'; readonly error: unknown }
  | { readonly kind: 'Timeout' }
  | { readonly kind: 'Cancelled' };

const TIMEOUT: Ending = Object.freeze({ kind: 'Timeout' });
const CANCELLED: Ending = Object.freeze({ kind: 'Cancelled' });

export async function dispatchTool(scope: RunScope, call: ToolCall): Promise<ToolResult> {
  const binding = scope.core.bindings.get(call.name);
  if (!binding) return ToolResult.failure(`tool not found: ${call.name}`);
  const timeoutMs = binding.timeoutMs ?? scope.core.options.limits.toolTimeoutDefaultMs;
  const wait = new ToolWait(scope, call, timeoutMs);
  try {
    const slots = scope.core.slots.for(binding.category);
    let release = slots.tryAcquire();
    if (!release) {
      try {
        release = await slots.acquire(wait.context.signal);
      } catch {
        return wait.resultOf(wait.firedEnding());
      }
    }
    return wait.resultOf(await wait.run(binding.tool, release));
  } finally {
    wait.stopWaiting();
  }
}

/**
 * The wait for one call: its context (which fires on the run's cancellation or at the deadline) and
 * the one promise that ends at the tool's own ending or the moment the context fires.
 */
class ToolWait {
  readonly context: OwnedToolContext;
  /** Resolves the wait's promise once `run` made it; the context firing ends the wait at once. */
  #settle: ((ending: Ending) => void) | undefined;
  #fired = false;
  /** The session stopped waiting: what the tool does from now on is only logged. */
  #stoppedWaiting = false;

  constructor(
    private readonly scope: RunScope,
    private readonly call: ToolCall,
    private readonly timeoutMs: number,
  ) {
    this.context = ToolContext.create(scope.sessionContext, {
      timeoutMs,
      now: Date.now(),
      onAbort: this.#onFire,
    });
  }

  readonly #onFire = (): void => {
    this.#fired = true;
    this.#settle?.(this.firedEnding());
  };

  firedEnding(): Ending {
    return ToolContext.timedOut(this.context) ? TIMEOUT : CANCELLED;
  }

  run(tool: Tool, releaseSlot: () => void): Promise<Ending> {
    return new Promise<Ending>((resolve) => {
      this.#settle = resolve;
      if (this.#fired) {
        // Cancelled or timed out before the tool started (e.g. during an async PreToolUse hook): the
        // slot taken for it goes back, or the next call would wait for a tool that never ran.
        releaseSlot();
        resolve(this.firedEnding());
        return;
      }
      let running: Promise<ToolResult>;
      try {
        running = tool.execute(this.call.arguments, this.context);
      } catch (error) {
        running = Promise.reject(error as Error);
      }
      running.then(
        (result) => {
          releaseSlot();
          this.#finished(result, resolve);
        },
        (error: unknown) => {
          releaseSlot();
          this.#failed(error, resolve);
        },
      );
    });
  }

  #finished(result: ToolResult, resolve: (ending: Ending) => void): void {
    if (this.#stoppedWaiting) {
      this.scope.core.options.logger.warn(
        `tool '${this.call.name}' finished after the session stopped waiting`,
      );
    } else resolve({ kind: 'Result', result });
  }

  #failed(error: unknown, resolve: (ending: Ending) => void): void {
    const { core } = this.scope;
    if (isProgrammingError(error)) core.raiseFatal(error);
    else if (this.#stoppedWaiting && !isAbortError(error)) {
      core.options.logger.warn(
        `tool '${this.call.name}' failed after the session stopped waiting`,
        core.redaction.errorForLog(error),
      );
    }
    // A tool that honours its signal rejects with an AbortError: that is the timeout or cancel itself.
    resolve(this.#fired && !isProgrammingError(error) ? this.firedEnding() : { kind: 'Threw', error });
  }

  resultOf(ending: Ending): ToolResult {
    const name = this.call.name;
    switch (ending.kind) {
      case 'Result':
        return ending.result;
      case 'Timeout':
        return ToolResult.failure(`tool '${name}' timed out after ${this.timeoutMs} ms`);
      case 'Cancelled':
        return ToolResult.failure(`tool '${name}' cancelled: ${this.scope.run.cancelReason()}`);
      case 'Threw': {
        const error = ending.error;
        if (isProgrammingError(error)) throw error;
        return ToolResult.failure(
          `tool '${name}' threw: ${error instanceof Error ? error.message : String(error)}`,
        );
      }
      default: {
        const unknown: never = ending;
        return unknown;
      }
    }
  }

  stopWaiting(): void {
    this.#stoppedWaiting = true;
    this.context[Symbol.dispose](); // explicit: `using` compiles to helper allocations on every call
  }
}
