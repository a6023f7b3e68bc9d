/**
 * LocalProcessExecutionProvider: the Execute tool's BASH runtime. NOT A SANDBOX: the script runs as
 * this process's user, with its file system and network. What it gets: a fresh 0700 directory per
 * call (its HOME and, unless the request names an allowed working directory, its working directory;
 * removed afterwards); the request's args as "$1", "$2", …; an environment of PATH, HOME, an
 * allow-list copied from this process, the deployer's variables and the request's environment over
 * them (never anything else of this process's); the request's stdin, then closed; a timeout after
 * which everything it started is killed (in its own pid namespace when bubblewrap works here, else by
 * @helios/core's /proc reaper); and the same output caps and redaction as the sandbox. Put it behind
 * an OS boundary (see docs/security/sandbox.md) before letting a model use it.
 */
import { constants } from 'node:os';
import { type SessionContext } from '@helios/core';
import { SessionStartOutcome } from '@helios/session';
import { requestInputsProblem } from '../execution/request-inputs.js';
import { requestTimeout } from '../execution/request-timeout.js';
import {
  type CodeExecutionProvider,
  type ExecutionCapabilities,
  type ExecutionRequest,
  ExecutionResult,
  ExecutionRuntime,
} from '../execution/execution-types.js';
import { executionResult } from '../output/execution-result.js';
import { findBubblewrap, resolveOsLayer } from '../process/bubblewrap.js';
import { type BashOutcome, runBash } from './bash-run.js';
import {
  type LocalProcessConfig,
  type LocalProcessOptions,
  resolveLocalProcessConfig,
} from './local-process-config.js';
import { chooseWorkingDirectory } from './working-directory.js';

/** Exit codes for ends that are not the script's own: the GNU timeout convention, and 128 + SIGINT. */
const TIMED_OUT_EXIT = 124;
const CANCELLED_EXIT = 130;

export class LocalProcessExecutionProvider implements CodeExecutionProvider {
  readonly name = 'LocalProcessExecutionProvider';
  readonly capabilities: ExecutionCapabilities;
  readonly #config: LocalProcessConfig;
  readonly #bubblewrap: string | undefined;
  readonly #calls = new Map<string, Set<AbortController>>();
  #running = 0;
  #closed = false;

  constructor(options: LocalProcessOptions = {}) {
    this.#config = resolveLocalProcessConfig(options);
    const layer = resolveOsLayer(
      this.#config.pidNamespace === 'auto' ? 'auto' : 'off',
      this.#config.bubblewrapPath ?? findBubblewrap(),
    );
    this.#bubblewrap = layer.type === 'bubblewrap' ? layer.binary : undefined;
    this.capabilities = Object.freeze({
      supportedRuntimes: Object.freeze([ExecutionRuntime.BASH]),
      networkAllowed: true,
      filesystemWriteAllowed: true,
      defaultTimeoutMs: this.#config.defaultTimeoutMs,
      maxTimeoutMs: this.#config.maxTimeoutMs,
      answerGraceMs: 1_000,
    });
  }

  /** Whether each call runs in its own pid namespace (so setsid daemons die with it). */
  get usesPidNamespace(): boolean {
    return this.#bubblewrap !== undefined;
  }

  describe(): string {
    const reaping = this.usesPidNamespace
      ? 'everything it starts is killed when it ends'
      : 'everything it starts is killed when it ends (found through /proc: a process that leaves its session and clears its environment escapes)';
    const directories =
      this.#config.workingDirectories.length === 0
        ? 'workingDirectory is not available here'
        : `workingDirectory may name ${this.#config.workingDirectories.join(', ')} or a directory inside`;
    return [
      'Runs a BASH script with /bin/bash in a fresh temporary directory and returns its stdout, stderr and exit code.',
      `args become "$1", "$2", …; environment adds variables; stdin is fed to the script; ${directories}.`,
      'This is NOT a sandbox: the script runs as the host user and can reach its files and network.',
      `Limits per call: ${this.#config.defaultTimeoutMs / 1000} s by default; ${reaping}; 1,000,000 characters per output stream. Nothing persists between calls.`,
    ].join('\n');
  }

