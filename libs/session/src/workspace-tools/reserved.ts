/**
 * What every built-in file tool shares: the reserved memory directory (refused by the tools, skipped by
 * their walks), resolution of a requested path to one the tool then uses in canonical form, and the
 * refusal text the model sees.
 */
import { ToolResult } from '@helios/core';
import { type WorkspaceRoot } from '../workspace/workspace-root.js';
import { WorkspacePathError } from '../workspace/workspace-error.js';

/** `<root>/.agent/memory`: reachable only through the memory tools. */
export const RESERVED_MEMORY_DIR = '.agent/memory';

/** Whether a root-relative, `/`-separated path is the reserved directory or inside it. */
export function isReserved(relative: string): boolean {
  return relative === RESERVED_MEMORY_DIR || relative.startsWith(`${RESERVED_MEMORY_DIR}/`);
}

/** A requested path the jail accepted and that is not reserved. */
export interface ToolPath {
  /** As the model wrote it (for messages). */
  readonly requested: string;
  /** Relative to the root, canonical spelling (links resolved), `/`-separated; `.` is the root. */
  readonly relative: string;
}

/**
 * Resolves `requested` through the jail (refusing `..`, absolute paths, links out) and refuses the
 * reserved directory, also when a link inside the workspace leads into it. The tool then works on
 * `relative`, whose spelling has no links left for a later resolution to follow.
 */
export async function toolPath(root: WorkspaceRoot, requested: string): Promise<ToolPath> {
  const relative = root.relativize(await root.resolve(requested));
  if (isReserved(relative)) throw new WorkspacePathError(requested, 'Reserved');
  return { requested, relative };
}

/**
 * Whether a walk descends into a directory it met: not hidden, not reserved. (The walk's start is never
 * asked, so a hidden directory the model names is still searched.)
 */
export function descendable({ path }: { readonly path: string }): boolean {
  return !baseName(path).startsWith('.') && !isReserved(path);
}

export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The failure the model sees for a refused path or a filesystem failure; anything else is rethrown. */
export function refusedResult(tool: string, error: unknown): ToolResult {
  if (error instanceof WorkspacePathError) return ToolResult.failure(`${tool} refused`, error);
  throw error;
}

/** A non-negative integer argument, or the default when absent; undefined when it is not valid. */
export function integerArgument(value: unknown, fallback: number, min: number): number | undefined {
  if (value === undefined) return fallback;
  return typeof value === 'number' && Number.isSafeInteger(value) && value >= min ? value : undefined;
}
