/** MemoryRead and MemoryWrite through Tool.execute: parameters, outputs, failed results, bindings. */
import { readFileSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  MEMORY_EMPTY,
  MEMORY_READ_TOOL,
  MEMORY_WRITE_TOOL,
  memoryReadTool,
  memoryToolBindings,
  memoryWriteTool,
} from '../../src/index.js';
import { failure, output } from '../workspace-tools/tool-fixtures.js';
import { makeMemoryBox, type MemoryBox, snapshot } from './memory-fixtures.js';

let box: MemoryBox;
beforeEach(() => {
  box = makeMemoryBox();
});
afterEach(() => box.cleanup());

const read = () => memoryReadTool(box.memory);
const write = () => memoryWriteTool(box.memory);

describe('MemoryWrite', () => {
  it('creates, replaces, inserts and deletes', async () => {
    expect(await output(write(), { op: 'create', path: '/memories/a.md', content: 'one\ntwo\n' })).toBe(
      'created /memories/a.md',
    );
    expect(
      await output(write(), { op: 'str_replace', path: '/memories/a.md', oldString: 'two', newString: '2' }),
    ).toBe('replaced 1 occurrence in /memories/a.md');
    expect(
      await output(write(), { op: 'insert', path: '/memories/a.md', lineNumber: 3, content: 'three' }),
    ).toBe('inserted at line 3 of /memories/a.md');
    expect(readFileSync(join(box.memoryDir, 'a.md'), 'utf8')).toBe('one\n2\nthree\n');
    expect(await output(write(), { op: 'delete', path: '/memories/a.md' })).toBe('deleted /memories/a.md');
    expect(snapshot(box.memoryDir)).toEqual([]);
  });

  it('returns readable failures for refused commands', async () => {
    await output(write(), { op: 'create', path: '/memories/a.md', content: 'x x' });
    expect(await failure(write(), { op: 'create', path: '/memories/a.md', content: 'y' })).toMatch(
      /^MemoryWrite refused: memory path "\/memories\/a\.md" refused: the file already exists/,
    );
    expect(
      await failure(write(), { op: 'str_replace', path: '/memories/a.md', oldString: 'x', newString: 'y' }),
    ).toContain('found 2 occurrences');
    expect(
      await failure(write(), { op: 'insert', path: '/memories/a.md', lineNumber: 9, content: 'z' }),
    ).toContain('1 to 2');
    expect(await failure(write(), { op: 'delete', path: '/memories/missing.md' })).toContain('no such file');
    expect(await failure(write(), { op: 'create', path: '../x.md', content: 'x' })).toContain('/memories/');
  });

  it('refuses a symlinked path', async () => {
    await output(write(), { op: 'create', path: '/memories/real.md', content: 'r' });
    symlinkSync('real.md', join(box.memoryDir, 'link.md'));
    expect(await failure(write(), { op: 'delete', path: '/memories/link.md' })).toContain('symbolic link');
    expect(readFileSync(join(box.memoryDir, 'real.md'), 'utf8')).toBe('r');
  });

  it.each([
    [{ path: '/memories/a.md' }, "invalid arguments for tool 'MemoryWrite'"],
    [{ op: 'rename', path: '/memories/a.md' }, 'got "rename"'],
    [{ op: 'create', path: '/memories/a.md' }, 'content must be a string'],
    [{ op: 'str_replace', path: '/memories/a.md', oldString: 'a' }, 'newString must be a string'],
    [{ op: 'insert', path: '/memories/a.md', content: 'a' }, 'lineNumber must be an integer'],
    [
      { op: 'insert', path: '/memories/a.md', content: 'a', lineNumber: '1' },
      "field 'lineNumber' expected integer",
    ],
  ])('refuses bad arguments %j', async (args, message) => {
    expect(await failure(write(), args)).toContain(message);
    expect(snapshot(box.root)).toEqual([]);
  });
});

describe('MemoryRead', () => {
  beforeEach(async () => {
    await box.memory.create('/memories/a.md', 'alpha\n');
    await box.memory.create('/memories/sub/b.md', 'beta\n');
  });

  it('views a file and a directory', async () => {
    expect(await output(read(), { path: '/memories/a.md' })).toBe('     1\talpha');
    expect(await output(read(), { path: '/memories', list: false })).toBe('/memories/a.md\n/memories/sub/');
  });

  it('lists files recursively, (empty) when none', async () => {
    expect(await output(read(), { path: '/memories', list: true })).toBe(
      '/memories/a.md\n/memories/sub/b.md',
    );
    await box.memory.delete('/memories/sub/b.md');
    expect(await output(read(), { path: '/memories/sub', list: true })).toBe(MEMORY_EMPTY);
  });

  it('returns readable failures', async () => {
    expect(await failure(read(), { path: '/memories/none.md' })).toMatch(
      /^MemoryRead refused: .*no such file/,
    );
    expect(await failure(read(), { path: '/etc/passwd' })).toContain('start with /memories/');
    expect(await failure(read(), { path: '/memories', list: 'yes' })).toContain(
      "field 'list' expected boolean",
    );
  });
});

describe('bindings', () => {
  it('binds MemoryRead as READ and MemoryWrite as WRITE, keyed by path', () => {
    const [readBinding, writeBinding] = memoryToolBindings(box.memory);
    expect(readBinding?.tool.name).toBe(MEMORY_READ_TOOL);
    expect(readBinding?.category).toBe('READ');
    expect(writeBinding?.tool.name).toBe(MEMORY_WRITE_TOOL);
    expect(writeBinding?.category).toBe('WRITE');
    expect(readBinding?.permissionKey?.({ path: '/memories/x.md' })).toBe('/memories/x.md');
    expect(writeBinding?.permissionKey?.({})).toBe('/memories');
  });
});
