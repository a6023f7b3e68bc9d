/**
 * The canonical half of the jail: the root's spellings (canonical root plus configured aliases) and the
 * canonicalisation of the deepest existing prefix of a requested path.
 */
import { lstat, realpath } from 'node:fs/promises';
import { join, sep } from 'node:path';
import { errnoOf, refusalFor, WorkspacePathError } from './workspace-error.js';

/** The canonical root and the alternative spellings that name the same directory. */
export class RootSpelling {
  constructor(
    readonly root: string,
    readonly aliases: readonly string[],
  ) {}

  /**
   * `absolute` in the root's canonical spelling when it is the root, inside it, or inside an alias;
   * `undefined` when it is outside.
   */
  toCanonical(absolute: string): string | undefined {
    for (const base of [this.root, ...this.aliases]) {
      if (absolute === base) return this.root;
      const prefix = base.endsWith(sep) ? base : base + sep;
      if (absolute.startsWith(prefix)) return join(this.root, absolute.slice(prefix.length));
    }
    return undefined;
  }

  /** The path's components below the canonical root (`[]` for the root). */
  segmentsOf(canonical: string): string[] {
    return canonical
      .slice(this.root.length)
      .split(sep)
      .filter((s) => s !== '');
  }
}

/**
 * The canonical absolute path of `segments` under the root. The deepest existing prefix is resolved
 * with realpath; a path landing outside the root (or its aliases), a dangling link or a link loop is
 * refused, also when the leaf (or more) does not exist yet.
 */
export async function canonicalise(
  spelling: RootSpelling,
  segments: readonly string[],
  requested: string,
): Promise<string> {
  try {
    const real = await realpath(join(spelling.root, ...segments));
    return spelling.toCanonical(real) ?? refuse(requested, 'Outside');
  } catch (error) {
    const errno = errnoOf(error);
    if (errno !== 'ENOENT' && errno !== 'ENOTDIR') throw refusalFor(requested, error, 'LinkLoop');
  }
  return canonicalisePrefix(spelling, segments, requested);
}

/** Walks component by component to find where the path stops existing and why. */
async function canonicalisePrefix(
  spelling: RootSpelling,
  segments: readonly string[],
  requested: string,
): Promise<string> {
  let current = spelling.root;
  for (const [index, segment] of segments.entries()) {
    const candidate = join(current, segment);
    let stats;
    try {
      stats = await lstat(candidate);
    } catch (error) {
      if (errnoOf(error) === 'ENOENT') return join(candidate, ...segments.slice(index + 1));
      throw refusalFor(requested, error, 'LinkLoop');
    }
    if (stats.isSymbolicLink()) {
      current = spelling.toCanonical(await realLink(candidate, requested)) ?? refuse(requested, 'Outside');
    } else if (stats.isDirectory() || index === segments.length - 1) {
      current = candidate;
    } else {
      refuse(requested, 'NotDirectory');
    }
  }
  return current;
}

async function realLink(link: string, requested: string): Promise<string> {
  try {
    return await realpath(link);
  } catch (error) {
    const errno = errnoOf(error);
    if (errno === 'ENOENT' || errno === 'ENOTDIR') throw new WorkspacePathError(requested, 'DanglingLink');
    throw refusalFor(requested, error, 'LinkLoop');
  }
}

function refuse(requested: string, reason: 'Outside' | 'NotDirectory'): never {
  throw new WorkspacePathError(requested, reason);
}
