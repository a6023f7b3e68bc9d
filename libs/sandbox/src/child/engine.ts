/**
 * The snippet engine: QuickJS-NG compiled to WebAssembly (quickjs-wasi), one VM for the sandbox's whole
 * life so top-level declarations persist between executes. The VM has no `process`, `require`, file,
 * network or timer API; what it can reach of the outside is the prelude's two native functions.
 *
 * Limits: the VM's own allocator limit (the WASM heap, ArrayBuffers included), a native stack cap, and
 * an interrupt handler that stops the snippet at its deadline — also while promise jobs drain, which
 * run under the same deadline. A failure inside the VM (out of memory, stack overflow, interrupt)
 * comes back as an error text and leaves the VM usable; the VM is never disposed (the process is killed).
 */
import { EvalFlags, JSException, type JSValueHandle, QuickJS } from 'quickjs-wasi';
import { PRELUDE_SOURCE } from './prelude-source.js';
import { type HostFunctionShape, type OutputStream } from './protocol.js';

export interface EngineOptions {
  /** The engine's WebAssembly binary (quickjs-wasi/quickjs.wasm). */
  readonly wasm: Uint8Array;
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
  readonly hostFunctions: readonly HostFunctionShape[];
  readonly write: (stream: OutputStream, text: string) => void;
  /** Runs a host function synchronously: JSON arguments in, JSON result out; throws its refusal. */
  readonly callHost: (name: string, argsJson: string) => string;
  /** Checked at every interrupt poll: true ends the snippet as if its deadline had passed. */
  readonly shouldStop?: () => boolean;
}

export type RunOutcome =
  | { readonly type: 'Completed'; readonly value?: string }
  | { readonly type: 'Failed'; readonly error: string; readonly timedOut: boolean };

/** How a run ended, with the rejections nobody handled by its end (`Uncaught (in promise) …` lines). */
export type RunResult = RunOutcome & { readonly rejections: readonly string[] };

/**
 * How long leftover promise jobs are given to die out after their snippet was stopped. Each round
 * stops the job running at the next interrupt poll; a chain ends when that is the job that would
 * queue the next link, which takes a round or a few. Well inside the default stop grace of 5 s.
 */
const DISCARD_BUDGET_MS = 500;
/** QuickJS consults the interrupt handler once per this many calls and backward jumps. */
const POLL_INTERVAL = 10_000;

/** Thrown into the snippet by a native function: an Error with no host stack (paths never leak in). */
export function guestError(message: string): Error {
  const error = new Error(message);
  error.stack = '';
  return error;
}

export class Engine {
  readonly #vm: QuickJS;
  readonly #show: JSValueHandle;
  /**
   * Rejected promises nobody handled yet, by identity, with their reasons (rendered at the end of the
   * run). The promise is held too, so its identity (an address) cannot be reused meanwhile.
   */
  readonly #rejections = new Map<
    number,
    { readonly promise: JSValueHandle; readonly reason: JSValueHandle }
  >();
  #deadline = Number.POSITIVE_INFINITY;
  #timeoutMs = 0;
  #discarding = false;
  #shifting = false;
  #jobsLeft = false;

  private constructor(vm: QuickJS, show: JSValueHandle) {
    this.#vm = vm;
    this.#show = show;
  }

