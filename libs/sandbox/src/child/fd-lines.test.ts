import { closeSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { FdLines } from './fd-lines.js';

describe('FdLines', () => {
  const dir = mkdtempSync(join(tmpdir(), 'fd-lines-'));
  const fds: number[] = [];
  afterEach(() => fds.splice(0).forEach(closeSync));

  it('reads back the lines it wrote, whole characters across reads, then end of input', () => {
    const path = join(dir, 'lines');
    const writer = openSync(path, 'w');
    fds.push(writer);
    const long = 'é'.repeat(70_000); // 140,000 bytes: several reads, characters split between them
    new FdLines(writer).writeLine('first');
    new FdLines(writer).writeLine(long);
    new FdLines(writer).writeLine('{"json":true}');
    const reader = new FdLines(openSync(path, 'r'));
    expect(reader.readLine()).toBe('first');
    expect(reader.readLine()).toBe(long);
    expect(reader.readLine()).toBe('{"json":true}');
    expect(reader.readLine()).toBeUndefined();
    rmSync(dir, { recursive: true, force: true });
  });

  it('fails on a descriptor that cannot be read', () => {
    expect(() => new FdLines(987_654).readLine()).toThrow(/EBADF/);
  });
});
