/**
 * Where a grant's binary is, decided once at build: a bare name is looked up on the host's PATH then,
 * and the result (or an absolute path) is resolved to its real path, which must be an executable
 * regular file. Calls run that path and never search again, so a PATH or symlink changed later
 * cannot swap the program. (The path is pinned, not the file: whoever can write the file can still
 * replace the program.)
 */
import { accessSync, constants, realpathSync, statSync } from 'node:fs';
import { delimiter, isAbsolute, join } from 'node:path';
import { InvalidArgumentError } from '../common/helios-error.js';

/** The real, absolute path of the executable `spec` names; throws InvalidArgumentError when there is none. */
export function resolveBinary(spec: unknown, searchPath: string = process.env['PATH'] ?? ''): string {
  if (typeof spec !== 'string' || spec.trim() === '' || spec.includes('\0')) {
    throw new InvalidArgumentError(
      `binary must be a bare name or an absolute path, got ${JSON.stringify(spec)}`,
    );
  }
  if (!isAbsolute(spec) && spec.includes('/')) {
    throw new InvalidArgumentError(
      `binary '${spec}' is a relative path; give a bare name (looked up on PATH) or an absolute path`,
    );
  }
  const found = isAbsolute(spec) ? spec : findOnPath(spec, searchPath);
  let real: string;
  try {
    real = realpathSync(found);
  } catch (error) {
    throw new InvalidArgumentError(`binary '${spec}' cannot be resolved: ${(error as Error).message}`, {
      cause: error,
    });
  }
  if (!isExecutableFile(real)) {
    throw new InvalidArgumentError(`binary '${spec}' (${real}) is not an executable regular file`);
  }
  return real;
}

/** The first executable file named `name` in an absolute PATH directory; relative entries are skipped. */
function findOnPath(name: string, searchPath: string): string {
  for (const directory of searchPath.split(delimiter)) {
    // An empty or relative entry means the current directory, which is whatever the host was started in.
    if (!isAbsolute(directory)) continue;
    const candidate = join(directory, name);
    if (isExecutableFile(candidate)) return candidate;
  }
  throw new InvalidArgumentError(`binary '${name}' was not found as an executable file on PATH`);
}

function isExecutableFile(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false; // missing, unreadable or not executable: all mean "not this one"
  }
}
