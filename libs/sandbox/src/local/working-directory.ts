/**
 * Where a BASH call runs. The rule: a request's `workingDirectory` is used when it is an absolute path
 * to an existing directory that is, once symbolic links are resolved, one of the deployer's
 * `workingDirectories` or inside one of them (none by default). Anything else runs in the call's fresh
 * temporary directory, and the call's output begins with a line saying why: a model that asked for a
 * directory learns it did not get it.
 */
import { realpathSync } from 'node:fs';
import { realpath, stat } from 'node:fs/promises';
import { isAbsolute, sep } from 'node:path';

export interface WorkingDirectoryChoice {
  /** The directory to run in; undefined: the call's fresh temporary directory. */
  readonly path: string | undefined;
  /** Why a requested directory was not used. */
  readonly note?: string;
}

/** The deployer's allowed directories, resolved once (a missing one stays as given and matches nothing). */
export function resolveAllowedDirectories(directories: readonly string[]): readonly string[] {
  return Object.freeze(
    directories.map((directory) => {
      try {
        return realpathSync(directory);
      } catch {
        return directory;
      }
    }),
  );
}

export async function chooseWorkingDirectory(
  requested: string | undefined,
  allowed: readonly string[],
): Promise<WorkingDirectoryChoice> {
  if (requested === undefined) return { path: undefined };
  const refuse = (why: string): WorkingDirectoryChoice => ({
    path: undefined,
    note: `[workingDirectory ${requested} was not used (${why}); the script ran in a fresh temporary directory]`,
  });
  if (!isAbsolute(requested)) return refuse('it is not an absolute path');
  let resolved: string;
  try {
    resolved = await realpath(requested);
    if (!(await stat(resolved)).isDirectory()) return refuse('it is not a directory');
  } catch {
    return refuse('it does not exist');
  }
  const inside = allowed.some(
    (root) => resolved === root || resolved.startsWith(root.endsWith(sep) ? root : `${root}${sep}`),
  );
  if (!inside) {
    return refuse(
      allowed.length === 0
        ? 'this deployment allows no working directories'
        : `it is not inside an allowed directory: ${allowed.join(', ')}`,
    );
  }
  return { path: resolved };
}
