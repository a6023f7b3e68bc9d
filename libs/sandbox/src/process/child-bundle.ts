/**
 * The sandbox child as one CommonJS script. A child started from ES modules spends much of its boot in
 * Node's ES module loader (resolving, reading each file through fs/promises, the facades of built-in
 * modules); one script run by the CommonJS loader skips all of it. The script holds the child's modules
 * and quickjs-wasi, each rewritten from ES modules to CommonJS with sucrase; any other package a child
 * module imports (acorn, acorn-walk, sucrase) stays in node_modules and is loaded at its first use, so a
 * child that never parses or transpiles a snippet never loads them.
 *
 * A module of the bundle sees only what it imported: its own `require` maps each specifier it names, at
 * bundling time, to another module of the bundle, a Node built-in or a package loaded on first use.
 */
import { existsSync, readFileSync } from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import { dirname, extname, join } from 'node:path';

export interface BundleSources {
  /** The child's entry module: `child-main.ts` among the sources, `child-main.js` in a build. */
  readonly entry: string;
  /** Packages compiled into the bundle (the rest of what the child imports is loaded on first use). */
  readonly bundled: readonly string[];
}

/** How one module reaches what it imports: a module of the bundle, a built-in, or a package path. */
type Link = number | { readonly builtin: string } | { readonly lazy: string };

interface BundledModule {
  readonly file: string;
  readonly code: string;
  readonly links: Map<string, Link>;
}

type Transform = (code: string, options: object) => { code: string };

const REQUIRE_CALL = /\brequire\((['"])([^'"]+)\1\)/g;
const BUILTINS = new Set(builtinModules);

/** The bundle's text: the entry and everything it imports, the entry run last. */
export function bundleChild(sources: BundleSources): string {
  const transform = (createRequire(import.meta.url)('sucrase') as { transform: Transform }).transform;
  const modules: BundledModule[] = [];
  const indexOf = new Map<string, number>();
  const add = (file: string): number => {
    const known = indexOf.get(file);
    if (known !== undefined) return known;
    const index = modules.length;
    indexOf.set(file, index);
    const transforms = extname(file) === '.ts' ? ['typescript', 'imports'] : ['imports'];
    const code = transform(readFileSync(file, 'utf8'), { transforms, disableESTransforms: true }).code;
    const links = new Map<string, Link>();
    modules.push({ file, code, links });
    for (const [, , specifier] of code.matchAll(REQUIRE_CALL)) {
      if (specifier !== undefined && !links.has(specifier))
        links.set(specifier, linkOf(file, specifier, sources.bundled, add));
    }
    return index;
  };
  add(sources.entry);
  return render(modules);
}

function linkOf(
  from: string,
  specifier: string,
  bundled: readonly string[],
  add: (file: string) => number,
): Link {
  if (specifier.startsWith('node:') || BUILTINS.has(specifier)) return { builtin: specifier };
  if (specifier.startsWith('.')) return add(moduleFile(join(dirname(from), specifier)));
  const resolved = createRequire(from).resolve(specifier);
  return bundled.includes(packageName(specifier)) ? add(resolved) : { lazy: resolved };
}

/** A relative import names the `.js` it compiles to; among the sources that is a `.ts` file. */
function moduleFile(path: string): string {
  return path.endsWith('.js') && !existsSync(path) ? `${path.slice(0, -'.js'.length)}.ts` : path;
}

function packageName(specifier: string): string {
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : (parts[0] as string);
}

function render(modules: readonly BundledModule[]): string {
  const definitions = modules.map(({ file, code, links }) => {
    const table = JSON.stringify(Object.fromEntries(links));
    return `// ${file}\n[function (module, exports, require) {\n${code}\n}, ${table}]`;
  });
  return `'use strict';
// The Helios sandbox child, bundled by @helios/sandbox (process/child-bundle.ts). Do not edit.
const modules = [
${definitions.join(',\n')}
];
const loaded = [];
function load(index) {
  if (loaded[index] === undefined) {
    const module = { exports: {} };
    loaded[index] = module;
    const [factory, links] = modules[index];
    factory.call(module.exports, module, module.exports, (specifier) => link(links[specifier], specifier));
  }
  return loaded[index].exports;
}
function link(target, specifier) {
  if (typeof target === 'number') return load(target);
  if (target === undefined) throw new Error('the sandbox bundle does not hold ' + specifier);
  if (target.builtin !== undefined) return require(target.builtin);
  let exports; // a package the child needs only sometimes: loaded at the first use of an export
  return new Proxy({}, { get: (_, key) => (exports ??= require(target.lazy))[key] });
}
load(0);
`;
}
