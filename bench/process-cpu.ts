/** CPU time of processes on Linux, read from /proc: what the HTTP benches charge to each side. */
import { readdirSync, readFileSync } from 'node:fs';

/** utime + stime of a process, in µs (clock ticks are 100 Hz on Linux); 0 once it has exited. */
export function cpuMicros(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10_000;
  } catch {
    return 0;
  }
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
