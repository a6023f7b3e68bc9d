/**
 * JavaScriptExecutionProvider: the Execute tool's JAVASCRIPT and TYPESCRIPT runtimes. Each session gets
 * its own sandbox (a child process running QuickJS-NG in WebAssembly, inside bubblewrap when available;
 * see docs/security/sandbox.md), started when the session opens — a refusal makes the open fail — and
 * killed when it closes. Top-level declarations persist between a session's executes.
 *
 * Executes of one session run one at a time, in order. A sandbox that ended (killed at its stop grace,
 * crashed, broke the protocol, cancelled) is replaced by a fresh one at the session's next execute,
 * which says so; with `restartAfterEnd: false` the session's executes are refused instead. Output is
 * capped and redacted with the session's SecretRegistry.
 */
import { type SessionContext } from '@helios/core';
import { SessionStartOutcome } from '@helios/session';
import { type BootParams, type SnippetLanguage } from '../child/protocol.js';
import { Mutex } from '../common/mutex.js';
import { requestTimeout } from '../execution/request-timeout.js';
import {
  type CodeExecutionProvider,
  type ExecutionCapabilities,
  type ExecutionRequest,
  ExecutionResult,
  ExecutionRuntime,
} from '../execution/execution-types.js';
import { executionResult } from '../output/execution-result.js';
import { findBubblewrap, type OsLayer, resolveOsLayer } from '../process/bubblewrap.js';
import { childProgram } from '../process/child-program.js';
import { describeJavaScriptProvider } from './javascript-description.js';
import {
  type JavaScriptProviderConfig,
  type JavaScriptProviderOptions,
  resolveJavaScriptConfig,
} from './javascript-config.js';
import { Sandbox, type SandboxSettings, type SnippetOutcome, type SnippetRequest } from './sandbox.js';
import { preludeBytecode } from './prelude-bytecode.js';
import { snippetInputs } from './snippet-inputs.js';
import { SpareSandbox } from './spare-sandbox.js';

interface Slot {
  readonly session: SessionContext;
  readonly mutex: Mutex;
  sandbox: Sandbox | undefined;
}

/** The os layer `required` could not get. */
export class OsSandboxUnavailableError extends Error {
  readonly code = 'OS_SANDBOX_UNAVAILABLE';
}

const LANGUAGES: Partial<Record<ExecutionRuntime, SnippetLanguage>> = {
  [ExecutionRuntime.JAVASCRIPT]: 'javascript',
  [ExecutionRuntime.TYPESCRIPT]: 'typescript',
};

export class JavaScriptExecutionProvider implements CodeExecutionProvider {
  readonly name = 'JavaScriptExecutionProvider';
  readonly capabilities: ExecutionCapabilities;
  /** The OS layer sandboxes run under here, or why there is none. */
  readonly osLayer: OsLayer;
  readonly #config: JavaScriptProviderConfig;
  readonly #slots = new Map<string, Slot>();
  readonly #spare: SpareSandbox | undefined;
  #closed = false;

