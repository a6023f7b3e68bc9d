/**
 * An exclusive lock between processes on one machine: a lock file created with O_EXCL that names its
 * holder (`pid@host`). A holder that died (same host, pid gone) leaves a stale file, which the next
 * locker removes. Held only for the few milliseconds of one append.
 */
import { open, readFile, stat, unlink } from 'node:fs/promises';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import { HeliosError } from '@helios/core';

/** The lock stayed held past the wait: another live writer is stuck mid-append. */
export class SessionStoreBusyError extends HeliosError {
  readonly code = 'SESSION_STORE_BUSY';
}

const HOST = hostname();
const MIN_WAIT_MS = 2;
const MAX_WAIT_MS = 50;
const UNNAMED_STALE_MS = 5_000;

export async function withFileLock<T>(lockPath: string, waitMs: number, work: () => Promise<T>): Promise<T> {
  await acquire(lockPath, waitMs);
  try {
    return await work();
  } finally {
    await unlink(lockPath).catch(() => undefined);
  }
}

async function acquire(lockPath: string, waitMs: number): Promise<void> {
  const deadline = Date.now() + waitMs;
  let pause = MIN_WAIT_MS;
  for (;;) {
    try {
      const handle = await open(lockPath, 'wx', 0o600);
      try {
        await handle.writeFile(`${process.pid}@${HOST}`);
      } finally {
        await handle.close();
      }
      return;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    if (await removeIfStale(lockPath)) continue;
    if (Date.now() >= deadline) {
      throw new SessionStoreBusyError(`lock ${lockPath} is still held after ${waitMs} ms`);
    }
    await sleep(pause);
    pause = Math.min(MAX_WAIT_MS, pause * 2);
  }
}

/** Removes a lock whose holder on this host is gone; a lock of another host is never judged stale. */
async function removeIfStale(lockPath: string): Promise<boolean> {
  let holder: string;
  try {
    holder = await readFile(lockPath, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return true;
    throw error;
  }
  const match = /^(\d+)@(.*)$/.exec(holder);
  // No holder named yet: one between create and write is alive; one that died there leaves it for good.
  if (!match) {
    if (!(await olderThan(lockPath, UNNAMED_STALE_MS))) return false;
  } else if (match[2] !== HOST || isAlive(Number(match[1]))) return false;
  await unlink(lockPath).catch(() => undefined);
  return true;
}

async function olderThan(path: string, ms: number): Promise<boolean> {
  try {
    return Date.now() - (await stat(path)).mtimeMs > ms;
  } catch {
    return true;
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
