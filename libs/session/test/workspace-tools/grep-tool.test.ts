/** Grep: regex, include, output form, pruning and skips, the 1,000-match cap at its edges. */
import { mkdirSync, truncateSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { GREP_TRUNCATED, grepTool, MAX_GREP_FILE_BYTES, WorkspaceRoot } from '../../src/index.js';
import { makeSandbox, populate, type Sandbox } from '../workspace/fixtures.js';
import { failure, output } from './tool-fixtures.js';

let box: Sandbox;
let grep: ReturnType<typeof grepTool>;

beforeEach(() => {
  box = makeSandbox();
  grep = grepTool(new WorkspaceRoot(box.root));
});
afterEach(() => box.cleanup());

describe('matching', () => {
  it('answers path:line:content with root-relative paths, in walk order', async () => {
    populate(box.root, {
      'a.ts': 'const x = 1;\nlet y = 2;\nconst z = 3;\n',
      'src/b.js': 'nothing\nconst w = 4;\n',
    });
    expect(await output(grep, { pattern: '^const \\w' })).toBe(
      'a.ts:1:const x = 1;\na.ts:3:const z = 3;\nsrc/b.js:2:const w = 4;',
    );
    expect(await output(grep, { pattern: 'const', path: 'src' })).toBe('src/b.js:2:const w = 4;');
    expect(await output(grep, { pattern: 'const', path: 'src/b.js' })).toBe('src/b.js:2:const w = 4;');
  });

  it('answers an empty string when nothing matches', async () => {
    populate(box.root, { 'a.txt': 'hello\n' });
    expect(await output(grep, { pattern: 'absent' })).toBe('');
  });

  it('filters file names with include', async () => {
    populate(box.root, { 'a.ts': 'hit\n', 'b.js': 'hit\n', 'sub/c.tsx': 'hit\n' });
    expect(await output(grep, { pattern: 'hit', include: '*.ts' })).toBe('a.ts:1:hit');
    expect(await output(grep, { pattern: 'hit', include: '*.{ts,tsx}' })).toBe('a.ts:1:hit\nsub/c.tsx:1:hit');
  });

  it('refuses an invalid pattern or include clearly', async () => {
    expect(await failure(grep, { pattern: '(unclosed' })).toMatch(/^invalid pattern: .*Unterminated group/);
    expect(await failure(grep, { pattern: 'x', include: '*a*b*c*d' })).toContain('invalid include');
    expect(await failure(grep, {})).toContain('pattern');
  });
});

describe('what is skipped', () => {
  it('prunes hidden directories below the start, but searches a hidden start and hidden files', async () => {
    populate(box.root, { '.git/config': 'hit\n', '.env': 'hit\n', 'a/.cache/x': 'hit\n', 'a/y': 'hit\n' });
    expect(await output(grep, { pattern: 'hit' })).toBe('.env:1:hit\na/y:1:hit');
    expect(await output(grep, { pattern: 'hit', path: '.git' })).toBe('.git/config:1:hit');
  });

  it('skips binary files, malformed UTF-8 and files over 1 MiB (not one of exactly 1 MiB)', async () => {
    writeFileSync(join(box.root, 'bin'), Buffer.from('hit\n\0'));
    writeFileSync(join(box.root, 'latin1'), Buffer.from([0x68, 0x69, 0x74, 0x0a, 0xe9, 0x0a]));
    const exact = Buffer.alloc(MAX_GREP_FILE_BYTES, 0x20);
    exact.write('hit\n');
    writeFileSync(join(box.root, 'exact'), exact);
    const over = Buffer.alloc(MAX_GREP_FILE_BYTES + 1, 0x20);
    over.write('hit\n');
    writeFileSync(join(box.root, 'over'), over);
    expect(await output(grep, { pattern: 'hit' })).toBe('exact:1:hit');
  });

  it('never descends a directory link and skips links to files', async () => {
    populate(box.root, { 'real/a': 'hit\n' }, { dirlink: 'real', filelink: 'real/a', out: box.outside });
    expect(await output(grep, { pattern: 'hit|SECRET' })).toBe('real/a:1:hit');
  });
});

describe('the 1,000-match cap', () => {
  const grepCount = async (count: number): Promise<string[]> => {
    writeFileSync(join(box.root, 'm.txt'), 'hit\n'.repeat(count));
    return (await output(grep, { pattern: 'hit' })).split('\n');
  };

  it('shows 999 and 1,000 matches whole', async () => {
    expect(await grepCount(999)).toHaveLength(999);
    const all = await grepCount(1_000);
    expect(all).toHaveLength(1_000);
    expect(all.at(-1)).toBe('m.txt:1000:hit');
  });

  it('cuts 1,001 matches at 1,000 with the truncation line, also across files', async () => {
    const cut = await grepCount(1_001);
    expect(cut).toHaveLength(1_001);
    expect(cut.at(-2)).toBe('m.txt:1000:hit');
    expect(cut.at(-1)).toBe(GREP_TRUNCATED);
    mkdirSync(join(box.root, 'more'));
    writeFileSync(join(box.root, 'm.txt'), 'hit\n'.repeat(1_000));
    writeFileSync(join(box.root, 'more', 'n.txt'), 'hit\n');
    const across = (await output(grep, { pattern: 'hit' })).split('\n');
    expect(across.at(-1)).toBe(GREP_TRUNCATED);
    expect(across.some((line) => line.startsWith('more/'))).toBe(false);
  });
});

it('a huge sparse file is skipped without being read', async () => {
  writeFileSync(join(box.root, 'sparse'), '');
  truncateSync(join(box.root, 'sparse'), 1024 * 1024 * 1024);
  populate(box.root, { 'z.txt': 'hit\n' });
  expect(await output(grep, { pattern: 'hit' })).toBe('z.txt:1:hit');
});
