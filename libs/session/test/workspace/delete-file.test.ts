/** WorkspaceRoot.deleteFile in strict and trusted mode: regular files only, the entry never followed. */
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceRoot } from '../../src/index.js';
import { expectRefused, makeSandbox, populate, type Sandbox, SECRET } from './fixtures.js';

let box: Sandbox;
beforeEach(() => {
  box = makeSandbox();
  populate(box.root, { 'a.txt': 'a', 'dir/b.txt': 'b' }, { 'link.txt': 'a.txt', out: '../outside' });
});
afterEach(() => box.cleanup());

describe.each([
  ['strict', false],
  ['trusted', true],
])('deleteFile (%s)', (_mode, trusted) => {
  const workspace = (): WorkspaceRoot => new WorkspaceRoot(box.root, { trusted });

  it('deletes a regular file', async () => {
    await workspace().deleteFile('dir/b.txt');
    expect(existsSync(join(box.root, 'dir', 'b.txt'))).toBe(false);
    expect(existsSync(join(box.root, 'dir'))).toBe(true);
  });

  it('refuses a symbolic link, leaving link and target', async () => {
    await expectRefused(workspace().deleteFile('link.txt'), 'Symlink');
    expect(readFileSync(join(box.root, 'link.txt'), 'utf8')).toBe('a');
  });

  it('refuses directories, the root and missing files', async () => {
    await expectRefused(workspace().deleteFile('dir'), 'NotRegularFile');
    await expectRefused(workspace().deleteFile('.'), 'NotRegularFile');
    await expectRefused(workspace().deleteFile('missing.txt'), 'NotFound');
  });

  it('refuses a FIFO without opening it', async () => {
    execFileSync('mkfifo', [join(box.root, 'fifo')]);
    await expectRefused(workspace().deleteFile('fifo'), 'NotRegularFile');
  });

  it('refuses paths leading outside', async () => {
    await expectRefused(workspace().deleteFile('out/secret.txt'), 'Outside');
    await expectRefused(workspace().deleteFile('../outside/secret.txt'), 'ParentSegment');
    await expectRefused(workspace().deleteFile(join(box.outside, 'secret.txt')), 'Absolute');
    expect(readFileSync(join(box.outside, 'secret.txt'), 'utf8')).toBe(SECRET);
  });

  it('refuses a file below a non-directory', async () => {
    await expectRefused(workspace().deleteFile('a.txt/x'), 'NotDirectory', 'NotFound');
  });
});
