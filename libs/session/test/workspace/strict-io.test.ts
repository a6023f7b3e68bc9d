/** Strict I/O: special files, modes, budgets, directory listing and walks, swaps after authorisation. */
import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createServer, type Server } from 'node:net';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceRoot } from '../../src/index.js';
import { RootSpelling } from '../../src/workspace/canonical.js';
import { StrictIo } from '../../src/workspace/strict-io.js';
import { TrustedIo } from '../../src/workspace/trusted-io.js';
import { expectRefused, makeSandbox, populate, type Sandbox, SECRET } from './fixtures.js';

let box: Sandbox;
let ws: WorkspaceRoot;
const umask = process.umask();

beforeEach(() => {
  box = makeSandbox();
  populate(box.root, { 'a.txt': 'inside a', 'sub/b.txt': 'inside b', 'sub/deep/c.txt': 'inside c' });
  ws = new WorkspaceRoot(box.root);
});
afterEach(() => box.cleanup());

describe('special files are never opened for I/O', () => {
  it('refuses a FIFO without blocking, for read and write', async () => {
    execFileSync('mkfifo', [join(box.root, 'pipe')]);
    await expectRefused(ws.readFile('pipe', { maxBytes: 10 }), 'NotRegularFile');
    await expectRefused(ws.writeFile('pipe', 'x'), 'NotRegularFile');
    expect((await ws.stat('pipe')).type).toBe('Other');
  });

  it('refuses devices (a root at /dev)', async () => {
    const dev = new WorkspaceRoot('/dev');
    await expectRefused(dev.readFile('zero', { maxBytes: 10 }), 'NotRegularFile');
    await expectRefused(dev.readFile('null', { maxBytes: 10 }), 'NotRegularFile');
    await expectRefused(dev.writeFile('null', 'x'), 'NotRegularFile');
    expect((await dev.stat('null')).type).toBe('Other');
  });

  it('refuses a socket', async () => {
    const server: Server = createServer();
    await new Promise<void>((done) => server.listen(join(box.root, 'sock'), done));
    try {
      await expectRefused(ws.readFile('sock', { maxBytes: 10 }), 'NotRegularFile');
    } finally {
      await new Promise((done) => server.close(done));
    }
  });

  it('refuses to read or write a directory or the root', async () => {
    await expectRefused(ws.readFile('sub', { maxBytes: 10 }), 'NotRegularFile');
    await expectRefused(ws.readFile('.', { maxBytes: 10 }), 'NotRegularFile');
    await expectRefused(ws.writeFile('.', 'x'), 'NotRegularFile');
    await expectRefused(ws.writeFile('sub', 'x'), 'NotRegularFile');
  });

  it('trusted mode refuses them too', async () => {
    execFileSync('mkfifo', [join(box.root, 'pipe')]);
    const trusted = new WorkspaceRoot(box.root, { trusted: true });
    await expectRefused(trusted.readFile('pipe', { maxBytes: 10 }), 'NotRegularFile');
    await expectRefused(
      new WorkspaceRoot('/dev', { trusted: true }).readFile('zero', { maxBytes: 1 }),
      'NotRegularFile',
    );
  });
});

