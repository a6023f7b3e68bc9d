import { readFile } from 'node:fs/promises';
import { setTimeout as sleep } from 'node:timers/promises';

/** True when a process with this pid exists (EPERM means it exists but belongs to someone else). */
export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** The process's command line, or undefined where /proc is unavailable or the process is gone. */
export async function commandLine(pid: number): Promise<string | undefined> {
  try {
    return (await readFile(`/proc/${pid}/cmdline`, 'utf8')).replaceAll('\0', ' ').trim();
  } catch {
    return undefined;
  }
}

/** Polls until the process is gone or the time is up; returns whether it is gone. */
export async function waitForExit(pid: number, timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (isAlive(pid)) {
    if (Date.now() >= deadline) return false;
    await sleep(50);
  }
  return true;
}

/**
 * Stops a PostgreSQL postmaster the way its documentation recommends: SIGINT (fast shutdown), then
 * SIGQUIT (immediate shutdown), then SIGKILL, each after a bounded wait.
 */
export async function stopPostmaster(pid: number, graceMs: number): Promise<void> {
  for (const [signal, wait] of [
    ['SIGINT', graceMs],
    ['SIGQUIT', 5_000],
    ['SIGKILL', 5_000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return; // already gone
    }
    if (await waitForExit(pid, wait)) return;
  }
}

/**
 * Kills what is left of a dead postmaster's process group (its backends and auxiliary processes), then
 * waits (bounded) until the group is gone: a new postmaster refuses to start while any of them still
 * holds the old shared memory. A group whose leader has exited keeps its id until its last member
 * exits, so the id cannot name an unrelated group meanwhile.
 */
export async function killProcessGroup(pgid: number, timeoutMs: number): Promise<void> {
  try {
    process.kill(-pgid, 'SIGKILL');
  } catch {
    return; // no member left
  }
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    try {
      process.kill(-pgid, 0);
    } catch {
      return;
    }
    await sleep(25);
  }
}