  /** Throws OsSandboxUnavailableError when `osSandbox: 'required'` and bubblewrap does not work here. */
  constructor(options: JavaScriptProviderOptions = {}) {
    this.#config = resolveJavaScriptConfig(options);
    this.osLayer = resolveOsLayer(this.#config.osSandbox, this.#config.bubblewrapPath ?? findBubblewrap());
    if (this.#config.osSandbox === 'required' && this.osLayer.type === 'none') {
      throw new OsSandboxUnavailableError(`osSandbox is 'required' but ${this.osLayer.reason}`);
    }
    this.capabilities = Object.freeze({
      supportedRuntimes: Object.freeze([ExecutionRuntime.JAVASCRIPT, ExecutionRuntime.TYPESCRIPT]),
      networkAllowed: false,
      filesystemWriteAllowed: false,
      defaultTimeoutMs: this.#config.defaultTimeoutMs,
      maxTimeoutMs: this.#config.maxTimeoutMs,
      answerGraceMs: this.#config.stopGraceMs + 1_000,
    });
    void preludeBytecode(); // compiled while the application starts, not at its first session
    if (this.#config.spareSandbox) {
      this.#spare = new SpareSandbox(async () => Sandbox.start(await this.#settings()));
      this.#spare.fill();
    }
  }

  describe(): string {
    return describeJavaScriptProvider(this.#config, this.osLayer);
  }

  /** Sandboxes running now (one per open session). */
  get sandboxCount(): number {
    return this.#slots.size;
  }

  async onSessionStart(session: SessionContext): Promise<SessionStartOutcome> {
    if (this.#closed) return SessionStartOutcome.refuse('the provider is closed');
    if (this.#slots.has(session.sessionId))
      return SessionStartOutcome.refuse('the session already has a sandbox');
    if (this.#slots.size >= this.#config.maxConcurrentSandboxes) {
      return SessionStartOutcome.refuse(`all ${this.#config.maxConcurrentSandboxes} sandboxes are in use`);
    }
    const slot: Slot = { session, mutex: new Mutex(), sandbox: undefined };
    this.#slots.set(session.sessionId, slot);
    try {
      slot.sandbox = await this.#startSandbox(session);
    } catch (error) {
      this.#slots.delete(session.sessionId);
      return SessionStartOutcome.refuse(`the sandbox could not start: ${(error as Error).message}`, error);
    }
    if (this.#slots.get(session.sessionId) !== slot)
      await slot.sandbox.end('the session ended while it started');
    return SessionStartOutcome.accept();
  }

  async onSessionEnd(session: SessionContext): Promise<void> {
    const slot = this.#slots.get(session.sessionId);
    this.#slots.delete(session.sessionId);
    await slot?.sandbox?.end('the session ended');
  }

  execute(session: SessionContext, request: ExecutionRequest, signal: AbortSignal): Promise<ExecutionResult> {
    const refusal = (reason: string): Promise<ExecutionResult> =>
      Promise.resolve(ExecutionResult.refusal(reason));
    const language = LANGUAGES[request.runtime];
    if (language === undefined) {
      return refusal(
        `${this.name} runs ${this.capabilities.supportedRuntimes.join(' and ')}, not ${String(request.runtime)}`,
      );
    }
    const timeoutMs = requestTimeout(request, this.capabilities);
    if (typeof timeoutMs === 'string') return refusal(timeoutMs);
    const inputs = snippetInputs(request);
    if (typeof inputs === 'string') return refusal(inputs);
    const slot = this.#slots.get(session.sessionId);
    if (slot === undefined)
      return refusal(`no sandbox for session ${session.sessionId}: it was not started or has ended`);
    const snippet: SnippetRequest = { code: request.script, language, timeoutMs, inputs };
    return slot.mutex.run(() => this.#run(slot, snippet, signal), signal);
  }

  async close(): Promise<void> {
    this.#closed = true;
    const slots = [...this.#slots.values()];
    this.#slots.clear();
    await Promise.all([
      this.#spare?.close(),
      ...slots.map(async (slot) => slot.sandbox?.end('the provider closed')),
    ]);
  }

  /** Runs the snippet in the session's sandbox, first starting a new one if it has ended. */
  #run(slot: Slot, request: SnippetRequest, signal: AbortSignal): Promise<ExecutionResult> {
    const started = Date.now();
    const sandbox = slot.sandbox;
    if (sandbox?.alive !== true) return this.#restartAndRun(slot, request, signal);
    return sandbox
      .execute(request, signal)
      .then((outcome) => this.#result(slot, outcome, Date.now() - started, []));
  }

  async #restartAndRun(slot: Slot, request: SnippetRequest, signal: AbortSignal): Promise<ExecutionResult> {
    const started = Date.now();
    const ended = slot.sandbox?.endReason ?? 'it was not started';
    if (!this.#config.restartAfterEnd)
      return ExecutionResult.refusal(`the session's sandbox has ended (${ended})`);
    let sandbox: Sandbox;
    try {
      sandbox = await this.#startSandbox(slot.session);
      slot.sandbox = sandbox;
    } catch (error) {
      return ExecutionResult.refusal(
        `the session's sandbox ended (${ended}) and a new one could not start: ${(error as Error).message}`,
      );
    }
    const outcome = await sandbox.execute(request, signal);
    return this.#result(slot, outcome, Date.now() - started, [
      `[a new sandbox was started: the previous one ended (${ended}); its variables are gone]`,
    ]);
  }

  #result(slot: Slot, outcome: SnippetOutcome, durationMs: number, notes: string[]): ExecutionResult {
    return executionResult(
      {
        exitCode: outcome.exitCode,
        timedOut: outcome.timedOut,
        stdout: outcome.stdout,
        stderr: outcome.stderr,
        value: outcome.value,
        durationMs,
        notes,
      },
      slot.session.secrets,
    );
  }

  /** The spare when there is one, else a sandbox started now; given to `session`. */
  async #startSandbox(session: SessionContext): Promise<Sandbox> {
    const sandbox = (await this.#spare?.take()) ?? (await Sandbox.start(await this.#settings()));
    return sandbox.assignTo({ sessionId: session.sessionId, redactor: () => session.secrets.redactor() });
  }

  async #settings(): Promise<SandboxSettings> {
    const config = this.#config;
    config.registry.freeze();
    const bytecode = await preludeBytecode();
    const boot: BootParams = {
      memoryLimitBytes: config.memoryLimitBytes,
      maxStackBytes: config.maxStackBytes,
      warmUpMs: config.warmUpMs,
      policy: config.policy,
      ...(bytecode === undefined ? {} : { preludeBytecode: bytecode }),
      hostFunctions: config.registry.all().map((fn) => ({
        name: fn.name,
        parameters: fn.parameters.map(({ name, type }) => ({ name, type })),
      })),
    };
    return {
      launch: { program: childProgram(), osLayer: this.osLayer, maxOldSpaceMb: config.maxOldSpaceMb },
      boot,
      startupTimeoutMs: config.startupTimeoutMs,
      stopGraceMs: config.stopGraceMs,
      callTimeoutMs: config.callTimeoutMs,
      registry: config.registry,
    };
  }
}
