// Servers run in their own process group (detached), so stopping the group also stops what they started
// (the API's embedded PostgreSQL, Next's workers) and nothing outlives the test run.
import { spawn, type ChildProcess } from 'node:child_process';
import { setTimeout as sleep } from 'node:timers/promises';

const OUTPUT_LIMIT = 20_000;
const KILL_AFTER_MS = 10_000;

export type ServerEnv = Readonly<Record<string, string | undefined>>;

export interface ServerProcess {
  readonly name: string;
  readonly child: ChildProcess;
  /** Resolves when the process has exited (never rejects). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** The tail of stdout+stderr, for failure messages. */
  output(): string;
}

export function startServer(
  name: string,
  command: string,
  args: readonly string[],
  options: { readonly env: ServerEnv; readonly cwd: string },
): ServerProcess {
  const child = spawn(command, args, {
    // Next's global types make NODE_ENV mandatory in ProcessEnv; a child's environment need not have it.
    env: options.env as NodeJS.ProcessEnv,
    cwd: options.cwd,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  const append = (chunk: Buffer): void => {
    output = (output + chunk.toString('utf8')).slice(-OUTPUT_LIMIT);
  };
  child.stdout?.on('data', append);
  child.stderr?.on('data', append);
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveExit) => {
    child.once('exit', (code, signal) => resolveExit({ code, signal }));
    child.once('error', (error) => {
      append(Buffer.from(`\n[spawn error] ${error.message}\n`));
      resolveExit({ code: null, signal: null });
    });
  });
  return { name, child, exited, output: () => output };
}

/** SIGTERM to the whole group, SIGKILL after 10 s; resolves once the leader and the group are gone. */
export async function stopServer(server: ServerProcess): Promise<void> {
  const pid = server.child.pid;
  if (pid === undefined) return;
  signalGroup(pid, 'SIGTERM');
  const deadline = Date.now() + KILL_AFTER_MS;
  const leaderExited = await Promise.race([server.exited.then(() => true), sleep(KILL_AFTER_MS, false)]);
  // The leader may exit before its children (e.g. the database it started); wait for the group too.
  while (groupAlive(pid) && Date.now() < deadline) await sleep(100);
  if (!leaderExited || groupAlive(pid)) {
    console.warn(`${server.name} did not stop within ${KILL_AFTER_MS / 1000} s of SIGTERM; sending SIGKILL`);
    signalGroup(pid, 'SIGKILL');
    await server.exited;
    while (groupAlive(pid)) await sleep(50);
  }
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ESRCH') throw error;
  }
}

function groupAlive(pid: number): boolean {
  try {
    process.kill(-pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}
