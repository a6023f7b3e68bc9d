/** The one error a WorkspaceRoot throws on purpose: it names the requested path and why, never content. */
import { HeliosError } from '@helios/core';

/** Why a workspace path or operation was refused (a stable tag callers may branch on). */
export type WorkspaceRefusal =
  | 'Empty'
  | 'NulByte'
  | 'Absolute'
  | 'ParentSegment'
  | 'Outside'
  | 'DanglingLink'
  | 'LinkLoop'
  | 'Symlink'
  | 'Moved'
  | 'NotFound'
  | 'NotDirectory'
  | 'NotRegularFile'
  | 'NotSymlink'
  | 'Reserved'
  | 'Exists'
  | 'TooLarge'
  | 'InvalidAlias'
  | 'UnsupportedPlatform'
  | 'IoFailed';

const EXPLANATIONS: Readonly<Record<WorkspaceRefusal, string>> = {
  Empty: 'the path is empty',
  NulByte: 'the path contains a NUL byte',
  Absolute: 'absolute paths are not accepted; give a path relative to the workspace root',
  ParentSegment: 'a ".." segment is not accepted',
  Outside: 'it resolves outside the workspace root',
  DanglingLink: 'a symbolic link on the path points at nothing',
  LinkLoop: 'symbolic links on the path form a loop',
  Symlink: 'a symbolic link appeared on the path after it was authorised',
  Moved: 'the file changed identity while it was being opened',
  NotFound: 'no such file or directory',
  NotDirectory: 'a component of the path is not a directory',
  NotRegularFile:
    'it is not a regular file (directories, FIFOs, devices and sockets are never opened for I/O)',
  NotSymlink: 'it is not a symbolic link',
  Reserved: '.agent/memory is reserved for the memory tools',
  Exists: 'the file already exists',
  TooLarge: 'the file is larger than the byte budget',
  InvalidAlias: 'a configured alias is not the same directory as the workspace root',
  UnsupportedPlatform: 'strict I/O needs Linux (x64 or arm64) with /proc/self/fd mounted',
  IoFailed: 'the filesystem refused the operation',
};

/**
 * A workspace path was refused: it is not well formed, leads outside the root, changed under the
 * operation, or the filesystem refused it. `path` is the path as requested (never file content).
 */
export class WorkspacePathError extends HeliosError {
  readonly code = 'WORKSPACE_PATH_REFUSED';

  constructor(
    readonly path: string,
    readonly reason: WorkspaceRefusal,
    readonly detail?: string,
    options?: ErrorOptions,
  ) {
    super(
      `workspace path ${JSON.stringify(path)} refused: ${EXPLANATIONS[reason]}${detail ? ` (${detail})` : ''}`,
      options,
    );
  }
}

/** The model-facing explanation of a refusal reason (what follows "refused: " in the message). */
export function explainRefusal(reason: WorkspaceRefusal): string {
  return EXPLANATIONS[reason];
}

/** The errno of a Node fs error, if it has one. */
export function errnoOf(error: unknown): string | undefined {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' ? code : undefined;
}

/**
 * Turns a filesystem error into a WorkspacePathError (ENOENT → NotFound, ENOTDIR → NotDirectory,
 * ELOOP → `loopReason`, EEXIST → Exists, anything else → IoFailed with its errno). Programming errors
 * (anything without an errno) pass through untouched.
 */
export function refusalFor(path: string, error: unknown, loopReason: WorkspaceRefusal = 'Symlink'): unknown {
  if (error instanceof WorkspacePathError) return error;
  const errno = errnoOf(error);
  if (errno === undefined) return error;
  const reasons: Readonly<Record<string, WorkspaceRefusal>> = {
    ENOENT: 'NotFound',
    ENOTDIR: 'NotDirectory',
    ELOOP: loopReason,
    EEXIST: 'Exists',
  };
  const reason = reasons[errno] ?? 'IoFailed';
  return new WorkspacePathError(path, reason, reason === 'IoFailed' ? errno : undefined, { cause: error });
}

/** readlink's EINVAL means the entry exists but is not a link. */
export function notSymlink(requested: string): (error: unknown) => never {
  return (error) => {
    if (errnoOf(error) === 'EINVAL') throw new WorkspacePathError(requested, 'NotSymlink');
    throw error;
  };
}
