/**
 * Where the sandbox child's code is, and what it must be able to read. Built (`dist/`), the child is
 * `dist/child/child-main.js`, read with its package and the node_modules holding its four
 * dependencies. Run from TypeScript sources (tests, tsx), there is no JavaScript to start a child
 * with, so the `src/child` modules — which import nothing outside that folder but npm packages — are
 * transpiled with sucrase into `node_modules/.cache/helios-sandbox/child-<hash of the sources>` (where
 * the child's imports resolve): written once into a private directory and renamed into place, then
 * shared by every process running the same sources.
 */
import { createHash } from 'node:crypto';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { basename, dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';

export interface ChildProgram {
  /** The child's entry module. */
  readonly entry: string;
  /** Directories the child reads: its own code and the node_modules of its dependencies. */
  readonly readPaths: readonly string[];
}

const CHILD_DEPENDENCIES = ['quickjs-wasi', 'acorn', 'acorn-walk', 'sucrase'];
const require = createRequire(import.meta.url);
let resolved: ChildProgram | undefined;

export function childProgram(): ChildProgram {
  resolved ??= resolveChildProgram(fileURLToPath(import.meta.url));
  return resolved;
}

/** `here` is this module's own path: a `.js` in a build, a `.ts` among the sources. */
export function resolveChildProgram(here: string): ChildProgram {
  const modules = dependencyDirs();
  const childDir = join(dirname(here), '..', 'child');
  const built = join(childDir, 'child-main.js');
  if (here.endsWith('.js') && existsSync(built)) {
    return Object.freeze({ entry: built, readPaths: Object.freeze([packageRoot(childDir), ...modules]) });
  }
  const out = transpileChildSources(childDir, modules[0] as string);
  return Object.freeze({ entry: join(out, 'child-main.js'), readPaths: Object.freeze([out, ...modules]) });
}

/** The node_modules directories the child's dependencies resolve from (usually one). */
function dependencyDirs(): string[] {
  const dirs = CHILD_DEPENDENCIES.map((name) => {
    const file = require.resolve(name);
    const at = file.lastIndexOf(`${sep}node_modules${sep}`);
    return file.slice(0, at + `${sep}node_modules`.length);
  });
  return [...new Set(dirs)];
}

/** The nearest directory holding a package.json (it says the child's `.js` files are ES modules). */
function packageRoot(dir: string): string {
  for (let at = dir; ; at = dirname(at)) {
    if (existsSync(join(at, 'package.json'))) return at;
    if (dirname(at) === at) return dir;
  }
}

function transpileChildSources(sourceDir: string, nodeModules: string): string {
  const sources = readdirSync(sourceDir)
    .filter((file) => file.endsWith('.ts') && !file.endsWith('.test.ts'))
    .sort()
    .map((file) => [file, readFileSync(join(sourceDir, file), 'utf8')] as const);
  const hash = createHash('sha256');
  for (const [file, source] of sources) hash.update(`${file}\0${source}\0`);
  const cache = join(nodeModules, '.cache', 'helios-sandbox');
  const out = join(cache, `child-${hash.digest('hex').slice(0, 16)}`);
  if (existsSync(join(out, 'package.json'))) return out;
  mkdirSync(cache, { recursive: true, mode: 0o700 });
  const staging = mkdtempSync(join(cache, 'staging-'));
  const { transform } = require('sucrase') as {
    transform: (code: string, options: object) => { code: string };
  };
  for (const [file, source] of sources) {
    const { code } = transform(source, { transforms: ['typescript'], disableESTransforms: true });
    writeFileSync(join(staging, `${basename(file, '.ts')}.js`), code);
  }
  writeFileSync(join(staging, 'package.json'), '{"type":"module"}\n'); // written last: marks it complete
  try {
    renameSync(staging, out);
  } catch {
    rmSync(staging, { recursive: true, force: true }); // another process put the same sources there first
  }
  return out;
}