  static async create(options: EngineOptions): Promise<Engine> {
    const holder: { engine?: Engine } = {};
    const stop = options.shouldStop ?? (() => false);
    const vm = await QuickJS.create({
      wasm: options.wasm,
      memoryLimit: options.memoryLimitBytes,
      maxStackSize: options.maxStackBytes,
      // Only a running snippet is stopped: the prelude and the time between executes are never cut.
      interruptHandler: () => {
        const engine = holder.engine;
        if (engine === undefined || engine.#deadline === Number.POSITIVE_INFINITY) return false;
        if (engine.#shifting) return false;
        return engine.#discarding || Date.now() > engine.#deadline || stop();
      },
      onUnhandledRejection: (promise: JSValueHandle, reason: JSValueHandle, handled: boolean) => {
        if (holder.engine !== undefined) holder.engine.#onRejection(promise, reason, handled);
      },
    });
    const show = installPrelude(vm, options);
    holder.engine = new Engine(vm, show);
    return holder.engine;
  }

  get versions(): Readonly<Record<string, string>> {
    return this.#vm.versions;
  }

  /**
   * Evaluates `code` in the global scope (with top-level await when `topLevelAwait`), drains the
   * promise jobs it queued — also when the evaluation threw, as an event loop would — and renders the
   * completion value, all before `timeoutMs` passes. When the drain was cut short, the jobs still
   * queued are discarded so they cannot run into the next snippet; `jobsLeft` says some kept coming.
   */
  async run(code: string, timeoutMs: number, topLevelAwait: boolean): Promise<RunResult> {
    this.#deadline = Date.now() + timeoutMs;
    this.#timeoutMs = timeoutMs;
    try {
      const { outcome, drained } = await this.#evaluate(code, topLevelAwait);
      if (!drained && !this.#discardJobs()) this.#jobsLeft = true;
      return { ...outcome, rejections: this.#renderRejections() };
    } finally {
      this.#deadline = Number.POSITIVE_INFINITY;
      for (const identity of [...this.#rejections.keys()]) this.#forgetRejection(identity);
    }
  }

  async #evaluate(code: string, topLevelAwait: boolean): Promise<{ outcome: RunOutcome; drained: boolean }> {
    let failure: unknown;
    let drained = true;
    let result: JSValueHandle | undefined;
    try {
      result = this.#vm.evalCode(code, '<snippet>', topLevelAwait ? EvalFlags.ASYNC : EvalFlags.TYPE_GLOBAL);
    } catch (error) {
      failure = error;
    }
    try {
      this.#vm.executePendingJobs();
    } catch (error) {
      drained = false;
      failure ??= error;
    }
    try {
      if (result === undefined || failure !== undefined) return { outcome: this.#failure(failure), drained };
      return { outcome: await this.#completion(result, topLevelAwait), drained };
    } catch (error) {
      return { outcome: this.#failure(error), drained };
    } finally {
      result?.dispose();
    }
  }

  /** True once a stopped snippet left promise jobs that kept queueing more: the engine should be replaced. */
  get jobsLeft(): boolean {
    return this.#jobsLeft;
  }

  async #completion(result: JSValueHandle, topLevelAwait: boolean): Promise<RunOutcome> {
    if (!topLevelAwait) return this.#complete(result);
    this.#forgetRejection(result.identity); // reported as the snippet's own failure instead
    // An async script's promise resolves to `{ value: <completion value> }`.
    const settled = await this.#settled(result);
    try {
      return settled.getProp('value').consume((value) => this.#complete(value));
    } finally {
      settled.dispose();
    }
  }

  /**
   * Runs the queued jobs with every interrupt poll firing, so each round stops the job running at the
   * next poll; jobs that keep queueing more keep this going until the budget is spent. True when the
   * queue emptied.
   */
  #discardJobs(): boolean {
    this.#discarding = true;
    const until = Date.now() + DISCARD_BUDGET_MS;
    try {
      for (let round = 0; Date.now() < until; round += 1) {
        if (round > 0) this.#shiftPollPhase();
        try {
          this.#vm.executePendingJobs();
          return true;
        } catch (error) {
          if (error instanceof JSException) error.dispose(); // a job was stopped; more may be queued
        }
      }
      return false;
    } finally {
      this.#discarding = false;
    }
  }

  /**
   * Moves where the next interrupt poll falls: a chain of jobs with a fixed number of calls per link
   * could otherwise be stopped at the same harmless place in every round. A loop of a random length,
   * not stopped itself, consumes part of the poll counter.
   */
  #shiftPollPhase(): void {
    this.#discarding = false;
    this.#shifting = true;
    try {
      this.#vm.evalCode(`for (let i = 0; i < ${Math.floor(Math.random() * POLL_INTERVAL)}; i++);`).dispose();
    } finally {
      this.#shifting = false;
      this.#discarding = true;
    }
  }

  /** Runs a busy loop for `ms`, so the WASM code is compiled by the optimizing tier before a snippet. */
  async warmUp(ms: number): Promise<void> {
    if (ms > 0) await this.run('for (;;) {}', ms, false);
  }

  /** The unhandled rejections' reasons as text, rendered while the snippet's deadline still holds. */
  #renderRejections(): string[] {
    return [...this.#rejections.values()].map(({ reason }) => {
      if (Date.now() > this.#deadline) return 'Uncaught (in promise) (not rendered: the time was up)';
      try {
        return `Uncaught (in promise) ${this.#render(reason)}`;
      } catch {
        return 'Uncaught (in promise) (a value that could not be rendered)';
      }
    });
  }

  /** The value of a top-level-await snippet's promise, which its drained jobs must have settled. */
  async #settled(promise: JSValueHandle): Promise<JSValueHandle> {
    if (promise.promiseState === 0) throw guestError('the snippet awaited a promise that never settled');
    const outcome = await this.#vm.resolvePromise(promise);
    if ('value' in outcome) return outcome.value;
    throw new JSException(outcome.error);
  }

  #complete(value: JSValueHandle): RunOutcome {
    if (value.isUndefined) return { type: 'Completed' };
    return { type: 'Completed', value: this.#render(value) };
  }

  /** The value as the prelude's renderer shows it; primitives without a call into the engine. */
  #render(value: JSValueHandle): string {
    if (value.isString) return value.toString();
    if (value.isNumber) return String(value.toNumber());
    if (value.isBool) return String(value.toBoolean());
    if (value.isNull) return 'null';
    if (value.isBigInt) return `${value.toBigInt()}n`;
    const text = this.#vm.callFunction(this.#show, this.#vm.undefined, value);
    return text.consume((handle) => handle.toString());
  }

  #failure(error: unknown): RunOutcome {
    const timedOut = Date.now() > this.#deadline;
    if (timedOut)
      return {
        type: 'Failed',
        error: `TimeoutError: the snippet was stopped at its ${this.#timeoutMs} ms timeout`,
        timedOut,
      };
    if (!(error instanceof JSException)) {
      return {
        type: 'Failed',
        error: error instanceof Error ? `Error: ${error.message}` : String(error),
        timedOut,
      };
    }
    try {
      const { handle } = error;
      const stack = error.stack?.trimEnd();
      if (handle.isError)
        return {
          type: 'Failed',
          error: `${error.name}: ${error.message}${stack ? `\n${stack}` : ''}`,
          timedOut,
        };
      return { type: 'Failed', error: `Uncaught ${this.#render(handle)}`, timedOut };
    } catch {
      return {
        type: 'Failed',
        error: `${error.name}: ${error.message}`,
        timedOut: Date.now() > this.#deadline,
      };
    } finally {
      error.dispose();
    }
  }

  /** Keeps the reason (no guest code runs here: the rejection happens inside the snippet's own jobs). */
  #onRejection(promise: JSValueHandle, reason: JSValueHandle, handled: boolean): void {
    this.#forgetRejection(promise.identity);
    if (!handled) this.#rejections.set(promise.identity, { promise: promise.dup(), reason: reason.dup() });
  }

  #forgetRejection(identity: number): void {
    const known = this.#rejections.get(identity);
    if (known === undefined) return;
    known.promise.dispose();
    known.reason.dispose();
    this.#rejections.delete(identity);
  }
}

