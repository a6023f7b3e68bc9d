/**
 * One sandbox: a child process holding one engine, and the host's side of its channel. It boots
 * within the startup timeout, then runs one execute at a time (its owner serialises them): the
 * snippet's printed text arrives in `output` frames, its host-function calls are answered one at a
 * time, and its answer ends the execute.
 *
 * The child is untrusted. A frame for an execute not in flight, a second call while one is pending, an
 * answer with a call pending, a malformed frame, a frame over the cap or an unexpected exit ends the
 * sandbox. So does a snippet still running `stopGrace` past its timeout (the engine stops it at the
 * timeout; only an engine fault could keep it running): the execute answers at once with exit code 3
 * and the process group is killed. An ended sandbox stays ended; its owner may start another.
 */
import { InvalidArgumentError } from '@helios/core';
import {
  BOOT_ID,
  type BootParams,
  cutValue,
  JSONRPC,
  MAX_FRAME_CHARS,
  MAX_STREAM_CHARS,
  MAX_VALUE_CHARS,
  type SnippetInputs,
  type SnippetLanguage,
} from '../child/protocol.js';
import { Watchdog } from '../common/watchdog.js';
import { StreamCapture } from '../output/stream-capture.js';
import { type LaunchSettings, SandboxProcess } from '../process/sandbox-process.js';
import { readChildFrame, type ChildFrame } from './child-frames.js';
import { type HostFunctionRegistry } from '../host/host-function.js';
import { answerHostCall, type HostCallSettings } from './host-call.js';
import { HostChannel } from './host-channel.js';

export interface SandboxSettings {
  readonly launch: LaunchSettings;
  readonly boot: BootParams;
  readonly startupTimeoutMs: number;
  readonly stopGraceMs: number;
  readonly callTimeoutMs: number;
  readonly registry: HostFunctionRegistry;
}

/** Whose sandbox it is: host calls run for this session, and what crosses in is redacted with its registry. */
export type SandboxOwner = Omit<HostCallSettings, 'registry'>;

export interface SnippetRequest {
  readonly code: string;
  readonly language: SnippetLanguage;
  readonly timeoutMs: number;
  /** The request's args, environment and stdin, when it carried any. */
  readonly inputs?: SnippetInputs;
}

/** How an execute ended, on the host's side of the channel. */
export interface SnippetOutcome {
  /** 0 completed, 1 failed or timed out (sandbox kept), 3 the sandbox ended during it. */
  readonly exitCode: 0 | 1 | 3;
  readonly timedOut: boolean;
  readonly value?: string | undefined;
  readonly stdout: StreamCapture;
  readonly stderr: StreamCapture;
  /** Why the sandbox ended during this execute. */
  readonly ended?: string | undefined;
}

const CLOSE_GRACE_MS = 500;
/** How long an execute runs before its cancellation signal gets a listener. */
const CANCEL_CHECK_MS = 5;
/** Room for the child's `… [value cut: n more chars]` note after a cut value. */
const VALUE_NOTE_ROOM = 64;

/** The sandbox could not be started; the message says why, with what the child printed. */
export class SandboxStartError extends Error {
  readonly code = 'SANDBOX_START_FAILED';
}

interface InFlight {
  readonly id: string;
  readonly timeoutMs: number;
  readonly deadline: number;
  readonly stdout: StreamCapture;
  readonly stderr: StreamCapture;
  readonly signal: AbortSignal;
  readonly resolve: (outcome: SnippetOutcome) => void;
  /** Fires when the execute ends; made at the first host call (most executes make none). */
  stop: AbortController | undefined;
  calling: boolean;
  killedForTime: boolean;
}

export class Sandbox {
  readonly #process: SandboxProcess;
  readonly #settings: SandboxSettings;
  readonly #channel: HostChannel;
  #booted: ((engine: string | Error) => void) | undefined;
  #inFlight: InFlight | undefined;
  #executes = 0;
  #endReason: string | undefined;
  #owner: SandboxOwner | undefined;
  /** The stop grace of the execute in flight. */
  readonly #watchdog = new Watchdog(() => this.#stopGraceOver());
  /**
   * Cancellation. Most executes answer within a millisecond, and adding a listener to an AbortSignal
   * costs more than the rest of their host side; so an execute's signal is read at its start and gets
   * a listener only if the execute is still running CANCEL_CHECK_MS later. A listener is never
   * removed (that costs more again): one that fires after its execute is over does nothing, and each
   * signal gets one at most once in a row.
   */
  readonly #cancelCheck = new Watchdog(() => this.#listenForCancel());
  #listening: AbortSignal | undefined;
  readonly #onAbort = (event: Event): void => {
    if (this.#inFlight !== undefined && this.#inFlight.signal === event.target)
      void this.end('the execute was cancelled');
  };

