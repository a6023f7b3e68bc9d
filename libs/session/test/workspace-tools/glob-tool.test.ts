/** Glob: matching relative to the search path, newest first, pruning, the 1,000 cap at its edges. */
import { utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GLOB_TRUNCATED, globTool, WorkspaceRoot } from '../../src/index.js';
import { makeSandbox, populate, type Sandbox } from '../workspace/fixtures.js';
import { failure, output } from './tool-fixtures.js';

let box: Sandbox;
let glob: ReturnType<typeof globTool>;

/** Sets the file's mtime to `seconds` after the epoch. */
const age = (path: string, seconds: number): void => utimesSync(join(box.root, path), seconds, seconds);

beforeEach(() => {
  box = makeSandbox();
  glob = globTool(new WorkspaceRoot(box.root));
});
afterEach(() => box.cleanup());

describe('matching and order', () => {
  it('answers matches newest first, ties by path', async () => {
    populate(box.root, { 'old.ts': '', 'src/new.ts': '', 'src/mid.ts': '', 'src/tie.ts': '', 'a.js': '' });
    age('old.ts', 1_000);
    age('src/mid.ts', 2_000);
    age('src/tie.ts', 2_000);
    age('src/new.ts', 3_000);
    expect(await output(glob, { pattern: '**/*.ts' })).toBe('src/new.ts\nsrc/mid.ts\nsrc/tie.ts\nold.ts');
    age('old.ts', 4_000);
    expect((await output(glob, { pattern: '**/*.ts' })).split('\n')[0]).toBe('old.ts');
  });

  it('matches against the path relative to the search path and answers root-relative paths', async () => {
    populate(box.root, { 'src/a.ts': '', 'src/deep/b.ts': '', 'c.ts': '' });
    expect(await output(glob, { pattern: '*.ts', path: 'src' })).toBe('src/a.ts');
    expect(await output(glob, { pattern: '*.ts' })).toBe('c.ts');
    expect(await output(glob, { pattern: 'deep/*.{ts,js}', path: 'src' })).toBe('src/deep/b.ts');
  });

  it('answers an empty string when nothing matches', async () => {
    populate(box.root, { 'a.txt': '' });
    expect(await output(glob, { pattern: '**/*.md' })).toBe('');
  });

  it('prunes hidden directories and never descends directory links', async () => {
    populate(
      box.root,
      { '.git/x.ts': '', 'a/.cache/y.ts': '', 'a/z.ts': '', 'real/w.ts': '' },
      {
        dirlink: 'real',
        out: box.outside,
      },
    );
    expect((await output(glob, { pattern: '**/*.ts' })).split('\n').sort()).toEqual(['a/z.ts', 'real/w.ts']);
    expect(await failure(glob, { pattern: '**/*', path: 'out' })).toContain('outside the workspace root');
  });

  it('refuses globs it cannot match safely, with the reason', async () => {
    expect(await failure(glob, { pattern: '*a*a*a*b' })).toContain('more than 3 "*"');
    expect(await failure(glob, { pattern: '**/a/**/b/**/c/**/d' })).toContain('"**" segments');
    expect(await failure(glob, { pattern: '/etc/*' })).toContain('relative to the search path');
    expect(await failure(glob, { pattern: ' ' })).toContain('empty');
    expect(await failure(glob, { pattern: 'x'.repeat(1_001) })).toContain('longer than 1000');
  });
});

describe('the 1,000 cap', () => {
  const files = (count: number): void => {
    for (let i = 0; i < count; i += 1)
      writeFileSync(join(box.root, `f${String(i).padStart(4, '0')}.txt`), '');
  };

  it.each([999, 1_000])('answers %i matches whole', async (count) => {
    files(count);
    const lines = (await output(glob, { pattern: '*.txt' })).split('\n');
    expect(lines).toHaveLength(count);
    expect(lines).not.toContain(GLOB_TRUNCATED);
  });

  it('cuts 1,001 matches to the 1,000 newest with the truncation line', async () => {
    files(1_001);
    for (let i = 0; i < 1_001; i += 1) age(`f${String(i).padStart(4, '0')}.txt`, 10_000 + i);
    const lines = (await output(glob, { pattern: '*.txt' })).split('\n');
    expect(lines).toHaveLength(1_001);
    expect(lines[0]).toBe('f1000.txt');
    expect(lines.at(-2)).toBe('f0001.txt');
    expect(lines.at(-1)).toBe(GLOB_TRUNCATED);
  });
});
