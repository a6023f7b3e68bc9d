import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { InvalidArgumentError } from '../common/helios-error.js';
import { type CallProcesses, callMembers, reapCall } from './descendant-reaper.js';
import { goneWithin } from './grant-test-kit.js';
import { type ProcessEntry } from './process-table.js';

const ROOT = 100;

function entry(
  pid: number,
  ppid: number,
  pgid: number,
  sid: number,
  extra: Partial<ProcessEntry> = {},
): ProcessEntry {
  return { pid, ppid, pgid, sid, startTime: 0, exited: false, marked: false, ...extra };
}

function call(rootAlive: boolean, rootPid = ROOT): CallProcesses {
  return { rootPid, marker: 'HELIOS_GRANT_CALL=m', startedFrom: 0, rootAlive: () => rootAlive };
}

describe('callMembers', () => {
  const table = [
    entry(ROOT, 1, ROOT, ROOT),
    entry(101, ROOT, 101, 101), // setsid'ed child: by parentage while the root lives
    entry(102, 101, 101, 101), // its child
    entry(110, 1, 110, 110, { marked: true }), // reparented, found by its marker
    entry(111, 1, 110, 110), // in the group the marked one leads
    entry(112, 1, 112, 110), // in the session it leads
    entry(120, 1, ROOT, ROOT), // still in the root's group
    entry(130, 1, 130, 130), // unrelated
    entry(131, 130, 130, 130), // unrelated
    entry(140, 110, 140, 140, { exited: true }), // ours, but a zombie
    entry(process.pid, 1, process.pid, process.pid, { marked: true }), // never this process
  ];

  it('follows parentage from the root while it lives, and markers, groups and sessions always', () => {
    expect(callMembers(table, call(true)).map((member) => member.pid)).toEqual([
      ROOT,
      101,
      102,
      110,
      111,
      112,
      120,
    ]);
    const afterTheRootWasWaitedFor = table.slice(1);
    const members = callMembers(afterTheRootWasWaitedFor, call(false)).map((member) => member.pid);
    expect(members).toEqual([110, 111, 112, 120]);
  });
});

describe('reapCall', () => {
  it('refuses a root pid that would signal this process’s own group', async () => {
    await expect(reapCall(call(true, 0))).rejects.toThrow(InvalidArgumentError);
  });

  it('without procfs kills the root’s process group, and only that', async () => {
    const child = spawn(
      '/bin/sh',
      ['-c', 'sleep 300 & echo $!; setsid sleep 300 & sleep 0.2; echo $!; sleep 300'],
      {
        detached: true,
        stdio: ['ignore', 'pipe', 'ignore'],
      },
    );
    const printed = await new Promise<string>((resolve) => {
      let text = '';
      child.stdout.on('data', (chunk: Buffer) => {
        text += chunk.toString();
        if (text.split('\n').length > 2) resolve(text);
      });
    });
    const [member, escaped] = printed.trim().split('\n').map(Number) as [number, number];
    const survivors = await reapCall(
      { rootPid: child.pid as number, marker: 'X=y', startedFrom: 0, rootAlive: () => true },
      '/nonexistent-proc',
    );
    expect(survivors).toEqual([]);
    expect(await goneWithin(child.pid as number, 2_000)).toBe(true);
    expect(await goneWithin(member, 2_000)).toBe(true);
    expect(await goneWithin(escaped, 200)).toBe(false);
    process.kill(escaped, 'SIGKILL');
  });

  it('gives up after its last round and names what it could not kill', async () => {
    const proc = mkdtempSync(join(tmpdir(), 'fake-proc-'));
    try {
      symlinkSync(String(process.pid), join(proc, 'self'));
      const ghost = 2_000_000_000; // above any pid_max: every kill finds nothing, yet it stays listed
      mkdirSync(join(proc, String(ghost)));
      const stat = `${ghost} (ghost) S 1 ${ghost} ${ghost} ${'0 '.repeat(15)}5 0 0`;
      writeFileSync(join(proc, String(ghost), 'stat'), stat);
      writeFileSync(join(proc, String(ghost), 'environ'), 'HELIOS_GRANT_CALL=m\0');
      expect(await reapCall(call(false), proc)).toEqual([ghost]);
    } finally {
      rmSync(proc, { recursive: true, force: true });
    }
  });
});
