/** CPU time of processes on Linux, read from /proc: what the HTTP benches charge to each side. */
import { readdirSync, readFileSync } from 'node:fs';

/** Fields of /proc/<pid>/stat after the command name; none once the process has exited. */
function statFields(pid: number): string[] {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
  } catch {
    return [];
  }
}

/** utime + stime of a process, in µs (clock ticks are 100 Hz on Linux); 0 once it has exited. */
export function cpuMicros(pid: number): number {
  const fields = statFields(pid);
  return fields.length === 0 ? 0 : (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/**
 * CPU of a process tree below `pid`, in µs: every live descendant's own time plus what it has reaped
 * of its exited children (cutime + cstime). Counting live processes alone lost the time of every
 * process that exited during a measurement (a PostgreSQL backend or autovacuum worker) and could even
 * make a delta negative.
 */
export function descendantsCpuMicros(pid: number): number {
  return descendants(pid).reduce((sum, child) => {
    const fields = statFields(child);
    if (fields.length === 0) return sum;
    return sum + (Number(fields[11]) + Number(fields[12]) + Number(fields[13]) + Number(fields[14])) * 10_000;
  }, 0);
}

/** Every live descendant of `pid` (children of all its threads, recursively). */
export function descendants(pid: number): number[] {
  const children: number[] = [];
  let tasks: string[] = [];
  try {
    tasks = readdirSync(`/proc/${pid}/task`);
  } catch {
    return [];
  }
  for (const task of tasks) {
    try {
      const listed = readFileSync(`/proc/${pid}/task/${task}/children`, 'utf8').trim();
      if (listed !== '') children.push(...listed.split(' ').map(Number));
    } catch {
      // The thread ended meanwhile.
    }
  }
  return children.flatMap((child) => [child, ...descendants(child)]);
}
