/** Construction: the root, aliases, strict mode failing closed off Linux, trusted mode's lexical rules. */
import { execFileSync } from 'node:child_process';
import { mkdirSync, renameSync, rmSync, symlinkSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspacePathError, WorkspaceRoot } from '../../src/index.js';
import { expectRefused, makeSandbox, populate, type Sandbox } from './fixtures.js';

let box: Sandbox;

beforeEach(() => {
  box = makeSandbox();
  populate(box.root, { 'a.txt': 'inside a' });
});
afterEach(() => box.cleanup());

function constructionError(build: () => unknown): WorkspacePathError {
  try {
    build();
  } catch (error) {
    expect(error).toBeInstanceOf(WorkspacePathError);
    return error as WorkspacePathError;
  }
  throw new Error('construction did not fail');
}

describe('strict mode fails closed off Linux', () => {
  it.each([
    { os: 'darwin', arch: 'arm64' },
    { os: 'win32', arch: 'x64' },
    { os: 'freebsd', arch: 'x64' },
    { os: 'linux', arch: 'ia32' },
    { os: 'linux', arch: 'riscv64' },
  ])('refuses $os/$arch', (platform) => {
    const error = constructionError(() => new WorkspaceRoot(box.root, { platform }));
    expect(error.reason).toBe('UnsupportedPlatform');
    expect(error.message).toContain(`${platform.os}/${platform.arch}`);
  });

  it.each(['x64', 'arm64'])('accepts linux/%s', (arch) => {
    expect(new WorkspaceRoot(box.root, { platform: { os: 'linux', arch } }).trusted).toBe(false);
  });

  it('accepts any platform when trusted', () => {
    const ws = new WorkspaceRoot(box.root, { trusted: true, platform: { os: 'darwin', arch: 'arm64' } });
    expect(ws.trusted).toBe(true);
  });
});

describe('trusted mode keeps the lexical and canonical checks', () => {
  it.each(['..', 'a/../../x', '../outside/secret.txt'])('refuses %j', async (path) => {
    const ws = new WorkspaceRoot(box.root, { trusted: true });
    await expectRefused(ws.resolve(path), 'ParentSegment');
    await expectRefused(ws.readFile(path, { maxBytes: 10 }), 'ParentSegment');
  });

  it('refuses absolute paths and links out', async () => {
    populate(box.root, {}, { out: join(box.outside, 'secret.txt') });
    const ws = new WorkspaceRoot(box.root, { trusted: true });
    await expectRefused(ws.resolve('/etc/passwd'), 'Absolute');
    await expectRefused(ws.readFile('out', { maxBytes: 100 }), 'Outside');
  });

  it('treats backslashes and drive letters as separators and absolute on Windows', async () => {
    const ws = new WorkspaceRoot(box.root, { trusted: true, platform: { os: 'win32', arch: 'x64' } });
    await expectRefused(ws.resolve('..\\outside\\secret.txt'), 'ParentSegment');
    await expectRefused(ws.resolve('C:\\Windows'), 'Absolute');
    await expectRefused(ws.resolve('c:relative'), 'Absolute');
    await expectRefused(ws.resolve('\\\\server\\share'), 'Absolute');
    expect(await ws.resolve('sub\\file.txt')).toBe(join(box.root, 'sub', 'file.txt'));
  });

  it('reports trusted-mode I/O failures as WorkspacePathError', async () => {
    const ws = new WorkspaceRoot(box.root, { trusted: true });
    await expectRefused(ws.readFile('missing', { maxBytes: 1 }), 'NotFound');
    await expectRefused(ws.readDir('a.txt'), 'NotDirectory');
    await expectRefused(ws.stat('missing'), 'NotFound');
    await expectRefused(ws.writeFile('a.txt/x', 'x'), 'NotDirectory');
    await expectRefused(ws.writeFile('.', 'x'), 'NotRegularFile');
    await expectRefused(ws.writeFile('a.txt', 'x', { exclusive: true }), 'Exists');
  });
});

