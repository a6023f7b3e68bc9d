/** The lexical and canonical jail: `..`, absolute paths, links out, dangling and looping links, lookalikes. */
import { mkdirSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceRoot } from '../../src/index.js';
import { expectRefused, isInside, makeSandbox, populate, type Sandbox, SECRET } from './fixtures.js';

let box: Sandbox;
let ws: WorkspaceRoot;

beforeEach(() => {
  box = makeSandbox();
  populate(box.root, { 'a.txt': 'inside a', 'sub/b.txt': 'inside b', 'sub/deep/c.txt': 'inside c' });
  ws = new WorkspaceRoot(box.root);
});
afterEach(() => box.cleanup());

describe('lexical refusal', () => {
  it.each([
    '..',
    '../',
    '../outside/secret.txt',
    'sub/..',
    'sub/../a.txt',
    'sub/deep/../../a.txt',
    'a/../../x',
    'sub/..//..',
    './..',
    'x/y/z/..',
    '..\u0000',
  ])('refuses %j (parent segment or NUL) without touching the filesystem', async (path) => {
    await expectRefused(ws.resolve(path), 'ParentSegment', 'NulByte');
    await expectRefused(ws.readFile(path, { maxBytes: 100 }), 'ParentSegment', 'NulByte');
  });

  it.each(['/etc/passwd', '/', '//etc', `${'/'}${'tmp'}`])('refuses the absolute path %j', async (path) => {
    await expectRefused(ws.resolve(path), 'Absolute');
  });

  it('refuses an absolute path even when it names a file inside the root', async () => {
    await expectRefused(ws.resolve(join(box.root, 'a.txt')), 'Absolute');
  });

  it.each(['', '   ', '\t'])('refuses the blank path %j', async (path) => {
    await expectRefused(ws.resolve(path), 'Empty');
  });

  it('refuses a NUL byte anywhere', async () => {
    const error = await expectRefused(ws.resolve('a.txt\u0000.png'), 'NulByte');
    expect(error.message).toContain('a.txt\\u0000.png');
  });

  it('refuses a non-string path', async () => {
    await expectRefused(ws.resolve(42 as unknown as string), 'Empty');
  });

  it('names the path and the reason in the message', async () => {
    const error = await expectRefused(ws.resolve('sub/../../x'), 'ParentSegment');
    expect(error.message).toBe('workspace path "sub/../../x" refused: a ".." segment is not accepted');
    expect(error.path).toBe('sub/../../x');
  });
});

describe('canonical paths inside the root', () => {
  it.each([
    ['.', ''],
    ['./', ''],
    ['a.txt', '/a.txt'],
    ['./a.txt', '/a.txt'],
    ['sub//b.txt', '/sub/b.txt'],
    ['sub/./deep/c.txt', '/sub/deep/c.txt'],
    ['sub/', '/sub'],
    ['new/dir/file.txt', '/new/dir/file.txt'],
  ])('resolves %j', async (path, suffix) => {
    expect(await ws.resolve(path)).toBe(box.root + suffix);
  });

  it('canonicalises the root at construction', () => {
    symlinkSync(box.root, join(box.base, 'root-link'));
    const viaLink = new WorkspaceRoot(join(box.base, 'root-link'));
    expect(viaLink.root).toBe(box.root);
  });

  it('returns links inside the workspace in canonical spelling', async () => {
    populate(box.root, {}, { 'to-b': 'sub/b.txt', self: '.', 'abs-sub': join(box.root, 'sub') });
    expect(await ws.resolve('to-b')).toBe(join(box.root, 'sub/b.txt'));
    expect(await ws.resolve('self/self/a.txt')).toBe(join(box.root, 'a.txt'));
    expect(await ws.resolve('abs-sub/deep/new.txt')).toBe(join(box.root, 'sub/deep/new.txt'));
    expect(await ws.resolve('abs-sub/missing/new.txt')).toBe(join(box.root, 'sub/missing/new.txt'));
    expect((await ws.readFile('to-b', { maxBytes: 100 })).toString()).toBe('inside b');
  });

  it('relativizes canonical paths and refuses outside ones', () => {
    expect(ws.relativize(box.root)).toBe('.');
    expect(ws.relativize(join(box.root, 'sub/b.txt'))).toBe('sub/b.txt');
    expect(() => ws.relativize(join(box.outside, 'secret.txt'))).toThrow(/outside the workspace root/);
  });
});

