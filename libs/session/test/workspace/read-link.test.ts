/** WorkspaceRoot.readLink: a link's target text, read without following it, in both I/O modes. */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { WorkspaceRoot } from '../../src/index.js';
import { expectRefused, makeSandbox, populate, type Sandbox } from './fixtures.js';

let box: Sandbox;

beforeEach(() => {
  box = makeSandbox();
  populate(box.root, { 'dir/f.txt': 'x' }, { 'dir/out': box.outside, 'dir/dangling': 'gone', alias: 'dir' });
});
afterEach(() => box.cleanup());

describe.each([
  ['strict', false],
  ['trusted', true],
])('%s', (_mode, trusted) => {
  it('reads target text of links, also dangling or outside ones, through an inside alias', async () => {
    const ws = new WorkspaceRoot(box.root, { trusted });
    expect(await ws.readLink('dir/out')).toBe(box.outside);
    expect(await ws.readLink('dir/dangling')).toBe('gone');
    expect(await ws.readLink('alias/dangling')).toBe('gone');
    expect(await ws.readLink('alias')).toBe('dir');
  });

  it('refuses what is not a link, a missing entry and the usual escapes', async () => {
    const ws = new WorkspaceRoot(box.root, { trusted });
    await expectRefused(ws.readLink('dir/f.txt'), 'NotSymlink');
    await expectRefused(ws.readLink('dir'), 'NotSymlink');
    await expectRefused(ws.readLink('.'), 'NotSymlink');
    await expectRefused(ws.readLink('dir/missing'), 'NotFound');
    await expectRefused(ws.readLink('../outside/x'), 'ParentSegment');
    await expectRefused(ws.readLink('dir/out/secret.txt'), 'Outside');
    writeFileSync(join(box.root, 'plain'), '');
    await expectRefused(ws.readLink('plain/x'), 'NotDirectory', 'NotFound');
  });
});
