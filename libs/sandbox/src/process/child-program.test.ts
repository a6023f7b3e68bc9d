import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { childProgram, resolveChildProgram } from './child-program.js';

const here = fileURLToPath(import.meta.url);
const scratch = mkdtempSync(join(tmpdir(), 'child-program-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the child program', () => {
  it('from the sources: the child modules transpiled into a private directory beside their dependencies', () => {
    const program = childProgram();
    expect(childProgram()).toBe(program); // once per process
    const out = dirname(program.entry);
    expect(out).toMatch(/node_modules\/\.cache\/helios-sandbox\/child-[0-9a-f]{16}$/);
    expect(program.readPaths[0]).toBe(out);
    expect(program.readPaths.slice(1).every((dir) => dir.endsWith('node_modules'))).toBe(true);
    expect(JSON.parse(readFileSync(join(out, 'package.json'), 'utf8'))).toEqual({ type: 'module' });
    const main = readFileSync(program.entry, 'utf8');
    expect(main).toContain("from './engine.js'");
    expect(main).not.toMatch(/: (string|number|boolean)\b/); // types stripped
    expect(existsSync(join(out, 'engine.test.js'))).toBe(false);
  });

  it('from a build: dist/child/child-main.js, read with its package', () => {
    const pkg = join(scratch, 'pkg');
    mkdirSync(join(pkg, 'dist', 'child'), { recursive: true });
    mkdirSync(join(pkg, 'dist', 'process'), { recursive: true });
    writeFileSync(join(pkg, 'package.json'), '{"type":"module"}');
    writeFileSync(join(pkg, 'dist', 'child', 'child-main.js'), '');
    const program = resolveChildProgram(join(pkg, 'dist', 'process', 'child-program.js'));
    expect(program.entry).toBe(join(pkg, 'dist', 'child', 'child-main.js'));
    expect(program.readPaths[0]).toBe(pkg);
  });

  it('a build without a package.json above it reads its own folder', () => {
    const bare = mkdtempSync(join('/tmp', 'bare-'));
    mkdirSync(join(bare, 'child'));
    writeFileSync(join(bare, 'child', 'child-main.js'), '');
    try {
      expect(resolveChildProgram(join(bare, 'process', 'x.js')).readPaths[0]).toBe(join(bare, 'child'));
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });

  it('shares one transpiled copy per version of the sources, and makes a new one when they change', () => {
    const program = resolveChildProgram(here.replace('child-program.test.ts', 'child-program.ts'));
    expect(program.entry).toBe(childProgram().entry);
    const copy = join(scratch, 'src');
    mkdirSync(join(copy, 'child'), { recursive: true });
    mkdirSync(join(copy, 'process'));
    writeFileSync(join(copy, 'child', 'child-main.ts'), 'export const changed: number = 1;\n');
    const changed = resolveChildProgram(join(copy, 'process', 'child-program.ts'));
    expect(changed.entry).not.toBe(program.entry);
    expect(readFileSync(changed.entry, 'utf8')).toBe('export const changed = 1;\n');
    expect(resolveChildProgram(join(copy, 'process', 'child-program.ts')).entry).toBe(changed.entry);
    rmSync(dirname(changed.entry), { recursive: true, force: true });
  });
});
