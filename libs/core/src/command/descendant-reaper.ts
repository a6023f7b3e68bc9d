/**
 * Ends every process a grant call started, including those that left its process group and session
 * and were reparented to init: `setsid daemon &` is one line of shell, and such a process would
 * otherwise outlive the call with the grant's secrets in its environment.
 *
 * With a usable /proc each round snapshots the processes started since the root, then kills the
 * call's: the root while it runs (so its children are found by parentage before a kill orphans them),
 * everything in the root's process group or session, everything whose initial environment carries
 * the call's marker (inherited across fork and exec), and, to a fixed point, the children of any of
 * those and the members of any group or session one of them leads. Rounds repeat until one finds none
 * alive (a zombie counts as gone), up to MAX_ROUNDS; the pids still alive then are returned.
 *
 * Limits. A process that clears its environment AND leaves the call's parentage, group and session
 * (a double fork, or setsid once its parent has exited) before a round sees it, escapes: nothing on
 * the host ties it to the call any more. An unprivileged host cannot read a set-uid descendant's
 * environment (nor, perhaps, kill it): that one is found through parentage, group or session only,
 * and is returned as a survivor if it resists. A pid freed and reused between a round's read and its
 * kill could name an unrelated process (the window is microseconds). Without /proc (macOS, BSD) only
 * the root's process group is killed: descendants that called setsid survive. A host process that
 * dies mid-call reaps nothing: the call's processes are detached from it.
 */
import { delay } from '../common/abort.js';
import { requirePositiveInteger } from '../common/validate.js';
import { type ProcessEntry, readProcessTable } from './process-table.js';

/** What identifies one call's processes. */
export interface CallProcesses {
  /** The process the call spawned, leader of its own process group and session. */
  readonly rootPid: number;
  /** The `NAME=value` environment entry given to the root, unique to the call. */
  readonly marker: string;
  /** When the root started (clock ticks after boot; 0 if unknown): nothing older is the call's. */
  readonly startedFrom: number;
  /** False once the root has exited and been waited for: its pid may then belong to a newcomer. */
  rootAlive(): boolean;
}

const MAX_ROUNDS = 100;
const ROUND_PAUSE_MS = 10;

/** Kills the call's processes until none is left; resolves with the pids of any still alive. */
export async function reapCall(call: CallProcesses, procRoot = '/proc'): Promise<readonly number[]> {
  requirePositiveInteger(call.rootPid, 'rootPid'); // kill(-0) would be this process's own group
  for (let round = 1; ; round += 1) {
    const table = await readProcessTable(procRoot, call.marker, call.startedFrom);
    if (table === undefined) {
      sendKill(-call.rootPid);
      return [];
    }
    const alive = callMembers(table, call);
    if (alive.length === 0 || round > MAX_ROUNDS) return alive.map((entry) => entry.pid);
    for (const entry of alive) {
      sendKill(entry.pid);
      if (entry.pgid === entry.pid) sendKill(-entry.pid); // members that forked since the snapshot
    }
    await delay(ROUND_PAUSE_MS);
  }
}

/** The live processes of the snapshot that belong to the call. */
export function callMembers(table: readonly ProcessEntry[], call: CallProcesses): ProcessEntry[] {
  const ours = new Set<number>();
  if (call.rootAlive()) ours.add(call.rootPid);
  for (const entry of table) {
    if (entry.marked || entry.pgid === call.rootPid || entry.sid === call.rootPid) ours.add(entry.pid);
  }
  for (let grew = true; grew;) {
    grew = false;
    for (const entry of table) {
      if (ours.has(entry.pid)) continue;
      if (ours.has(entry.ppid) || ours.has(entry.pgid) || ours.has(entry.sid)) {
        ours.add(entry.pid);
        grew = true;
      }
    }
  }
  return table.filter((entry) => ours.has(entry.pid) && !entry.exited && entry.pid !== process.pid);
}

/** SIGKILL to a pid (negative: a process group); one already gone is what we wanted. */
function sendKill(target: number): void {
  try {
    process.kill(target, 'SIGKILL');
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    // EPERM: not ours to kill (a set-uid descendant); it stays alive and is reported as a survivor.
    if (code !== 'ESRCH' && code !== 'EPERM') throw error;
  }
}
