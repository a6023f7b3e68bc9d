/**
 * One BASH call: `/bin/bash -c <script>` in a fresh 0700 directory (removed afterwards, and its HOME),
 * stdin closed, with only the environment it is given, as the leader of its own process group — inside its own pid
 * namespace when bubblewrap is used, so that everything it started dies with it. The call ends at the
 * script's exit, its timeout or its signal; then the whole group (or namespace) is killed, and the
 * output streams are read until they close (bounded: an escaped process could hold them open).
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Readable } from 'node:stream';
import { MAX_STREAM_CHARS } from '../child/protocol.js';
import { StreamCapture } from '../output/stream-capture.js';
import { killGroup, liveChildren } from '../process/live-children.js';

export interface BashRequest {
  readonly script: string;
  readonly environment: Readonly<Record<string, string>>;
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

const BASH = '/bin/bash';
const STREAM_GRACE_MS = 500;
/** bubblewrap options for a pid namespace only: everything else is the host's (this is no sandbox). */
const PID_NAMESPACE = ['--dev-bind', '/', '/', '--unshare-pid', '--die-with-parent', '--proc', '/proc'];

export async function runBash(request: BashRequest): Promise<BashOutcome> {
  const cwd = await mkdtemp(join(tmpdir(), 'helios-bash-')); // mode 0700, a new name per call
  try {
    return await runIn(cwd, request);
  } finally {
    await rm(cwd, { recursive: true, force: true });
  }
}

async function runIn(cwd: string, request: BashRequest): Promise<BashOutcome> {
  const bash = [BASH, '-c', request.script];
  const [command, args] =
    request.bubblewrap === undefined
      ? [BASH, bash.slice(1)]
      : [request.bubblewrap, [...PID_NAMESPACE, '--chdir', cwd, '--', ...bash]];
  const env = { ...request.environment, HOME: cwd };
  const child = spawn(command, args, { cwd, env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  const stdout = capture(child.stdout as Readable);
  const stderr = capture(child.stderr as Readable);
  if (child.pid === undefined) {
    const error = await new Promise<Error>((resolve) => child.once('error', resolve));
    throw error;
  }
  const pid = child.pid;
  const untrack = liveChildren.track(pid, () => killGroup(pid));
  try {
    const end = await endOf(child, request);
    killGroup(pid); // whatever the call left behind in its group
    const outputHeldOpen = !(await closedWithin([stdout.closed, stderr.closed], STREAM_GRACE_MS));
    if (outputHeldOpen) for (const stream of [child.stdout, child.stderr]) stream?.destroy();
    return { end, stdout: stdout.capture, stderr: stderr.capture, outputHeldOpen };
  } finally {
    untrack();
  }
}

function capture(stream: Readable): { capture: StreamCapture; closed: Promise<void> } {
  const captured = new StreamCapture(MAX_STREAM_CHARS);
  stream.setEncoding('utf8');
  stream.on('data', (text: string) => captured.append(text));
  const closed = new Promise<void>((resolve) => stream.once('close', resolve));
  return { capture: captured, closed };
}

/** How the call ended; a timeout or the signal kills the group before answering. */
function endOf(child: ChildProcess, request: BashRequest): Promise<BashOutcome['end']> {
  return new Promise((resolve) => {
    let stopped: BashOutcome['end'] | undefined;
    const stop = (why: BashOutcome['end']): void => {
      stopped ??= why;
      killGroup(child.pid as number);
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
