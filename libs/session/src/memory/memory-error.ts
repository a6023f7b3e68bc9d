/** The one error the memory backend throws on purpose: it names the `/memories/...` path and why. */
import { HeliosError } from '@helios/core';
import { explainRefusal, WorkspacePathError, type WorkspaceRefusal } from '../workspace/workspace-error.js';

/** Why a memory command was refused: a workspace refusal, or one of the memory's own reasons. */
export type MemoryRefusal =
  | WorkspaceRefusal
  | 'NotMemoryPath'
  | 'InvalidUtf8'
  | 'NoMatch'
  | 'AmbiguousMatch'
  | 'LineOutOfRange'
  | 'InvalidArgument';

const OWN: Readonly<Partial<Record<MemoryRefusal, string>>> = {
  NotMemoryPath: 'memory paths start with /memories/ and contain no "." or ".." segments',
  InvalidUtf8: 'memory content must be valid UTF-8 text',
  NoMatch: 'oldString was not found',
  AmbiguousMatch: 'oldString must occur exactly once',
  LineOutOfRange: 'the line number is outside the file',
  InvalidArgument: 'an argument is missing or invalid',
  // Memory never follows a link: these all mean a link is somewhere on the path.
  Symlink: 'a symbolic link is on the path (memory paths never go through links)',
  Outside: 'a symbolic link is on the path (memory paths never go through links)',
  DanglingLink: 'a symbolic link is on the path (memory paths never go through links)',
  LinkLoop: 'a symbolic link is on the path (memory paths never go through links)',
  NotRegularFile: 'it is not a regular file',
  Exists: 'the file already exists (create never overwrites)',
  Reserved: 'the path is reserved',
};

/** A memory command was refused; `path` is the memory path as requested, never file content. */
export class MemoryError extends HeliosError {
  readonly code = 'MEMORY_REFUSED';

  constructor(
    readonly path: string,
    readonly reason: MemoryRefusal,
    readonly detail?: string,
    options?: ErrorOptions,
  ) {
    const why = OWN[reason] ?? explainRefusal(reason as WorkspaceRefusal);
    super(`memory path ${JSON.stringify(path)} refused: ${why}${detail ? ` (${detail})` : ''}`, options);
  }
}

/** A WorkspacePathError re-told for the memory path the model wrote; anything else passes through. */
export function asMemoryError(path: string, error: unknown): unknown {
  if (!(error instanceof WorkspacePathError)) return error;
  return new MemoryError(path, error.reason, error.detail, { cause: error });
}