  onSessionStart(): SessionStartOutcome {
    return this.#closed ? SessionStartOutcome.refuse('the provider is closed') : SessionStartOutcome.accept();
  }

  /** Kills the session's running calls. */
  onSessionEnd(session: SessionContext): void {
    for (const call of this.#calls.get(session.sessionId) ?? []) call.abort(new Error('the session ended'));
    this.#calls.delete(session.sessionId);
  }

  async execute(
    session: SessionContext,
    request: ExecutionRequest,
    signal: AbortSignal,
  ): Promise<ExecutionResult> {
    if (request.runtime !== ExecutionRuntime.BASH)
      return ExecutionResult.refusal(`${this.name} runs BASH, not ${String(request.runtime)}`);
    if (this.#closed) return ExecutionResult.refusal('the provider is closed');
    const timeoutMs = requestTimeout(request, this.capabilities);
    if (typeof timeoutMs === 'string') return ExecutionResult.refusal(timeoutMs);
    const problem = requestInputsProblem(request);
    if (problem !== undefined) return ExecutionResult.refusal(problem);
    if (this.#running >= this.#config.maxConcurrent) {
      return ExecutionResult.refusal(
        `${this.#running} scripts are already running, the maximum; try again when one has finished`,
      );
    }
    const call = new AbortController();
    const onAbort = (): void => call.abort(signal.reason);
    if (signal.aborted) onAbort();
    else signal.addEventListener('abort', onAbort, { once: true });
    const calls = this.#calls.get(session.sessionId) ?? new Set();
    this.#calls.set(session.sessionId, calls.add(call));
    this.#running += 1;
    const started = Date.now();
    try {
      const directory = await chooseWorkingDirectory(
        request.workingDirectory,
        this.#config.workingDirectories,
      );
      const outcome = await runBash({
        script: request.script,
        args: request.args ?? [],
        stdin: request.stdin,
        environment: { ...this.#environment(), ...request.environment },
        workingDirectory: directory.path,
        timeoutMs,
        signal: call.signal,
        bubblewrap: this.#bubblewrap,
      });
      const end = exitOf(outcome, timeoutMs);
      return executionResult(
        {
          ...end,
          notes: directory.note === undefined ? end.notes : [directory.note, ...end.notes],
          stdout: outcome.stdout,
          stderr: outcome.stderr,
          durationMs: Date.now() - started,
        },
        session.secrets,
      );
    } finally {
      this.#running -= 1;
      calls.delete(call);
      signal.removeEventListener('abort', onAbort);
    }
  }

  async close(): Promise<void> {
    this.#closed = true;
    for (const calls of this.#calls.values())
      for (const call of calls) call.abort(new Error('the provider closed'));
    this.#calls.clear();
  }

  #environment(): Record<string, string> {
    const environment: Record<string, string> = {};
    for (const name of this.#config.allowedEnvironment) {
      const value = process.env[name];
      if (value !== undefined) environment[name] = value;
    }
    return { ...environment, ...this.#config.variables, PATH: this.#config.path };
  }
}

function exitOf(
  outcome: BashOutcome,
  timeoutMs: number,
): { exitCode: number; timedOut: boolean; notes: string[] } {
  const notes = outcome.outputHeldOpen
    ? ['[warning: a process the script started kept its output open; output may be incomplete]']
    : [];
  switch (outcome.end.type) {
    case 'Exited':
      return { exitCode: outcome.end.code, timedOut: false, notes };
    case 'Killed':
      return {
        exitCode: 128 + (constants.signals[outcome.end.signal as NodeJS.Signals] ?? 0),
        timedOut: false,
        notes: [...notes, `[killed by ${outcome.end.signal}]`],
      };
    case 'TimedOut':
      return {
        exitCode: TIMED_OUT_EXIT,
        timedOut: true,
        notes: [...notes, `[timed out after ${timeoutMs} ms; everything it started was killed]`],
      };
    case 'Cancelled':
      return {
        exitCode: CANCELLED_EXIT,
        timedOut: false,
        notes: [...notes, '[cancelled; everything it started was killed]'],
      };
  }
}