/** Evaluates the prelude factory and calls it with the native functions; returns the value renderer. */
function installPrelude(vm: QuickJS, options: EngineOptions): JSValueHandle {
  const write = vm.newFunction('write', (stream, text) => {
    if (stream !== undefined && text?.isString === true)
      options.write(stream.toNumber() === 1 ? 'stderr' : 'stdout', text.toString());
    return vm.undefined;
  });
  const callHost = vm.newFunction('callHost', (name, argsJson) => {
    if (name?.isString !== true || argsJson?.isString !== true)
      throw guestError('host call needs a name and JSON arguments');
    let answer: string;
    try {
      answer = options.callHost(name.toString(), argsJson.toString());
    } catch (error) {
      // Whatever failed on this side reaches the snippet as a message only, never with a host stack.
      if (error instanceof Error && error.stack === '') throw error;
      throw guestError(`${name.toString()}: ${error instanceof Error ? error.message : String(error)}`);
    }
    return vm.newString(answer);
  });
  const shapes = vm.hostToHandle(
    options.hostFunctions.map((fn) => ({
      name: fn.name,
      parameters: fn.parameters.map((p) => ({ name: p.name })),
    })),
  );
  const factory = vm.evalCode(PRELUDE_SOURCE, '<prelude>');
  try {
    return vm.callFunction(factory, vm.undefined, write, callHost, shapes);
  } finally {
    for (const handle of [factory, write, callHost, shapes]) handle.dispose();
  }
}