  private constructor(process: SandboxProcess, settings: SandboxSettings) {
    this.#process = process;
    this.#settings = settings;
    this.#channel = new HostChannel(process.channel, MAX_FRAME_CHARS, {
      onFrame: (frame) => this.#onFrame(readChildFrame(frame)),
      onFault: (reason) => void this.end(reason),
      // Usually the child is exiting and its exit says why; a child that closed fd 3 and lives on ends here.
      onClose: () =>
        setTimeout(() => void this.end('the sandbox closed its channel'), CLOSE_GRACE_MS).unref(),
    });
    void process.exited.then(({ code, signal }) =>
      this.end(`the sandbox process exited (${signal ?? `code ${String(code)}`})`),
    );
  }

  /** Launches and boots a sandbox; throws SandboxStartError when it is not ready within the startup timeout. */
  static async start(settings: SandboxSettings): Promise<Sandbox> {
    const sandbox = new Sandbox(await SandboxProcess.launch(settings.launch), settings);
    const ready = await sandbox.#boot();
    if (ready instanceof Error) {
      await sandbox.end(ready.message);
      const output = sandbox.#process.diagnostics;
      throw new SandboxStartError(`${ready.message}${output === '' ? '' : `; the child printed: ${output}`}`);
    }
    return sandbox;
  }

  get alive(): boolean {
    return this.#endReason === undefined;
  }

  get endReason(): string | undefined {
    return this.#endReason;
  }

  get pid(): number {
    return this.#process.pid;
  }

  /** Gives the sandbox to a session (a spare is booted before its session is known). */
  assignTo(owner: SandboxOwner): this {
    this.#owner = owner;
    return this;
  }

  /** Runs one snippet; never rejects for the snippet's own failure. `signal` cancels it by ending the sandbox. */
  execute(request: SnippetRequest, signal: AbortSignal): Promise<SnippetOutcome> {
    if (this.#inFlight !== undefined) throw new InvalidArgumentError('a sandbox runs one execute at a time');
    const stdout = new StreamCapture(MAX_STREAM_CHARS);
    const stderr = new StreamCapture(MAX_STREAM_CHARS);
    if (this.#endReason !== undefined) {
      return Promise.resolve({ exitCode: 3, timedOut: false, stdout, stderr, ended: this.#endReason });
    }
    const id = String(++this.#executes);
    return new Promise((resolve) => {
      const inFlight: InFlight = {
        id,
        timeoutMs: request.timeoutMs,
        deadline: Date.now() + request.timeoutMs,
        stdout,
        stderr,
        signal,
        resolve,
        stop: undefined,
        calling: false,
        killedForTime: false,
      };
      this.#inFlight = inFlight;
      this.#watchdog.arm(request.timeoutMs + this.#settings.stopGraceMs);
      if (signal.aborted) return void this.end('the execute was cancelled');
      this.#cancelCheck.arm(CANCEL_CHECK_MS);
      this.#channel.sendRaw(executeFrame(id, request));
    });
  }

  /** Ends the sandbox (once): answers an execute in flight with exit code 3, kills the process group. */
  async end(reason: string): Promise<void> {
    if (this.#endReason !== undefined) return;
    this.#endReason = reason;
    this.#watchdog.close();
    this.#cancelCheck.close();
    this.#booted?.(new Error(reason));
    const inFlight = this.#inFlight;
    if (inFlight !== undefined) {
      const output = this.#process.diagnostics;
      inFlight.stderr.append(`[sandbox ended: ${reason}; its state is lost]\n`);
      if (output !== '') inFlight.stderr.append(`[sandbox process output]\n${output}\n`);
      this.#finish(inFlight, { exitCode: 3, timedOut: inFlight.killedForTime, ended: reason });
    }
    await this.#process.kill();
  }

  #finish(inFlight: InFlight, outcome: Omit<SnippetOutcome, 'stdout' | 'stderr'>): void {
    this.#watchdog.disarm();
    this.#cancelCheck.disarm();
    inFlight.stop?.abort(new DOMException('the execute ended', 'AbortError'));
    this.#inFlight = undefined;
    inFlight.resolve({
      exitCode: outcome.exitCode,
      timedOut: outcome.timedOut,
      value: outcome.value,
      stdout: inFlight.stdout,
      stderr: inFlight.stderr,
      ended: outcome.ended,
    });
  }

  /** An execute still running at its cancel check: listen to its signal from now on. */
  #listenForCancel(): void {
    const signal = this.#inFlight?.signal;
    if (signal === undefined) return;
    if (signal.aborted) return void this.end('the execute was cancelled');
    if (this.#listening === signal) return;
    this.#listening = signal;
    signal.addEventListener('abort', this.#onAbort);
  }

  /** Only an engine fault keeps a snippet running past its timeout; the stop grace ends it. */
  #stopGraceOver(): void {
    const inFlight = this.#inFlight;
    if (inFlight === undefined) return;
    inFlight.killedForTime = true;
    void this.end(
      `the snippet was still running ${this.#settings.stopGraceMs} ms after its ${inFlight.timeoutMs} ms timeout`,
    );
  }

  #boot(): Promise<string | Error> {
    return new Promise((resolve) => {
      const timer = setTimeout(
        () => resolve(new Error(`the sandbox was not ready within ${this.#settings.startupTimeoutMs} ms`)),
        this.#settings.startupTimeoutMs,
      );
      this.#booted = (engine) => {
        clearTimeout(timer);
        this.#booted = undefined;
        resolve(engine);
      };
      this.#channel.send({ jsonrpc: JSONRPC, id: BOOT_ID, method: 'boot', params: this.#settings.boot });
    });
  }

  #onFrame(frame: ChildFrame): void {
    if (this.#endReason !== undefined) return;
    const inFlight = this.#inFlight;
    switch (frame.type) {
      case 'Booted':
        return this.#booted ? this.#booted(frame.engine) : this.#violation('a boot answer out of turn');
      case 'Output':
        if (inFlight?.id !== frame.exec || inFlight.calling)
          return this.#violation('output for an execute not in flight');
        return inFlight[frame.stream].append(frame.text);
      case 'Call':
        if (inFlight?.id !== frame.exec || inFlight.calling)
          return this.#violation('a host call out of turn');
        return this.#call(inFlight, frame);
      case 'Executed':
        if (inFlight?.id !== frame.id || inFlight.calling)
          return this.#violation('an execute answer out of turn');
        inFlight.stdout.discardedElsewhere(frame.outcome.discarded.stdout);
        inFlight.stderr.discardedElsewhere(frame.outcome.discarded.stderr);
        if (frame.outcome.jobsLeft === true) {
          inFlight.killedForTime = frame.outcome.timedOut;
          return void this.end('its promise jobs kept queueing more after the snippet was stopped');
        }
        return this.#finish(inFlight, {
          exitCode: frame.outcome.exitCode,
          timedOut: frame.outcome.timedOut,
          value: valueOf(frame.outcome.value),
        });
      case 'Invalid':
        return this.#violation(frame.reason);
    }
  }

  #call(inFlight: InFlight, frame: Extract<ChildFrame, { type: 'Call' }>): void {
    const owner = this.#owner;
    if (owner === undefined) return this.#violation('a host call before the sandbox had a session');
    inFlight.calling = true;
    const timeoutMs = Math.max(1, Math.min(this.#settings.callTimeoutMs, inFlight.deadline - Date.now()));
    inFlight.stop ??= new AbortController();
    const settings = { registry: this.#settings.registry, ...owner };
    void answerHostCall(settings, frame, { timeoutMs, signal: inFlight.stop.signal }).then(
      (answer) => {
        inFlight.calling = false;
        if (this.#inFlight === inFlight) this.#channel.sendRaw(answer);
      },
      (error: unknown) => void this.end(`a host call failed unexpectedly: ${String(error)}`),
    );
  }

  #violation(reason: string): void {
    void this.end(reason.startsWith('protocol violation') ? reason : `protocol violation: ${reason}`);
  }
}

/** The execute frame's text, written out rather than built as an object and serialised whole. */
function executeFrame(id: string, request: SnippetRequest): string {
  const params = JSON.stringify({
    code: request.code,
    language: request.language,
    timeoutMs: request.timeoutMs,
    ...(request.inputs === undefined ? {} : { inputs: request.inputs }),
  });
  return `{"jsonrpc":"${JSONRPC}","id":"${id}","method":"execute","params":${params}}`;
}

/** The child cuts a value itself (with a note); only a value longer than that is cut here. */
function valueOf(value: string | undefined): string | undefined {
  return value === undefined || value.length <= MAX_VALUE_CHARS + VALUE_NOTE_ROOM ? value : cutValue(value);
}
