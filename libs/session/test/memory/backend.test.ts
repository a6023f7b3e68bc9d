/** FileSystemMemoryBackend commands on a real temp workspace: happy paths and edges. */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSystemMemoryBackend, MEMORY_EMPTY, MEMORY_EMPTY_FILE } from '../../src/index.js';
import { expectMemoryRefused, makeMemoryBox, type MemoryBox } from './memory-fixtures.js';

let box: MemoryBox;
beforeEach(() => {
  box = makeMemoryBox();
});
afterEach(() => box.cleanup());

const onDisk = (rel: string): string => readFileSync(join(box.memoryDir, rel), 'utf8');

describe('create', () => {
  it('creates the file and its directories under .agent/memory', async () => {
    await box.memory.create('/memories/notes/project.md', 'alpha\nbeta\n');
    expect(onDisk('notes/project.md')).toBe('alpha\nbeta\n');
  });

  it('accepts valid UTF-8 bytes and multi-byte text', async () => {
    await box.memory.create('/memories/u.md', Buffer.from('héllo — 🙂\n', 'utf8'));
    expect(onDisk('u.md')).toBe('héllo — 🙂\n');
  });

  it('never overwrites an existing file', async () => {
    await box.memory.create('/memories/a.md', 'first');
    await expectMemoryRefused(box.memory.create('/memories/a.md', 'second'), 'Exists');
    expect(onDisk('a.md')).toBe('first');
  });

  it('refuses /memories itself and an existing directory', async () => {
    await expectMemoryRefused(box.memory.create('/memories', 'x'), 'NotRegularFile');
    await box.memory.create('/memories/d/f.md', 'x');
    await expectMemoryRefused(box.memory.create('/memories/d', 'x'), 'Exists', 'NotRegularFile');
  });

  it('refuses content that is not text, or larger than the cap', async () => {
    await expectMemoryRefused(
      box.memory.create('/memories/n.md', 42 as unknown as string),
      'InvalidArgument',
    );
    const big = 'x'.repeat(1024 * 1024 + 1);
    await expectMemoryRefused(box.memory.create('/memories/big.md', big), 'TooLarge');
    expect(await box.memory.list()).toEqual([]);
  });
});

describe('view', () => {
  it('shows a file as numbered lines', async () => {
    await box.memory.create('/memories/a.md', 'one\ntwo\n');
    expect(await box.memory.view('/memories/a.md')).toBe('     1\tone\n     2\ttwo');
  });

  it('shows an empty file and a file without a final newline', async () => {
    await box.memory.create('/memories/e.md', '');
    await box.memory.create('/memories/n.md', 'only');
    expect(await box.memory.view('/memories/e.md')).toBe(MEMORY_EMPTY_FILE);
    expect(await box.memory.view('/memories/n.md')).toBe('     1\tonly');
  });

  it('shows a directory as its entries, directories marked', async () => {
    await box.memory.create('/memories/b.md', 'b');
    await box.memory.create('/memories/sub/c.md', 'c');
    expect(await box.memory.view('/memories')).toBe('/memories/b.md\n/memories/sub/');
    expect(await box.memory.view('/memories/sub/')).toBe('/memories/sub/c.md');
  });

  it('shows (empty) for a memory not created yet and for an empty directory', async () => {
    expect(await box.memory.view('/memories')).toBe(MEMORY_EMPTY);
    mkdirSync(join(box.memoryDir, 'empty'), { recursive: true });
    expect(await box.memory.view('/memories/empty')).toBe(MEMORY_EMPTY);
  });

  it('refuses a missing file', async () => {
    await expectMemoryRefused(box.memory.view('/memories/missing.md'), 'NotFound');
  });

  it('refuses a file over the cap and invalid UTF-8 on disk', async () => {
    mkdirSync(box.memoryDir, { recursive: true });
    writeFileSync(join(box.memoryDir, 'big.md'), Buffer.alloc(1024 * 1024 + 1, 0x61));
    writeFileSync(join(box.memoryDir, 'bad.md'), Buffer.from([0x61, 0xff, 0x62]));
    await expectMemoryRefused(box.memory.view('/memories/big.md'), 'TooLarge');
    await expectMemoryRefused(box.memory.view('/memories/bad.md'), 'InvalidUtf8');
  });
});

describe('list', () => {
  it('lists every file below a prefix, sorted, recursively', async () => {
    await box.memory.create('/memories/z.md', 'z');
    await box.memory.create('/memories/a/b/c.md', 'c');
    await box.memory.create('/memories/a/a.md', 'a');
    expect(await box.memory.list()).toEqual(['/memories/a/a.md', '/memories/a/b/c.md', '/memories/z.md']);
    expect(await box.memory.list('/memories/a/b')).toEqual(['/memories/a/b/c.md']);
    expect(await box.memory.list('/memories/z.md')).toEqual(['/memories/z.md']);
  });

  it('is empty before anything was stored; a missing prefix is refused', async () => {
    expect(await box.memory.list('/memories')).toEqual([]);
    await expectMemoryRefused(box.memory.list('/memories/nope'), 'NotFound');
  });
});

