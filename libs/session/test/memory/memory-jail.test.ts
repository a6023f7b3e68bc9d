/**
 * Memory is strictly narrower than the file tools: paths outside /memories, `.`/`..` segments and any
 * symbolic link on the path (leaf, ancestor, even one pointing inside) are refused for every command;
 * invalid UTF-8 is refused before anything is created; new files are 0600 and directories 0700.
 */
import { mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { FileSystemMemoryBackend, WorkspaceRoot } from '../../src/index.js';
import { SECRET } from '../workspace/fixtures.js';
import { expectMemoryRefused, makeMemoryBox, type MemoryBox, modeOf, snapshot } from './memory-fixtures.js';

let box: MemoryBox;
beforeEach(() => {
  box = makeMemoryBox();
});
afterEach(() => box.cleanup());

type Command = [string, (path: string) => Promise<unknown>];
const commands = (): Command[] => [
  ['view', (p) => box.memory.view(p)],
  ['list', (p) => box.memory.list(p)],
  ['create', (p) => box.memory.create(p, 'x')],
  ['strReplace', (p) => box.memory.strReplace(p, 'a', 'b')],
  ['insert', (p) => box.memory.insert(p, 1, 'x')],
  ['delete', (p) => box.memory.delete(p)],
];

describe('paths outside the namespace', () => {
  it.each([
    'notes.md',
    'memories/a.md',
    '/memoriesX/a.md',
    '/etc/passwd',
    '/memories/../secret.txt',
    '/memories/a/../../b.md',
    '/memories/./a.md',
    '/memories/a/..',
    '/memories/a\\b.md',
    '/memories/a\0b.md',
    '',
    '   ',
  ])('refuses %j for every command', async (path) => {
    for (const [, run] of commands()) await expectMemoryRefused(run(path), 'NotMemoryPath');
    expect(snapshot(box.root)).toEqual([]);
  });

  it('refuses a non-string path', async () => {
    await expectMemoryRefused(box.memory.view(undefined as unknown as string), 'NotMemoryPath');
  });
});

describe('symbolic links anywhere on the path', () => {
  const SYMLINK_REASONS = ['Symlink', 'Outside', 'DanglingLink', 'LinkLoop', 'NotFound'] as const;

  beforeEach(() => {
    mkdirSync(join(box.memoryDir, 'real'), { recursive: true });
    writeFileSync(join(box.memoryDir, 'real', 'a.md'), 'a\n');
    writeFileSync(join(box.root, 'plain.md'), 'a\n');
  });

  async function refusedEverywhere(path: string): Promise<void> {
    const before = snapshot(box.base);
    for (const [name, run] of commands()) {
      const error = await expectMemoryRefused(run(path), ...SYMLINK_REASONS);
      expect(error.reason, name).not.toBe('NotFound');
    }
    expect(snapshot(box.base)).toEqual(before);
    expect(readFileSync(join(box.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  }

  it('refuses a leaf link to a file inside the memory', async () => {
    symlinkSync(join(box.memoryDir, 'real', 'a.md'), join(box.memoryDir, 'leaf.md'));
    await refusedEverywhere('/memories/leaf.md');
  });

  it('refuses a relative leaf link to a workspace file', async () => {
    symlinkSync('../../plain.md', join(box.memoryDir, 'rel.md'));
    await refusedEverywhere('/memories/rel.md');
  });

  it('refuses a leaf link leading outside', async () => {
    symlinkSync(join(box.outside, 'secret.txt'), join(box.memoryDir, 'out.md'));
    await refusedEverywhere('/memories/out.md');
  });

  it('refuses dangling and looping leaf links', async () => {
    symlinkSync(join(box.memoryDir, 'nothing.md'), join(box.memoryDir, 'dangling.md'));
    symlinkSync('loop.md', join(box.memoryDir, 'loop.md'));
    await refusedEverywhere('/memories/dangling.md');
    await refusedEverywhere('/memories/loop.md');
  });

  it('refuses an ancestor link pointing inside the memory', async () => {
    symlinkSync('real', join(box.memoryDir, 'alias'));
    await refusedEverywhere('/memories/alias/a.md');
    await refusedEverywhere('/memories/alias/new/b.md');
    await refusedEverywhere('/memories/alias');
  });

  it('refuses an ancestor link leading outside', async () => {
    symlinkSync(box.outside, join(box.memoryDir, 'out'));
    await refusedEverywhere('/memories/out/secret.txt');
    await refusedEverywhere('/memories/out/dir/new.md');
  });

  it('refuses a link in place of the memory directory or .agent', async () => {
    const other = makeMemoryBox();
    try {
      mkdirSync(join(other.root, 'elsewhere'));
      writeFileSync(join(other.root, 'elsewhere', 'a.md'), 'a');
      mkdirSync(join(other.root, '.agent'));
      symlinkSync('../elsewhere', join(other.root, '.agent', 'memory'));
      const before = snapshot(other.base);
      await expectMemoryRefused(other.memory.view('/memories/a.md'), 'Symlink');
      await expectMemoryRefused(other.memory.list('/memories'), 'Symlink');
      await expectMemoryRefused(other.memory.create('/memories/b.md', 'b'), 'Symlink');
      expect(snapshot(other.base)).toEqual(before);
    } finally {
      other.cleanup();
    }
  });

  it('refuses a link in place of .agent', async () => {
    const other = makeMemoryBox();
    try {
      mkdirSync(join(other.root, 'shadow', 'memory'), { recursive: true });
      symlinkSync('shadow', join(other.root, '.agent'));
      const before = snapshot(other.base);
      await expectMemoryRefused(other.memory.create('/memories/b.md', 'b'), 'Symlink');
      await expectMemoryRefused(other.memory.list(), 'Symlink');
      expect(snapshot(other.base)).toEqual(before);
    } finally {
      other.cleanup();
    }
  });

  it('lists and views past links met inside a directory without following them', async () => {
    symlinkSync(box.outside, join(box.memoryDir, 'out'));
    symlinkSync(join(box.outside, 'secret.txt'), join(box.memoryDir, 'real', 's.md'));
    expect(await box.memory.list()).toEqual(['/memories/real/a.md']);
    expect(await box.memory.view('/memories')).toBe('/memories/real/');
    expect(await box.memory.view('/memories/real')).toBe('/memories/real/a.md');
  });
});

describe('strict UTF-8', () => {
  it.each([
    ['bytes with 0xFF', Buffer.from([0x61, 0xff])],
    ['a truncated sequence', Buffer.from([0xe2, 0x82])],
    ['an overlong encoding', Buffer.from([0xc0, 0xaf])],
    ['an encoded surrogate', Buffer.from([0xed, 0xa0, 0x80])],
    ['a lone high surrogate', 'a\uD800b'],
    ['a lone low surrogate', '\uDC00'],
  ])('create refuses %s before creating any directory', async (_name, content) => {
    await expectMemoryRefused(box.memory.create('/memories/deep/new/file.md', content), 'InvalidUtf8');
    expect(snapshot(box.root)).toEqual([]);
  });

  it('str_replace and insert refuse invalid text and leave the file unchanged', async () => {
    await box.memory.create('/memories/t.md', 'keep\n');
    const before = snapshot(box.root);
    await expectMemoryRefused(box.memory.strReplace('/memories/t.md', 'keep', '\uD800'), 'InvalidUtf8');
    await expectMemoryRefused(box.memory.strReplace('/memories/t.md', '\uDFFF', 'x'), 'InvalidUtf8');
    await expectMemoryRefused(box.memory.insert('/memories/t.md', 1, 'x\uD83D'), 'InvalidUtf8');
    expect(snapshot(box.root)).toEqual(before);
    expect(readFileSync(join(box.memoryDir, 't.md'), 'utf8')).toBe('keep\n');
  });

  it('edits of a file holding invalid UTF-8 are refused, the bytes untouched', async () => {
    mkdirSync(box.memoryDir, { recursive: true });
    const bad = Buffer.from([0x6b, 0xfe, 0x0a]);
    writeFileSync(join(box.memoryDir, 'bad.md'), bad);
    await expectMemoryRefused(box.memory.strReplace('/memories/bad.md', 'k', 'x'), 'InvalidUtf8');
    await expectMemoryRefused(box.memory.insert('/memories/bad.md', 1, 'x'), 'InvalidUtf8');
    expect(readFileSync(join(box.memoryDir, 'bad.md'))).toEqual(bad);
  });
});

describe('permissions', () => {
  it('creates files 0600 and directories 0700', async () => {
    const umask = process.umask(0);
    try {
      await box.memory.create('/memories/a/b/c.md', 'c');
    } finally {
      process.umask(umask);
    }
    expect(modeOf(join(box.root, '.agent'))).toBe(0o700);
    expect(modeOf(box.memoryDir)).toBe(0o700);
    expect(modeOf(join(box.memoryDir, 'a'))).toBe(0o700);
    expect(modeOf(join(box.memoryDir, 'a', 'b'))).toBe(0o700);
    expect(modeOf(join(box.memoryDir, 'a', 'b', 'c.md'))).toBe(0o600);
  });

  it('keeps the permissions of an edited file', async () => {
    await box.memory.create('/memories/e.md', 'one\n');
    await box.memory.strReplace('/memories/e.md', 'one', 'two');
    await box.memory.insert('/memories/e.md', 1, 'zero');
    expect(modeOf(join(box.memoryDir, 'e.md'))).toBe(0o600);
  });
});

describe('always strict I/O', () => {
  it('reopens a trusted workspace in strict mode', async () => {
    const trusted = new WorkspaceRoot(box.root, { trusted: true });
    const memory = new FileSystemMemoryBackend(trusted);
    expect(memory.storage.trusted).toBe(false);
    expect(memory.storage.root).toBe(box.root);
    await memory.create('/memories/t.md', 't');
    expect(await box.memory.view('/memories/t.md')).toBe('     1\tt');
  });

  it('uses a strict workspace as it is', () => {
    expect(box.memory.storage).toBe(box.workspace);
  });
});
