/**
 * Runs one grant call: the pinned binary with argv only (no shell), stdin closed, in a fresh private
 * directory, as the leader of its own process group and session, with the environment it is given
 * and nothing of this process's. The call ends at the child's exit, at its timeout or when its signal
 * fires; in every case the reaper then ends whatever the call started before the directory is removed.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable } from 'node:stream';
import { raceAbort, throwIfAborted } from '../common/abort.js';
import { type CallProcesses, reapCall } from './descendant-reaper.js';
import { CALL_MARKER_ENV, childEnvironment } from './grant-environment.js';
import { OutputCapture } from './output-capture.js';
import { startTimeOf } from './process-table.js';

export interface CommandRequest {
  readonly binaryPath: string;
  readonly args: readonly string[];
  readonly path: string;
  readonly variables: ReadonlyMap<string, string>;
  readonly timeoutMs: number;
  /** Cap per stream. */
  readonly maxOutputBytes: number;
  /** False: stderr is drained and counted, not kept. */
  readonly keepStderr: boolean;
  readonly signal: AbortSignal;
  /** Where procfs is; tests point it elsewhere to take the no-/proc path. */
  readonly procRoot?: string;
}

export type CommandEnd =
  | { readonly type: 'Exited'; readonly code: number }
  | { readonly type: 'Killed'; readonly signal: string }
  | { readonly type: 'TimedOut' }
  | { readonly type: 'Cancelled' };

export interface CommandOutcome {
  readonly end: CommandEnd;
  readonly stdout: OutputCapture;
  readonly stderr: OutputCapture;
  /** Pids of the call still alive after reaping (see the reaper's limits). */
  readonly survivors: readonly number[];
  /** An escaped process still held stdout or stderr open when the call ended; output may be short. */
  readonly outputHeldOpen: boolean;
}

/** How long the streams may stay open once every process of the call is gone. */
const STREAM_GRACE_MS = 500;
/**
 * How long past its timeout the child may take to exit before the call fails: killing it takes the
 * reaper a round or two, and its last round ends well within this.
 */
const EXIT_GRACE_MS = 10_000;

export async function runCommand(request: CommandRequest): Promise<CommandOutcome> {
  const cwd = await mkdtemp(join(tmpdir(), 'helios-grant-')); // mode 0700, a new name per call
  try {
    throwIfAborted(request.signal);
    return await runIn(cwd, request);
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

async function runIn(cwd: string, request: CommandRequest): Promise<CommandOutcome> {
  const marker = randomUUID();
  const procRoot = request.procRoot ?? '/proc';
  const child = spawn(request.binaryPath, [...request.args], {
    cwd,
    env: childEnvironment(request.path, request.variables, marker),
    shell: false,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    windowsHide: true,
  });
  if (child.pid === undefined) throw await startFailure(child);
  const streams = [child.stdout, child.stderr] as [Readable, Readable];
  const stdout = new OutputCapture(streams[0], request.maxOutputBytes);
  const stderr = new OutputCapture(streams[1], request.keepStderr ? request.maxOutputBytes : 0);
  const call: CallProcesses = {
    rootPid: child.pid,
    marker: `${CALL_MARKER_ENV}=${marker}`,
    startedFrom: startTimeOf(procRoot, child.pid) ?? 0,
    rootAlive: () => child.exitCode === null && child.signalCode === null,
  };
  const stopper = new CallStopper(request, () => reapCall(call, procRoot));
  let exit: Exit;
  try {
    exit = await raceAbort(exitOf(child), AbortSignal.timeout(request.timeoutMs + EXIT_GRACE_MS));
  } finally {
    stopper.release();
  }
  await stopper.finished();
  const survivors = await reapCall(call, procRoot);
  const outputHeldOpen = !(await closedWithin([stdout, stderr], STREAM_GRACE_MS));
  if (outputHeldOpen) for (const stream of streams) stream.destroy();
  const streamError = stdout.error ?? stderr.error;
  if (streamError) throw streamError;
  return { end: stopper.reason ?? endOf(exit), stdout, stderr, survivors, outputHeldOpen };
}

interface Exit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** Why a child without a pid could not be started (ENOENT, EACCES, …): Node reports it as an event. */
function startFailure(child: ChildProcess): Promise<Error> {
  return new Promise((resolve) => child.once('error', resolve));
}

/** The child's exit. */
function exitOf(child: ChildProcess): Promise<Exit> {
  return new Promise((resolve, reject) => {
    child.once('exit', (code, signal) => resolve({ code, signal }));
    child.once('error', reject);
  });
}

function endOf(exit: Exit): CommandEnd {
  return exit.code === null
    ? { type: 'Killed', signal: String(exit.signal) }
    : { type: 'Exited', code: exit.code };
}

/**
 * Stops the call at its timeout or when its signal fires, whichever comes first: starts the reaper
 * once and remembers why. A reaper failure is kept for `finished`, never left unhandled.
 */
class CallStopper {
  reason: Extract<CommandEnd, { type: 'TimedOut' | 'Cancelled' }> | undefined;
  readonly #timer: ReturnType<typeof setTimeout>;
  readonly #signal: AbortSignal;
  readonly #reap: () => Promise<unknown>;
  #reaping: Promise<{ readonly error: unknown } | undefined> | undefined;

  constructor(request: CommandRequest, reap: () => Promise<unknown>) {
    this.#reap = reap;
    this.#signal = request.signal;
    this.#timer = setTimeout(() => this.#stop({ type: 'TimedOut' }), request.timeoutMs);
    this.#signal.addEventListener('abort', this.#onAbort, { once: true });
  }

  release(): void {
    clearTimeout(this.#timer);
    this.#signal.removeEventListener('abort', this.#onAbort);
  }

  /** Waits for a reaping the stop started; rethrows its failure. */
  async finished(): Promise<void> {
    const failed = await this.#reaping;
    if (failed) throw failed.error;
  }

  readonly #onAbort = (): void => this.#stop({ type: 'Cancelled' });

  #stop(reason: NonNullable<CallStopper['reason']>): void {
    this.release(); // one stop per call: the other trigger can no longer fire
    this.reason = reason;
    this.#reaping = this.#reap().then(
      () => undefined,
      (error: unknown) => ({ error }),
    );
  }
}

/** Whether every capture's stream closed within `ms`. */
async function closedWithin(captures: readonly OutputCapture[], ms: number): Promise<boolean> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const grace = new Promise<false>((resolve) => {
    timer = setTimeout(() => resolve(false), ms);
  });
  try {
    return await Promise.race([
      Promise.all(captures.map((capture) => capture.closed)).then(() => true),
      grace,
    ]);
  } finally {
    clearTimeout(timer);
  }
}
