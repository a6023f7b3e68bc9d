/**
 * One BASH call: `/bin/bash -c <script> bash <args…>` (so the args are "$1", "$2", …) in a fresh 0700
 * directory — or in the allowed working directory the request named — with that fresh directory as
 * HOME (removed afterwards), with only the environment it is given, stdin fed from the request and then
 * closed (or closed from the start), as the leader of its own process group and session.
 *
 * Ending it: inside its own pid namespace when bubblewrap is used, so that SIGKILL to the group takes
 * everything it started down with it. Without, the call's environment carries a random marker and
 * @helios/core's /proc reaper kills the script, its group and session, its descendants and every
 * process still carrying the marker — `setsid` daemons included, unless one also cleared its
 * environment. The call ends at the script's exit, its timeout or its signal; then everything is
 * reaped, and the output streams are read until they close (bounded: an escaped process could hold
 * them open).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable } from 'node:stream';
import { type CallProcesses, reapCall, startTimeOf } from '@helios/core';
import { MAX_STREAM_CHARS } from '../child/protocol.js';
import { StreamCapture } from '../output/stream-capture.js';
import { killGroup, liveChildren } from '../process/live-children.js';

export interface BashRequest {
  readonly script: string;
  readonly args: readonly string[];
  /** Fed to the script's stdin, which is then closed; undefined: stdin closed from the start. */
  readonly stdin: string | undefined;
  /** Everything the script's environment holds, but HOME, which is its fresh directory unless given here. */
  readonly environment: Readonly<Record<string, string>>;
  /** An allowed directory to run in; undefined: the call's fresh directory. */
  readonly workingDirectory: string | undefined;
  readonly timeoutMs: number;
  readonly signal: AbortSignal;
  /** bwrap's path when each call gets its own pid namespace. */
  readonly bubblewrap: string | undefined;
}

export interface BashOutcome {
  readonly end:
    | { readonly type: 'Exited'; readonly code: number }
    | { readonly type: 'Killed'; readonly signal: string }
    | { readonly type: 'TimedOut' }
    | { readonly type: 'Cancelled' };
  readonly stdout: StreamCapture;
  readonly stderr: StreamCapture;
  /** A process the call started kept its output open past the end; output may be short. */
  readonly outputHeldOpen: boolean;
}

/** The variable that marks a call's processes when no pid namespace holds them. */
export const BASH_MARKER_ENV = 'HELIOS_EXECUTE';
const BASH = '/bin/bash';
const STREAM_GRACE_MS = 500;
/** bubblewrap options for a pid namespace only: everything else is the host's (this is no sandbox). */
const PID_NAMESPACE = ['--dev-bind', '/', '/', '--unshare-pid', '--die-with-parent', '--proc', '/proc'];

export async function runBash(request: BashRequest): Promise<BashOutcome> {
  const home = await mkdtemp(join(tmpdir(), 'helios-bash-')); // mode 0700, a new name per call
  try {
    return await runIn(home, request);
  } finally {
    await rm(home, { recursive: true, force: true });
  }
}

async function runIn(home: string, request: BashRequest): Promise<BashOutcome> {
  const cwd = request.workingDirectory ?? home;
  const bash = [BASH, '-c', request.script, 'bash', ...request.args];
  const [command, args] =
    request.bubblewrap === undefined
      ? [BASH, bash.slice(1)]
      : [request.bubblewrap, [...PID_NAMESPACE, '--chdir', cwd, '--', ...bash]];
  const marker = request.bubblewrap === undefined ? randomUUID() : undefined;
  const env = {
    HOME: home,
    ...request.environment,
    ...(marker === undefined ? {} : { [BASH_MARKER_ENV]: marker }),
  };
  const child = spawn(command, args, {
    cwd,
    env,
    detached: true,
    stdio: [request.stdin === undefined ? 'ignore' : 'pipe', 'pipe', 'pipe'],
  });
  const stdout = capture(child.stdout as Readable);
  const stderr = capture(child.stderr as Readable);
  if (child.pid === undefined) {
    const error = await new Promise<Error>((resolve) => child.once('error', resolve));
    throw error;
  }
  feed(child, request.stdin);
  const pid = child.pid;
  const reap = reaper(child, pid, marker);
  const untrack = liveChildren.track(pid, () => killGroup(pid));
  try {
    const end = await endOf(child, request, reap);
    await reap(); // whatever the call left behind
    const outputHeldOpen = !(await closedWithin([stdout.closed, stderr.closed], STREAM_GRACE_MS));
    if (outputHeldOpen) for (const stream of [child.stdout, child.stderr]) stream?.destroy();
    return { end, stdout: stdout.capture, stderr: stderr.capture, outputHeldOpen };
  } finally {
    untrack();
  }
}

/** Writes stdin and closes it; a script that exits without reading it is no error. */
function feed(child: ChildProcess, stdin: string | undefined): void {
  if (stdin === undefined || child.stdin === null) return;
  child.stdin.on('error', () => undefined);
  child.stdin.end(stdin);
}

/** Ends everything the call started: its pid namespace's group, or all the reaper finds. */
function reaper(child: ChildProcess, pid: number, marker: string | undefined): () => Promise<void> {
  if (marker === undefined) return () => Promise.resolve(killGroup(pid));
  const call: CallProcesses = {
    rootPid: pid,
    marker: `${BASH_MARKER_ENV}=${marker}`,
    startedFrom: startTimeOf('/proc', pid) ?? 0,
    rootAlive: () => child.exitCode === null && child.signalCode === null,
  };
  return async () => void (await reapCall(call));
}

function capture(stream: Readable): { capture: StreamCapture; closed: Promise<void> } {
  const captured = new StreamCapture(MAX_STREAM_CHARS);
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => captured.append(text));
  const closed = new Promise<void>((resolve) => stream.once('close', resolve));
  return { capture: captured, closed };
}

/** How the call ended; a timeout or the signal reaps the call before answering. */
function endOf(
  child: ChildProcess,
  request: BashRequest,
  reap: () => Promise<void>,
): Promise<BashOutcome['end']> {
  return new Promise((resolve) => {
    let stopped: BashOutcome['end'] | undefined;
    const stop = (why: BashOutcome['end']): void => {
      stopped ??= why;
      void reap();
    };
    const timer = setTimeout(() => stop({ type: 'TimedOut' }), request.timeoutMs);
    const onAbort = (): void => stop({ type: 'Cancelled' });
    request.signal.addEventListener('abort', onAbort, { once: true });
    if (request.signal.aborted) onAbort();
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      request.signal.removeEventListener('abort', onAbort);
      resolve(
        stopped ?? (code === null ? { type: 'Killed', signal: String(signal) } : { type: 'Exited', code }),
      );
    });
  });
}

async function closedWithin(closings: readonly Promise<void>[], ms: number): Promise<boolean> {
  let timer: NodeJS.Timeout | undefined;
  const grace = new Promise<false>((resolve) => (timer = setTimeout(() => resolve(false), ms)));
  try {
    return await Promise.race([Promise.all(closings).then(() => true), grace]);
  } finally {
    clearTimeout(timer);
  }
}
