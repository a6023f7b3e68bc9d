import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { bundleChild } from './child-bundle.js';

const root = mkdtempSync(join(tmpdir(), 'child-bundle-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function write(path: string, text: string): void {
  mkdirSync(join(root, path, '..'), { recursive: true });
  writeFileSync(join(root, path), text);
}

/** A child of TypeScript sources using a built-in, a bundled ES-module package and a lazy one. */
function fixture(): string {
  write(
    'node_modules/eager-dep/package.json',
    '{"name":"eager-dep","type":"module","exports":{".":"./index.js"}}',
  );
  write(
    'node_modules/eager-dep/index.js',
    "import { inner } from './inner.js';\nexport const eager = inner + '!';\n",
  );
  write('node_modules/eager-dep/inner.js', "export const inner = 'eager';\n");
  write('node_modules/lazy-dep/package.json', '{"name":"lazy-dep","main":"index.js"}');
  write('node_modules/lazy-dep/index.js', "console.log('lazy-dep loaded');\nexports.value = 42;\n");
  write('app/child/helper.ts', 'export const twice = (n: number): number => n * 2;\n');
  write(
    'app/child/child-main.ts',
    [
      "import { basename } from 'node:path';",
      "import { eager } from 'eager-dep';",
      "import { value } from 'lazy-dep';",
      "import { twice } from './helper.js';",
      "const label: string = basename('/x/started');",
      'console.log(label, eager, twice(21));',
      'console.log(value);',
    ].join('\n'),
  );
  return join(root, 'app', 'child', 'child-main.ts');
}

describe('bundleChild', () => {
  it('runs the entry with its modules, built-ins, bundled packages, and the rest loaded at first use', () => {
    const bundle = bundleChild({ entry: fixture(), bundled: ['eager-dep'] });
    const file = join(root, 'bundle.cjs');
    writeFileSync(file, bundle);
    // FORCE_COLOR (set by some CI environments) would make console.log colour the numbers.
    const env = { ...process.env, FORCE_COLOR: '0' };
    expect(execFileSync(process.execPath, [file], { encoding: 'utf8', env })).toBe(
      'started eager! 42\nlazy-dep loaded\n42\n',
    );
    expect(bundle).toContain('eager-dep/inner.js'); // compiled in
    expect(bundle).not.toContain("console.log('lazy-dep loaded')"); // left in node_modules
  });

  it('fails loudly when a module asks for something it never imported', () => {
    write('odd/child-main.js', "const name = 'node:' + 'fs';\nrequire(name);\n");
    const file = join(root, 'odd.cjs');
    writeFileSync(file, bundleChild({ entry: join(root, 'odd', 'child-main.js'), bundled: [] }));
    expect(() => execFileSync(process.execPath, [file], { encoding: 'utf8', stdio: 'pipe' })).toThrow(
      /the sandbox bundle does not hold node:fs/,
    );
  });
});