describe('the root and its aliases', () => {
  it('refuses a missing root and a file as root (a missing root is never created)', () => {
    expect(constructionError(() => new WorkspaceRoot(join(box.base, 'missing'))).reason).toBe('NotFound');
    expect(constructionError(() => new WorkspaceRoot(join(box.root, 'a.txt'))).reason).toBe('NotDirectory');
  });

  it('refuses an alias that is another directory', () => {
    const error = constructionError(() => new WorkspaceRoot(box.root, { aliases: [box.outside] }));
    expect(error.reason).toBe('InvalidAlias');
    expect(error.path).toBe(box.outside);
  });

  it('canonicalises an alias spelled through a link to the root', () => {
    symlinkSync(box.root, join(box.base, 'alias'));
    const ws = new WorkspaceRoot(box.root, { aliases: [join(box.base, 'alias')] });
    expect(ws.aliases).toEqual([box.root]);
  });

  it('accepts links into an alias and returns the canonical spelling (a bind mount)', async (ctx) => {
    // A bind mount is the one way to give the root a second spelling; it needs mount privileges
    // (the mount lives only inside this test's temp dir and is removed in `finally`).
    const alias = join(box.base, 'mounted');
    mkdirSync(alias);
    if (!tryBindMount(box.root, alias)) return ctx.skip('no privileges to bind-mount on this host');
    try {
      populate(box.root, {}, { 'via-alias': join(alias, 'a.txt') });
      await expectRefused(new WorkspaceRoot(box.root).resolve('via-alias'), 'Outside');
      const ws = new WorkspaceRoot(box.root, { aliases: [alias] });
      expect(await ws.resolve('via-alias')).toBe(join(box.root, 'a.txt'));
      expect((await ws.readFile('via-alias', { maxBytes: 100 })).toString()).toBe('inside a');
      expect(ws.relativize(join(alias, 'a.txt'))).toBe('a.txt');
    } finally {
      unmount(alias);
    }
  });
});

function tryBindMount(source: string, target: string): boolean {
  if (process.getuid?.() !== 0) return false;
  try {
    execFileSync('mount', ['--bind', source, target], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

function unmount(target: string): void {
  execFileSync('umount', [target], { stdio: 'ignore' });
}

describe('the root changing after construction', () => {
  it('refuses every operation once the root is gone', async () => {
    const ws = new WorkspaceRoot(box.root);
    box.cleanup();
    await expectRefused(ws.readFile('a.txt', { maxBytes: 10 }), 'NotFound');
    await expectRefused(ws.readDir('.'), 'NotFound');
  });

  it('refuses when an ancestor of the root is swapped for a link elsewhere (descriptor path check)', async () => {
    const ws = new WorkspaceRoot(box.root);
    const authorised = await ws.resolve('a.txt');
    renameSync(box.base, `${box.base}-moved`);
    symlinkSync(`${box.base}-moved`, box.base);
    try {
      const { StrictIo } = await import('../../src/workspace/strict-io.js');
      const { RootSpelling } = await import('../../src/workspace/canonical.js');
      const strict = new StrictIo(new RootSpelling(box.root, []));
      await expectRefused(strict.readFile(authorised, 'a.txt', 100), 'Outside');
      await expectRefused(strict.readDir(box.root, '.'), 'Outside');
    } finally {
      rmSync(box.base);
      renameSync(`${box.base}-moved`, box.base);
    }
  });
});

describe('error mapping', () => {
  it('passes programming errors through and maps errno codes', async () => {
    const { errnoOf, refusalFor } = await import('../../src/workspace/workspace-error.js');
    const bug = new TypeError('bug');
    expect(refusalFor('p', bug)).toBe(bug);
    expect(errnoOf(null)).toBeUndefined();
    expect(errnoOf({ code: 42 })).toBeUndefined();
    const io = refusalFor('p', Object.assign(new Error('denied'), { code: 'EACCES' })) as WorkspacePathError;
    expect(io.reason).toBe('IoFailed');
    expect(io.message).toBe('workspace path "p" refused: the filesystem refused the operation (EACCES)');
  });

  it('refuses a link inside the workspace to a file, used as a directory', async () => {
    populate(box.root, {}, { 'file-link': 'a.txt' });
    await expectRefused(new WorkspaceRoot(box.root).resolve('file-link/x/y'), 'NotDirectory');
  });
});
