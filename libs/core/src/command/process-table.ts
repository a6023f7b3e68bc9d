/**
 * A snapshot of this host's processes read from /proc: for each, what ties it to a grant call (its
 * parent, process group and session, and whether its initial environment carries the call's marker)
 * and whether it has already exited. Processes started before the call's root are left out: none can
 * be the call's, and reading every environment on a busy host costs more than the stat alone. No
 * snapshot where /proc is not this process's own Linux procfs (macOS, a BSD procfs, a foreign pid
 * namespace): pids read there could name other processes.
 */
import { readFileSync } from 'node:fs';
import { readdir, readFile, readlink } from 'node:fs/promises';

export interface ProcessEntry {
  readonly pid: number;
  readonly ppid: number;
  readonly pgid: number;
  readonly sid: number;
  /** Clock ticks after boot at which it started. */
  readonly startTime: number;
  /** A zombie (or dead) process: it has exited, a signal no longer reaches it. */
  readonly exited: boolean;
  /** Its initial environment holds the marker entry exactly. */
  readonly marked: boolean;
}

type StatFields = Omit<ProcessEntry, 'pid' | 'marked'>;

/** Errors that mean "gone, or not ours to read": a process can exit between the listing and the read. */
const VANISHED_OR_FOREIGN = new Set(['ENOENT', 'ESRCH', 'EACCES', 'EPERM']);

/**
 * The processes under `procRoot` that started at `startedFrom` (clock ticks after boot) or later,
 * with `marked` set where the environment holds `marker` (a whole `NAME=value` entry); undefined when
 * `procRoot/self` does not name this process.
 */
export async function readProcessTable(
  procRoot: string,
  marker: string,
  startedFrom: number,
): Promise<ProcessEntry[] | undefined> {
  if (!(await isOwnProcfs(procRoot))) return undefined;
  const pids = (await readdir(procRoot)).filter((name) => /^[1-9][0-9]*$/.test(name)).map(Number);
  const entries = await Promise.all(pids.map((pid) => readEntry(procRoot, pid, marker, startedFrom)));
  return entries.filter((entry) => entry !== undefined);
}

/**
 * When `pid` started, read at once (no await: a child the caller has not yet waited for is still
 * listed, if only as a zombie); undefined without a readable procfs.
 */
export function startTimeOf(procRoot: string, pid: number): number | undefined {
  try {
    return parseStat(readFileSync(`${procRoot}/${pid}/stat`, 'latin1'))?.startTime;
  } catch {
    return undefined; // no procfs: the reaper falls back to the process group
  }
}

async function isOwnProcfs(procRoot: string): Promise<boolean> {
  try {
    return (await readlink(`${procRoot}/self`)) === String(process.pid);
  } catch {
    return false; // no procfs here at all: the caller falls back to what works everywhere
  }
}

async function readEntry(
  procRoot: string,
  pid: number,
  marker: string,
  startedFrom: number,
): Promise<ProcessEntry | undefined> {
  const stat = await readIfPresent(`${procRoot}/${pid}/stat`);
  const fields = stat === undefined ? undefined : parseStat(stat.toString('latin1'));
  if (fields === undefined || fields.startTime < startedFrom) return undefined;
  const environ = await readIfPresent(`${procRoot}/${pid}/environ`);
  const marked = environ !== undefined && `\0${environ.toString('latin1')}\0`.includes(`\0${marker}\0`);
  return { pid, ...fields, marked };
}

/**
 * The fields after the command name, which is in parentheses and may itself hold spaces and ')':
 * `pid (comm) state ppid pgrp session tty … starttime …` (starttime is the 22nd field).
 */
export function parseStat(text: string): StatFields | undefined {
  const close = text.lastIndexOf(')');
  const fields = text.slice(close + 2).split(' ');
  const numbers = [fields[1], fields[2], fields[3], fields[19]].map(Number);
  if (close < 0 || !numbers.every(Number.isSafeInteger)) return undefined;
  const [ppid, pgid, sid, startTime] = numbers as [number, number, number, number];
  const state = fields[0];
  return { ppid, pgid, sid, startTime, exited: state === 'Z' || state === 'X' };
}

async function readIfPresent(path: string): Promise<Buffer | undefined> {
  try {
    return await readFile(path);
  } catch (error) {
    if (VANISHED_OR_FOREIGN.has((error as NodeJS.ErrnoException).code ?? '')) return undefined;
    throw error;
  }
}
