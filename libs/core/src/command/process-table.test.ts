import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { parseStat, readProcessTable, startTimeOf } from './process-table.js';

const MARKER = 'HELIOS_GRANT_CALL=m';
let proc: string;

/** A stat line as Linux writes it: starttime is the 20th field after the command name. */
function statLine(
  pid: number,
  comm: string,
  state: string,
  ids: [number, number, number],
  start: number,
): string {
  return `${pid} (${comm}) ${state} ${ids.join(' ')} ${'0 '.repeat(15)}${start} 4096 12\n`;
}

function fakeProcess(pid: number, stat: string | undefined, environ?: string): void {
  mkdirSync(join(proc, String(pid)));
  if (stat !== undefined) writeFileSync(join(proc, String(pid), 'stat'), stat);
  if (environ !== undefined) writeFileSync(join(proc, String(pid), 'environ'), environ);
}

beforeEach(() => {
  proc = mkdtempSync(join(tmpdir(), 'fake-proc-'));
  symlinkSync(String(process.pid), join(proc, 'self'));
});
afterEach(() => rmSync(proc, { recursive: true, force: true }));

describe('parseStat', () => {
  it('reads this process’s own stat', () => {
    const fields = parseStat(readFileSync('/proc/self/stat', 'latin1'));
    expect(fields).toMatchObject({ ppid: process.ppid, exited: false });
    expect(fields?.startTime).toBeGreaterThan(0);
  });

  it('takes a command name holding spaces and parentheses', () => {
    expect(parseStat(statLine(7, 'a) (b c', 'Z', [1, 2, 3], 99))).toEqual({
      ppid: 1,
      pgid: 2,
      sid: 3,
      startTime: 99,
      exited: true,
    });
  });

  it.each(['', 'nonsense', '7 (x) S 1 2', '7 (x) S 1 2 three'])('refuses %j', (text) => {
    expect(parseStat(text)).toBeUndefined();
  });
});

describe('readProcessTable', () => {
  it('lists readable processes started from the given time, marking exact marker entries', async () => {
    fakeProcess(10, statLine(10, 'sh', 'S', [1, 10, 10], 500), `A=1\0${MARKER}\0B=2\0`);
    fakeProcess(11, statLine(11, 'sleep', 'Z', [10, 10, 10], 501), `${MARKER}x\0`);
    fakeProcess(12, undefined);
    fakeProcess(13, 'garbage');
    fakeProcess(14, statLine(14, 'old', 'S', [1, 14, 14], 499), `${MARKER}\0`);
    fakeProcess(15, statLine(15, 'noenv', 'S', [10, 10, 10], 600));
    fakeProcess(16, statLine(16, 'last', 'R', [15, 10, 10], 700), MARKER);
    mkdirSync(join(proc, 'net'));
    const table = await readProcessTable(proc, MARKER, 500);
    expect(table?.sort((a, b) => a.pid - b.pid)).toEqual([
      { pid: 10, ppid: 1, pgid: 10, sid: 10, startTime: 500, exited: false, marked: true },
      { pid: 11, ppid: 10, pgid: 10, sid: 10, startTime: 501, exited: true, marked: false },
      { pid: 15, ppid: 10, pgid: 10, sid: 10, startTime: 600, exited: false, marked: false },
      { pid: 16, ppid: 15, pgid: 10, sid: 10, startTime: 700, exited: false, marked: true },
    ]);
  });

  it('has no table where /proc/self is not this process', async () => {
    rmSync(join(proc, 'self'));
    symlinkSync('1', join(proc, 'self'));
    expect(await readProcessTable(proc, MARKER, 0)).toBeUndefined();
    expect(await readProcessTable(join(proc, 'missing'), MARKER, 0)).toBeUndefined();
  });

  it('fails on an error that does not mean the process went away', async () => {
    mkdirSync(join(proc, '20', 'stat'), { recursive: true });
    await expect(readProcessTable(proc, MARKER, 0)).rejects.toThrow(/EISDIR/);
  });
});

describe('startTimeOf', () => {
  it('reads a start time at once, or none without procfs', () => {
    fakeProcess(10, statLine(10, 'sh', 'S', [1, 10, 10], 1234));
    expect(startTimeOf(proc, 10)).toBe(1234);
    expect(startTimeOf(proc, 11)).toBeUndefined();
    expect(startTimeOf('/proc', process.pid)).toBeGreaterThan(0);
  });
});