describe('byte budget', () => {
  it('reads a file at the budget and refuses one byte more', async () => {
    expect((await ws.readFile('a.txt', { maxBytes: 8 })).toString()).toBe('inside a');
    await expectRefused(ws.readFile('a.txt', { maxBytes: 7 }), 'TooLarge');
    writeFileSync(join(box.root, 'empty'), '');
    expect((await ws.readFile('empty', { maxBytes: 0 })).length).toBe(0);
  });

  it('enforces the budget while reading, not from the size alone (a file whose size says 0)', async () => {
    const proc = new WorkspaceRoot('/proc/self');
    expect((await proc.stat('status')).size).toBe(0);
    await expectRefused(proc.readFile('status', { maxBytes: 64 }), 'TooLarge');
    expect((await proc.readFile('status', { maxBytes: 1 << 20 })).toString()).toContain('Pid:');
  });

  it('never returns more than the budget while another process grows the file', async () => {
    const growing = join(box.root, 'growing.log');
    writeFileSync(growing, 'start\n');
    const writer = execFileSync('sh', [
      '-c',
      `(while :; do echo grow-grow-grow >> '${growing}'; done) >/dev/null 2>&1 & echo $!`,
    ]);
    const pid = Number(String(writer).trim());
    try {
      for (let i = 0; i < 200; i++) {
        const result = await ws.readFile('growing.log', { maxBytes: 4096 }).then(
          (bytes) => bytes.length,
          () => -1,
        );
        expect(result).toBeLessThanOrEqual(4096);
      }
      await expectRefused(
        (async () => {
          while (statSync(growing).size <= 4096) await new Promise((r) => setTimeout(r, 5));
          return ws.readFile('growing.log', { maxBytes: 4096 });
        })(),
        'TooLarge',
      );
    } finally {
      process.kill(pid, 'SIGKILL');
    }
  });

  it('refuses an invalid budget', async () => {
    await expect(ws.readFile('a.txt', { maxBytes: -1 })).rejects.toThrow(/maxBytes/);
    await expect(ws.readFile('a.txt', { maxBytes: 1.5 })).rejects.toThrow(/maxBytes/);
  });
});

describe('writing', () => {
  it.each([false, true])('creates files 0600 and parent directories 0700 (trusted %s)', async (trusted) => {
    const root = trusted ? new WorkspaceRoot(box.root, { trusted: true }) : ws;
    await root.writeFile('n1/n2/file.txt', 'hello');
    expect(statSync(join(box.root, 'n1/n2/file.txt')).mode & 0o777).toBe(0o600 & ~umask);
    expect(statSync(join(box.root, 'n1')).mode & 0o777).toBe(0o700 & ~umask);
    expect(statSync(join(box.root, 'n1/n2')).mode & 0o777).toBe(0o700 & ~umask);
    expect(readFileSync(join(box.root, 'n1/n2/file.txt'), 'utf8')).toBe('hello');
  });

  it('truncates an existing file and keeps its permissions; exclusive refuses it', async () => {
    chmodSync(join(box.root, 'a.txt'), 0o640);
    await ws.writeFile('a.txt', new Uint8Array([104, 105]));
    expect(readFileSync(join(box.root, 'a.txt'), 'utf8')).toBe('hi');
    expect(statSync(join(box.root, 'a.txt')).mode & 0o777).toBe(0o640);
    await expectRefused(ws.writeFile('a.txt', 'x', { exclusive: true }), 'Exists');
    await ws.writeFile('fresh.txt', 'x', { exclusive: true });
    expect(readFileSync(join(box.root, 'fresh.txt'), 'utf8')).toBe('x');
  });

  it('refuses to create under a regular file', async () => {
    await expectRefused(ws.writeFile('a.txt/child.txt', 'x'), 'NotDirectory');
  });
});

describe('listing, walking and stat', () => {
  beforeEach(() => {
    populate(box.root, {}, { 'link-in': 'sub', 'link-out': box.outside, 'file-link': 'a.txt' });
  });

  it('lists entries by name, reporting links as links', async () => {
    expect(await ws.readDir('.')).toEqual([
      { name: 'a.txt', type: 'File' },
      { name: 'file-link', type: 'Symlink' },
      { name: 'link-in', type: 'Symlink' },
      { name: 'link-out', type: 'Symlink' },
      { name: 'sub', type: 'Directory' },
    ]);
    expect(await ws.readDir('link-in')).toEqual([
      { name: 'b.txt', type: 'File' },
      { name: 'deep', type: 'Directory' },
    ]);
    await expectRefused(ws.readDir('a.txt'), 'NotDirectory');
    await expectRefused(ws.readDir('missing'), 'NotFound');
  });

  it.each([false, true])('walks without following directory links (trusted %s)', async (trusted) => {
    const root = trusted ? new WorkspaceRoot(box.root, { trusted: true }) : ws;
    const walked = [];
    for await (const entry of root.walk('.')) walked.push(entry);
    expect(walked).toEqual([
      { path: 'a.txt', type: 'File' },
      { path: 'file-link', type: 'Symlink' },
      { path: 'link-in', type: 'Symlink' },
      { path: 'link-out', type: 'Symlink' },
      { path: 'sub', type: 'Directory' },
      { path: 'sub/b.txt', type: 'File' },
      { path: 'sub/deep', type: 'Directory' },
      { path: 'sub/deep/c.txt', type: 'File' },
    ]);
    const pruned = [];
    for await (const entry of root.walk('sub', { descend: (e) => e.path !== 'sub/deep' }))
      pruned.push(entry.path);
    expect(pruned).toEqual(['sub/b.txt', 'sub/deep']);
  });

  it('stats the resolved file, the root and refuses missing paths', async () => {
    const stat = await ws.stat('file-link');
    expect(stat).toMatchObject({ type: 'File', size: 8 });
    expect((await ws.stat('.')).type).toBe('Directory');
    expect((await new WorkspaceRoot(box.root, { trusted: true }).stat('sub')).type).toBe('Directory');
    await expectRefused(ws.stat('nope'), 'NotFound');
  });
});

