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
import { guestError } from './guest-error.js';
import { installPrelude } from './prelude-install.js';
import { type HostFunctionShape, type OutputStream, type SnippetInputs } from './protocol.js';

export { guestError } from './guest-error.js';

/**
 * A compiled `WebAssembly.Module`. The project's type libraries do not declare the WebAssembly
 * namespace (it is a DOM and Node global), so it is named by what it is, an object.
 */
export type CompiledWasm = object;

export interface EngineOptions {
  /** The engine's WebAssembly (quickjs-wasi/quickjs.wasm): its bytes, or the module compiled from them. */
  readonly wasm: Uint8Array | CompiledWasm;
  readonly memoryLimitBytes: number;
  readonly maxStackBytes: number;
  readonly hostFunctions: readonly HostFunctionShape[];
  /** The prelude compiled to bytecode by this engine build; absent: the prelude source is parsed. */
  readonly preludeBytecode?: Uint8Array;
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
const NO_REJECTIONS: readonly string[] = Object.freeze([]);

export class Engine {
  readonly #vm: QuickJS;
  readonly #show: JSValueHandle;
  readonly #setInputs: JSValueHandle;
  /** Whether the last execute's inputs are still exposed (most executes carry none: no call then). */
  #inputsExposed = false;
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

  private constructor(vm: QuickJS, prelude: { show: JSValueHandle; setInputs: JSValueHandle }) {
    this.#vm = vm;
    this.#show = prelude.show;
    this.#setInputs = prelude.setInputs;
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
    holder.engine = new Engine(vm, installPrelude(vm, options));
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
    if (!topLevelAwait) return this.runScript(code, timeoutMs);
    this.#begin(timeoutMs);
    try {
      const { result, failure, drained } = this.#evaluate(code, EvalFlags.ASYNC);
      let outcome: RunOutcome;
      try {
        if (result === undefined || failure !== undefined) outcome = this.#failure(failure);
        else outcome = await this.#awaited(result);
      } catch (error) {
        outcome = this.#failure(error);
      } finally {
        result?.dispose();
      }
      return this.#finish(outcome, drained);
    } finally {
      this.#end();
    }
  }

  /**
   * `run` for a snippet without top-level await, synchronously: the child's common case, which then
   * never leaves its read loop for the microtask queue.
   */
  runScript(code: string, timeoutMs: number): RunResult {
    this.#begin(timeoutMs);
    try {
      const { result, failure, drained } = this.#evaluate(code, EvalFlags.TYPE_GLOBAL);
      let outcome: RunOutcome;
      try {
        outcome =
          result === undefined || failure !== undefined ? this.#failure(failure) : this.#complete(result);
      } catch (error) {
        outcome = this.#failure(error);
      } finally {
        result?.dispose();
      }
      return this.#finish(outcome, drained);
    } finally {
      this.#end();
    }
  }

  /**
   * Exposes `inputs` to the next snippet as the read-only globals `args`, `env` and `stdin`, or removes
   * the last ones (undefined). Returns an error text when they cannot be exposed: an earlier snippet
   * declared a variable of one of those names.
   */
  exposeInputs(inputs: SnippetInputs | undefined): string | undefined {
    if (inputs === undefined && !this.#inputsExposed) return undefined;
    const vm = this.#vm;
    const json = inputs === undefined ? vm.undefined : vm.newString(JSON.stringify(inputs));
    try {
      const taken = vm.callFunction(this.#setInputs, vm.undefined, json);
      const name = taken.consume((handle) => (handle.isString ? handle.toString() : undefined));
      this.#inputsExposed = inputs !== undefined && name === undefined;
      if (name === undefined) return undefined;
      return `InputError: this execute's ${name} cannot be exposed: an earlier snippet took the global name ${name}`;
    } catch (error) {
      if (error instanceof JSException) error.dispose();
      this.#inputsExposed = true; // unknown: try removing them again next time
      return 'InputError: the request inputs could not be exposed to the snippet';
    } finally {
      if (inputs !== undefined) json.dispose();
    }
  }

  #begin(timeoutMs: number): void {
    this.#deadline = Date.now() + timeoutMs;
    this.#timeoutMs = timeoutMs;
  }

  #end(): void {
    this.#deadline = Number.POSITIVE_INFINITY;
    if (this.#rejections.size > 0)
      for (const identity of [...this.#rejections.keys()]) this.#forgetRejection(identity);
  }

  #finish(outcome: RunOutcome, drained: boolean): RunResult {
    if (!drained && !this.#discardJobs()) this.#jobsLeft = true;
    const rejections = this.#rejections.size === 0 ? NO_REJECTIONS : this.#renderRejections();
    return { ...outcome, rejections };
  }

  /** Evaluates and drains the jobs the evaluation queued; the caller disposes the result. */
  #evaluate(
    code: string,
    flags: number,
  ): { result: JSValueHandle | undefined; failure: unknown; drained: boolean } {
    let failure: unknown;
    let drained = true;
    let result: JSValueHandle | undefined;
    try {
      result = this.#vm.evalCode(code, '<snippet>', flags);
    } catch (error) {
      failure = error;
    }
    try {
      this.#vm.executePendingJobs();
    } catch (error) {
      drained = false;
      failure ??= error;
    }
    return { result, failure, drained };
  }

  /** True once a stopped snippet left promise jobs that kept queueing more: the engine should be replaced. */
  get jobsLeft(): boolean {
    return this.#jobsLeft;
  }

  /** An async script's completion: its promise resolves to `{ value: <completion value> }`. */
  async #awaited(result: JSValueHandle): Promise<RunOutcome> {
    this.#forgetRejection(result.identity); // reported as the snippet's own failure instead
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
  warmUp(ms: number): void {
    if (ms > 0) this.runScript('for (;;) {}', ms);
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
