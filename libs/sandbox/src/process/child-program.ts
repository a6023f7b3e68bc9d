/**
 * What starts a sandbox child: its bundle (child-bundle.ts: one CommonJS script, built from `src/child`
 * when running from TypeScript sources, from `dist/child` in a build), the engine's WebAssembly file as
 * its argument, and the directories it must be able to read.
 *
 * A bundle is built once per version of its inputs (the child's modules and its dependencies' versions)
 * and kept in a per-user cache directory under the OS temp directory, `helios-sandbox-cache-<uid>`:
 * created 0700 and refused unless it is a directory of this user that no one else can write, since
 * the child runs what is there. A bundle is written under a private temporary name and renamed into
 * place, so processes running the same version share one file and none ever reads half of one.
 */
import { createHash, randomBytes } from 'node:crypto';
import {
  existsSync,
  lstatSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { bundleChild } from './child-bundle.js';

export interface ChildProgram {
  /** The script `node` runs. */
  readonly entry: string;
  /** What follows the script on the command line. */
  readonly args: readonly string[];
  /** Directories the child reads: its bundle's, and the node_modules holding its dependencies. */
  readonly readPaths: readonly string[];
}

const CHILD_DEPENDENCIES = ['quickjs-wasi', 'acorn', 'acorn-walk', 'sucrase'];
/** Compiled into the bundle; the other dependencies are loaded from node_modules at their first use. */
const BUNDLED = ['quickjs-wasi'];
/** Changes whenever the bundle's layout does, so an older bundle is never reused. */
const BUNDLE_FORMAT = '1';

const require = createRequire(import.meta.url);
let resolved: ChildProgram | undefined;

export function childProgram(): ChildProgram {
  resolved ??= resolveChildProgram(fileURLToPath(import.meta.url));
  return resolved;
}

/** `here` is this module's own path: a `.js` in a build, a `.ts` among the sources. */
export function resolveChildProgram(here: string, cacheDir = defaultCacheDir()): ChildProgram {
  const childDir = join(dirname(here), '..', 'child');
  const built = here.endsWith('.js') && existsSync(join(childDir, 'child-main.js'));
  const entry = join(childDir, built ? 'child-main.js' : 'child-main.ts');
  return Object.freeze({
    entry: cachedBundle(entry, cacheDir),
    args: Object.freeze([require.resolve('quickjs-wasi/quickjs.wasm')]),
    readPaths: Object.freeze([cacheDir, ...dependencyDirs()]),
  });
}

/** `helios-sandbox-cache-<uid>` in the OS temp directory. */
export function defaultCacheDir(): string {
  return join(tmpdir(), `helios-sandbox-cache-${process.getuid?.() ?? 'user'}`);
}

/** The bundle for the current inputs, built and stored unless an identical one is already there. */
function cachedBundle(entry: string, cacheDir: string): string {
  const file = join(cacheDir, `child-${bundleKey(dirname(entry))}.cjs`);
  if (existsSync(file)) {
    ensurePrivateDirectory(cacheDir);
    return file;
  }
  const text = bundleChild({ entry, bundled: BUNDLED });
  ensurePrivateDirectory(cacheDir);
  const staging = `${file}.${randomBytes(6).toString('hex')}.tmp`;
  writeFileSync(staging, text, { mode: 0o600, flag: 'wx' });
  try {
    renameSync(staging, file); // another process may have put the same bundle there meanwhile: fine
  } finally {
    rmSync(staging, { force: true });
  }
  return file;
}

/** A digest of what the bundle is made of: the child's modules and its dependencies as installed. */
function bundleKey(childDir: string): string {
  const hash = createHash('sha256').update(`format ${BUNDLE_FORMAT}\0`);
  const files = readdirSync(childDir)
    .filter((file) => /\.(ts|js)$/.test(file) && !/\.test\.(ts|js)$/.test(file) && !file.endsWith('.d.ts'))
    .sort();
  for (const file of files) hash.update(`${file}\0${readFileSync(join(childDir, file), 'utf8')}\0`);
  for (const name of CHILD_DEPENDENCIES) {
    const main = require.resolve(name);
    hash.update(`${name}\0${main}\0${packageVersion(main)}\0`);
  }
  return hash.digest('hex').slice(0, 16);
}

function packageVersion(main: string): string {
  for (let dir = dirname(main); dirname(dir) !== dir; dir = dirname(dir)) {
    const manifest = join(dir, 'package.json');
    if (!existsSync(manifest)) continue;
    const { name, version } = JSON.parse(readFileSync(manifest, 'utf8')) as {
      name?: string;
      version?: string;
    };
    if (name !== undefined) return `${name}@${version ?? '?'}`;
  }
  return 'unknown';
}

/** Creates `dir` (0700) if missing; refuses one this user does not own or that others could write. */
function ensurePrivateDirectory(dir: string): void {
  try {
    mkdirSync(dir, { mode: 0o700 });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
  }
  const stat = lstatSync(dir);
  const ownedHere = process.getuid === undefined || stat.uid === process.getuid();
  if (!stat.isDirectory() || !ownedHere || (stat.mode & 0o077) !== 0) {
    throw new Error(`the sandbox's cache ${dir} is not a private directory of this user (mode 0700)`);
  }
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