describe('symbolic links out of the root', () => {
  beforeEach(() => {
    populate(
      box.root,
      {},
      {
        'file-out': join(box.outside, 'secret.txt'),
        'rel-out': '../outside/secret.txt',
        'dir-out': join(box.outside, 'dir'),
        'sub/up': '..',
        'sub/up2': '../..',
        'root-out': '/',
        chain1: 'chain2',
        chain2: 'sub/up2/outside/secret.txt',
      },
    );
  });

  it.each([
    'file-out',
    'rel-out',
    'dir-out',
    'dir-out/secret.txt',
    'dir-out/new-file.txt',
    'dir-out/new/deeper/file.txt',
    'sub/up2',
    'sub/up2/outside/secret.txt',
    'sub/up2/outside/new.txt',
    'root-out/etc/passwd',
    'chain1',
  ])('refuses %j as Outside, for resolve, read, write, list and stat', async (path) => {
    await expectRefused(ws.resolve(path), 'Outside');
    await expectRefused(ws.readFile(path, { maxBytes: 1000 }), 'Outside');
    await expectRefused(ws.writeFile(path, 'x'), 'Outside');
    await expectRefused(ws.readDir(path), 'Outside');
    await expectRefused(ws.stat(path), 'Outside');
  });

  it('allows a link to the root itself (inside)', async () => {
    expect(await ws.resolve('sub/up/a.txt')).toBe(join(box.root, 'a.txt'));
  });

  it('refuses an ancestor of the root being a link out, for a leaf that does not exist', async () => {
    mkdirSync(join(box.root, 'real'));
    symlinkSync(join(box.outside, 'dir'), join(box.root, 'real', 'gate'));
    await expectRefused(ws.resolve('real/gate/not/yet/here.txt'), 'Outside');
  });
});

describe('dangling and looping links', () => {
  beforeEach(() => {
    populate(
      box.root,
      {},
      {
        dangling: 'nowhere.txt',
        'dangling-abs': join(box.outside, 'missing.txt'),
        'dangling-dir': 'nowhere/deeper',
        'through-file': 'a.txt/x',
        loop: 'loop',
        ping: 'pong',
        pong: 'ping',
      },
    );
  });

  it.each(['dangling', 'dangling-abs', 'dangling-dir', 'dangling-dir/new.txt', 'through-file'])(
    'refuses the dangling link %j, also for a leaf that does not exist yet',
    async (path) => {
      await expectRefused(ws.resolve(path), 'DanglingLink');
      await expectRefused(ws.writeFile(path, 'x'), 'DanglingLink');
    },
  );

  it.each(['loop', 'ping', 'pong/x', 'ping/new/file.txt'])('refuses the link loop %j', async (path) => {
    await expectRefused(ws.resolve(path), 'LinkLoop');
  });

  it('refuses a path through a regular file', async () => {
    await expectRefused(ws.resolve('a.txt/child'), 'NotDirectory');
    await expectRefused(ws.resolve('a.txt/child/grandchild'), 'NotDirectory');
  });
});

describe('encoded, case and unicode lookalikes are taken literally', () => {
  const lookalikes = [
    '%2e%2e/x',
    '%2e%2e%2fx',
    '..%2f..%2fetc',
    '%252e%252e/x',
    '..\\..\\x',
    '\uff0e\uff0e/x', // fullwidth full stops
    '\u2025/x', // two dot leader
    '\u2024\u2024/x', // one dot leaders
    '.\u200b./x', // zero-width space between dots
    '..\u0301/x', // combining accent on a dot
    '\u2215etc\u2215passwd', // division slash
    '\u2044etc', // fraction slash
    '...',
    '.../x',
    ' ../x',
    '.. /x',
  ];

  it.each(lookalikes)('%j resolves inside the root under its literal spelling', async (path) => {
    const resolved = await ws.resolve(path);
    expect(isInside(box.root, resolved)).toBe(true);
    expect(resolved).toBe(join(box.root, path));
    await ws.writeFile(path, 'literal');
    expect((await ws.readFile(path, { maxBytes: 10 })).toString()).toBe('literal');
  });

  it('keeps NFC and NFD spellings apart (no normalisation), each inside', async () => {
    const nfc = 'caf\u00e9.txt';
    const nfd = 'cafe\u0301.txt';
    await ws.writeFile(nfc, 'nfc');
    await expectRefused(ws.readFile(nfd, { maxBytes: 10 }), 'NotFound');
    await ws.writeFile(nfd, 'nfd');
    expect((await ws.readFile(nfc, { maxBytes: 10 })).toString()).toBe('nfc');
    expect((await ws.readFile(nfd, { maxBytes: 10 })).toString()).toBe('nfd');
  });

  it('treats another case as another name (case-sensitive filesystem)', async () => {
    await expectRefused(ws.readFile('A.TXT', { maxBytes: 10 }), 'NotFound');
    expect(await ws.resolve('SUB/B.txt')).toBe(join(box.root, 'SUB/B.txt'));
  });

  it('never reads the outside secret through any lookalike', async () => {
    for (const path of lookalikes) {
      const read = await ws.readFile(path, { maxBytes: 100 }).then(String, () => '');
      expect(read).not.toContain(SECRET);
    }
  });
});
