/** LS: grouping and order, markers, symlinks shown with their target and never followed. */
import { execFileSync } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { LS_EMPTY, lsTool, WorkspaceRoot } from '../../src/index.js';
import { makeSandbox, populate, type Sandbox } from '../workspace/fixtures.js';
import { failure, output } from './tool-fixtures.js';

let box: Sandbox;

beforeEach(() => {
  box = makeSandbox();
});
afterEach(() => box.cleanup());

describe.each([
  ['strict', false],
  ['trusted', true],
])('%s', (_mode, trusted) => {
  const ls = (): ReturnType<typeof lsTool> => lsTool(new WorkspaceRoot(box.root, { trusted }));

  it('lists directories, then files, then links, each alphabetical, hidden included', async () => {
    populate(
      box.root,
      { 'b.txt': '', '.hidden': '', 'zdir/x': '', 'adir/y': '', 'a.txt': '' },
      { 'link-out': join(box.outside, 'secret.txt'), alink: 'adir', dangling: 'missing' },
    );
    execFileSync('mkfifo', [join(box.root, 'pipe')]);
    expect(await output(ls(), {})).toBe(
      [
        'adir/',
        'zdir/',
        '.hidden',
        'a.txt',
        'b.txt',
        'pipe',
        `alink@ -> adir`,
        'dangling@ -> missing',
        `link-out@ -> ${join(box.outside, 'secret.txt')}`,
      ].join('\n'),
    );
    expect(await output(ls(), { path: 'adir' })).toBe('y');
  });

  it('says when a directory is empty and refuses a file', async () => {
    mkdirSync(join(box.root, 'empty'));
    populate(box.root, { 'f.txt': '' });
    expect(await output(ls(), { path: 'empty' })).toBe(LS_EMPTY);
    expect(await failure(ls(), { path: 'f.txt' })).toContain('not a directory');
  });

  it('follows a link to an inside directory only as the path asked for, never one leading out', async () => {
    populate(box.root, { 'real/inner': '' }, { alias: 'real', out: box.outside });
    expect(await output(ls(), { path: 'alias' })).toBe('inner');
    expect(await failure(ls(), { path: 'out' })).toContain('outside the workspace root');
  });
});