describe('str_replace', () => {
  beforeEach(async () => {
    await box.memory.create('/memories/s.md', 'cat dog cat\nbird\n');
  });

  it('replaces exactly one occurrence, literally', async () => {
    await box.memory.strReplace('/memories/s.md', 'dog', '$& $1 fox');
    expect(onDisk('s.md')).toBe('cat $& $1 fox cat\nbird\n');
  });

  it('refuses zero occurrences and leaves the file unchanged', async () => {
    const error = await expectMemoryRefused(box.memory.strReplace('/memories/s.md', 'cow', 'x'), 'NoMatch');
    expect(error.message).toContain('not found');
    expect(onDisk('s.md')).toBe('cat dog cat\nbird\n');
  });

  it('refuses two occurrences with the count and leaves the file unchanged', async () => {
    const error = await expectMemoryRefused(
      box.memory.strReplace('/memories/s.md', 'cat', 'x'),
      'AmbiguousMatch',
    );
    expect(error.message).toContain('found 2 occurrences');
    expect(onDisk('s.md')).toBe('cat dog cat\nbird\n');
  });

  it('counts overlapping occurrences as ambiguous', async () => {
    await box.memory.create('/memories/o.md', 'aaa');
    await expectMemoryRefused(box.memory.strReplace('/memories/o.md', 'aa', 'b'), 'AmbiguousMatch');
  });

  it('refuses an empty oldString and a missing file', async () => {
    await expectMemoryRefused(box.memory.strReplace('/memories/s.md', '', 'x'), 'InvalidArgument');
    await expectMemoryRefused(box.memory.strReplace('/memories/none.md', 'a', 'b'), 'NotFound');
  });
});

describe('insert', () => {
  beforeEach(async () => {
    await box.memory.create('/memories/i.md', 'one\ntwo\n');
  });

  it('inserts before the first line', async () => {
    await box.memory.insert('/memories/i.md', 1, 'zero\n');
    expect(onDisk('i.md')).toBe('zero\none\ntwo\n');
  });

  it('inserts in the middle, several lines', async () => {
    await box.memory.insert('/memories/i.md', 2, 'a\nb');
    expect(onDisk('i.md')).toBe('one\na\nb\ntwo\n');
  });

  it('appends at n+1, keeping the final newline', async () => {
    await box.memory.insert('/memories/i.md', 3, 'three');
    expect(onDisk('i.md')).toBe('one\ntwo\nthree\n');
  });

  it('keeps a file without a final newline without one', async () => {
    await box.memory.create('/memories/n.md', 'one');
    await box.memory.insert('/memories/n.md', 2, 'two');
    expect(onDisk('n.md')).toBe('one\ntwo');
  });

  it('inserts into an empty file at line 1', async () => {
    await box.memory.create('/memories/e.md', '');
    await box.memory.insert('/memories/e.md', 1, 'first\n');
    expect(onDisk('e.md')).toBe('first\n');
  });

  it.each([0, -1, 4, 100, 1.5, Number.NaN])('refuses line %s and leaves the file unchanged', async (line) => {
    const error = await expectMemoryRefused(box.memory.insert('/memories/i.md', line, 'x'), 'LineOutOfRange');
    expect(error.message).toContain('1 to 3');
    expect(onDisk('i.md')).toBe('one\ntwo\n');
  });
});

describe('delete', () => {
  it('deletes a file', async () => {
    await box.memory.create('/memories/d.md', 'x');
    await box.memory.delete('/memories/d.md');
    expect(await box.memory.list()).toEqual([]);
  });

  it('refuses a missing file, a directory and /memories', async () => {
    await expectMemoryRefused(box.memory.delete('/memories/missing.md'), 'NotFound');
    await box.memory.create('/memories/dir/f.md', 'x');
    await expectMemoryRefused(box.memory.delete('/memories/dir'), 'NotRegularFile');
    await expectMemoryRefused(box.memory.delete('/memories'), 'NotRegularFile');
    expect(await box.memory.list()).toEqual(['/memories/dir/f.md']);
  });
});

describe('configured memory directory', () => {
  it('stores directly in the given directory', async () => {
    const dir = join(box.base, 'mem');
    mkdirSync(dir);
    const memory = new FileSystemMemoryBackend(dir);
    await memory.create('/memories/x/y.md', 'y');
    expect(readFileSync(join(dir, 'x', 'y.md'), 'utf8')).toBe('y');
    expect(await memory.list()).toEqual(['/memories/x/y.md']);
    expect(await memory.view('/memories')).toBe('/memories/x/');
  });

  it('refuses a missing directory at construction', () => {
    expect(() => new FileSystemMemoryBackend(join(box.base, 'absent'))).toThrow(/refused/);
  });
});