describe('a link swapped in after authorisation', () => {
  const strict = () => new StrictIo(new RootSpelling(box.root, []));
  const trusted = () => new TrustedIo(new RootSpelling(box.root, []));

  function swapLeafToSecret(name: string): void {
    renameSync(join(box.root, name), join(box.base, 'moved-away'));
    symlinkSync(join(box.outside, 'secret.txt'), join(box.root, name));
  }

  it('refuses a leaf swapped for a link out (trusted mode would read the secret)', async () => {
    const authorised = await ws.resolve('a.txt');
    swapLeafToSecret('a.txt');
    await expectRefused(strict().readFile(authorised, 'a.txt', 100), 'Symlink');
    expect((await strict().stat(authorised, 'a.txt')).type).toBe('Symlink'); // the link itself, unfollowed
    await expectRefused(strict().writeFile(authorised, 'a.txt', Buffer.from('x'), false), 'Symlink');
    expect(readFileSync(join(box.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
    expect((await trusted().readFile(authorised, 'a.txt', 100)).toString()).toBe(SECRET);
  });

  it('refuses an ancestor directory swapped for a link out, for read, write, list and walk', async () => {
    const file = await ws.resolve('sub/secret.txt');
    const created = await ws.resolve('sub/new/file.txt');
    renameSync(join(box.root, 'sub'), join(box.base, 'sub-away'));
    symlinkSync(join(box.outside), join(box.root, 'sub'));
    await expectRefused(strict().readFile(file, 'sub/secret.txt', 100), 'Symlink');
    await expectRefused(strict().writeFile(created, 'sub/new/file.txt', Buffer.from('x'), false), 'Symlink');
    await expectRefused(strict().readDir(join(box.root, 'sub'), 'sub'), 'Symlink');
    expect(readdirSync(box.outside).sort()).toEqual(['dir', 'secret.txt']);
    expect((await trusted().readFile(file, 'sub/secret.txt', 100)).toString()).toBe(SECRET);
  });

  it('refuses a leaf swapped for a FIFO before a write', async () => {
    const authorised = await ws.resolve('a.txt');
    renameSync(join(box.root, 'a.txt'), join(box.base, 'moved-away'));
    execFileSync('mkfifo', [join(box.root, 'a.txt')]);
    await expectRefused(strict().writeFile(authorised, 'a.txt', Buffer.from('x'), false), 'NotRegularFile');
  });

  it('skips a directory swapped for a link out during a walk (trusted mode follows it)', async () => {
    const swap = (entry: { path: string }): boolean => {
      if (entry.path === 'sub') {
        renameSync(join(box.root, 'sub'), join(box.base, 'sub-away'));
        symlinkSync(box.outside, join(box.root, 'sub'));
      }
      return true;
    };
    const strictPaths = [];
    for await (const entry of strict().walk(box.root, '.', swap)) strictPaths.push(entry.path);
    expect(strictPaths).toEqual(['a.txt', 'sub']);
    box.cleanup();
    box = makeSandbox();
    populate(box.root, { 'sub/b.txt': 'b' });
    const trustedPaths = [];
    for await (const entry of trusted().walk(box.root, '.', swap)) trustedPaths.push(entry.path);
    expect(trustedPaths).toContain('sub/secret.txt');
  });
});
