import { execFileSync } from 'node:child_process';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  statSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childProgram, defaultCacheDir, resolveChildProgram } from './child-program.js';

const here = fileURLToPath(import.meta.url).replace('child-program.test.ts', 'child-program.ts');
const scratch = mkdtempSync(join(tmpdir(), 'child-program-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A package laid out as a build: dist/process (where child-program.js would be) and dist/child. */
function fakeBuild(name: string, main: string): string {
  const dist = join(scratch, name, 'dist');
  mkdirSync(join(dist, 'child'), { recursive: true });
  mkdirSync(join(dist, 'process'), { recursive: true });
  writeFileSync(join(dist, 'child', 'child-main.js'), main);
  writeFileSync(join(dist, 'child', 'greeting.js'), "export const greeting = 'hello from the bundle';\n");
  return join(dist, 'process', 'child-program.js');
}

describe('the child program', () => {
  it('from the sources: one CommonJS bundle in the per-user cache, the engine as its argument', () => {
    const program = childProgram();
    expect(childProgram()).toBe(program); // once per process
    expect(dirname(program.entry)).toBe(defaultCacheDir());
    expect(program.entry).toMatch(/\/helios-sandbox-cache-\d+\/child-[0-9a-f]{16}\.cjs$/);
    expect(program.args).toHaveLength(1);
    expect(program.args[0]).toMatch(/quickjs-wasi\/quickjs\.wasm$/);
    expect(program.readPaths[0]).toBe(defaultCacheDir());
    expect(program.readPaths.slice(1).every((dir) => dir.endsWith('node_modules'))).toBe(true);
    const bundle = readFileSync(program.entry, 'utf8');
    expect(bundle.startsWith("'use strict';")).toBe(true);
    expect(bundle).toContain('child/child-main.ts');
    expect(bundle).toContain('quickjs-wasi/dist/index.js');
    expect(bundle).not.toContain("from './engine.js'"); // no ES module syntax left
    expect(bundle).toMatch(/"acorn":\{"lazy":"[^"]*acorn\.js"\}/); // loaded on first use, not bundled
    expect(statSync(program.entry).mode & 0o777).toBe(0o600);
    expect(statSync(defaultCacheDir()).mode & 0o777).toBe(0o700);
  });

  it('from a build: bundles dist/child, and the bundle runs', () => {
    const cache = join(scratch, 'cache-build');
    const program = resolveChildProgram(
      fakeBuild('pkg', "import { greeting } from './greeting.js';\nconsole.log(greeting);\n"),
      cache,
    );
    expect(program.entry.startsWith(`${cache}/child-`)).toBe(true);
    expect(execFileSync(process.execPath, [program.entry], { encoding: 'utf8' })).toBe(
      'hello from the bundle\n',
    );
  });

  it('keeps one bundle per version of its inputs, and makes a new one when they change', () => {
    const cache = join(scratch, 'cache-versions');
    const first = resolveChildProgram(fakeBuild('v1', "console.log('one');\n"), cache);
    const written = statSync(first.entry).mtimeMs;
    expect(resolveChildProgram(join(scratch, 'v1', 'dist', 'process', 'child-program.js'), cache).entry).toBe(
      first.entry,
    );
    expect(statSync(first.entry).mtimeMs).toBe(written); // not rebuilt
    const second = resolveChildProgram(fakeBuild('v2', "console.log('two');\n"), cache);
    expect(second.entry).not.toBe(first.entry);
    expect(execFileSync(process.execPath, [second.entry], { encoding: 'utf8' })).toBe('two\n');
    expect(resolveChildProgram(here, cache).entry).toMatch(/child-[0-9a-f]{16}\.cjs$/);
  });

  it('refuses a cache directory others could write to, or one that is a link', () => {
    const open = join(scratch, 'cache-open');
    mkdirSync(open);
    chmodSync(open, 0o777);
    expect(() => resolveChildProgram(fakeBuild('v3', ''), open)).toThrow(/not a private directory/);
    const target = join(scratch, 'cache-target');
    mkdirSync(target, { mode: 0o700 });
    const link = join(scratch, 'cache-link');
    symlinkSync(target, link);
    expect(() => resolveChildProgram(fakeBuild('v4', ''), link)).toThrow(/not a private directory/);
  });
});
