/** Every file tool, strict and trusted: escapes refused, the reserved memory directory refused and skipped. */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type Tool } from '@helios/core';
import {
  globTool,
  grepTool,
  lsTool,
  readTool,
  RESERVED_MEMORY_DIR,
  WorkspaceRoot,
  workspaceToolBindings,
} from '../../src/index.js';
import { makeSandbox, populate, type Sandbox, SECRET } from '../workspace/fixtures.js';
import { failure, output } from './tool-fixtures.js';

let box: Sandbox;

beforeEach(() => {
  box = makeSandbox();
  populate(
    box.root,
    { 'a.txt': 'hit\n', [`${RESERVED_MEMORY_DIR}/notes.md`]: 'hit MEMORY\n', '.agent/other.md': 'hit\n' },
    {
      'mem-link': RESERVED_MEMORY_DIR,
      'mem-file-link': `${RESERVED_MEMORY_DIR}/notes.md`,
      'out-dir': box.outside,
      'out-file': `${box.outside}/secret.txt`,
      dangling: 'nowhere',
      'loop-a': 'loop-b',
      'loop-b': 'loop-a',
    },
  );
});
afterEach(() => box.cleanup());

describe.each([
  ['strict', false],
  ['trusted', true],
])('%s', (_mode, trusted) => {
  const tools = (): Record<string, Tool> => {
    const root = new WorkspaceRoot(box.root, { trusted });
    return { Read: readTool(root), Grep: grepTool(root), Glob: globTool(root), LS: lsTool(root) };
  };
  const argsFor = (tool: string, path: string): Record<string, string> =>
    tool === 'Read' || tool === 'LS' ? { path } : { path, pattern: tool === 'Grep' ? 'hit|SECRET' : '**/*' };

  const escapes: [string, string][] = [
    ['..', 'a ".." segment'],
    ['../outside/secret.txt', 'a ".." segment'],
    ['a/../../outside', 'a ".." segment'],
    [`${box?.outside ?? '/tmp'}/secret.txt`, 'absolute paths'],
    ['/etc/passwd', 'absolute paths'],
    ['out-dir', 'outside the workspace root'],
    ['out-dir/secret.txt', 'outside the workspace root'],
    ['out-file', 'outside the workspace root'],
    ['dangling', 'points at nothing'],
    ['loop-a', 'form a loop'],
  ];

  it.each(['Read', 'Grep', 'Glob', 'LS'])('%s refuses every escape with a readable reason', async (name) => {
    const tool = tools()[name] as Tool;
    for (const [path, reason] of escapes) {
      const text = await failure(tool, argsFor(name, path));
      expect(text, path).toContain(reason);
      expect(text).toContain(`${name} refused`);
    }
  });

  it.each(['Read', 'Grep', 'Glob', 'LS'])(
    '%s refuses the reserved directory, also through a link',
    async (name) => {
      const tool = tools()[name] as Tool;
      for (const path of [
        RESERVED_MEMORY_DIR,
        `${RESERVED_MEMORY_DIR}/notes.md`,
        './.agent//memory/x',
        'mem-link',
        'mem-file-link',
      ]) {
        expect(await failure(tool, argsFor(name, path)), path).toContain('reserved for the memory tools');
      }
    },
  );

  it('walkers and listings skip the reserved directory', async () => {
    const { Grep, Glob, LS } = tools() as Record<string, Tool>;
    const grep = await output(Grep as Tool, { pattern: 'hit', path: '.agent' });
    expect(grep).toBe('.agent/other.md:1:hit');
    expect(await output(Glob as Tool, { pattern: '**/*', path: '.agent' })).toBe('.agent/other.md');
    expect(await output(LS as Tool, { path: '.agent' })).toBe('other.md');
    const all = await output(Grep as Tool, { pattern: 'hit|MEMORY|' + SECRET });
    expect(all).toBe('a.txt:1:hit');
  });
});

it('binds Read and LS as READ, Grep and Glob as SEARCH, keyed by path', () => {
  const bindings = workspaceToolBindings(new WorkspaceRoot(box.root));
  expect(bindings.map((b) => [b.tool.name, b.category])).toEqual([
    ['Read', 'READ'],
    ['Grep', 'SEARCH'],
    ['Glob', 'SEARCH'],
    ['LS', 'READ'],
  ]);
  expect(bindings[0]?.permissionKey?.({ path: 'src/a.ts' })).toBe('src/a.ts');
  expect(bindings[3]?.permissionKey?.({})).toBe('.');
});
