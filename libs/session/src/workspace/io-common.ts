/** What both I/O modes share: entry and stat shapes, the byte-budgeted reader, argument checks. */
import { type Dirent, type Stats } from 'node:fs';
import { type FileHandle } from 'node:fs/promises';
import { InvalidArgumentError } from '@helios/core';
import { WorkspacePathError } from './workspace-error.js';

/** What a directory entry or a stat is; `Other` is a FIFO, socket or device. */
export type WorkspaceEntryType = 'File' | 'Directory' | 'Symlink' | 'Other';

/** One entry of a directory; a symbolic link is reported as `Symlink`, never followed. */
export interface WorkspaceEntry {
  readonly name: string;
  readonly type: WorkspaceEntryType;
}

/** One entry met by a walk; `path` is relative to the workspace root, `/`-separated. */
export interface WalkEntry {
  readonly path: string;
  readonly type: WorkspaceEntryType;
}

/** Metadata of a workspace path (of the file itself: the leaf is never a symbolic link once resolved). */
export interface WorkspaceStat {
  readonly type: WorkspaceEntryType;
  readonly size: number;
  readonly mtimeMs: number;
  /** Permission bits (`mode & 0o7777`). */
  readonly mode: number;
}

export interface WorkspaceReadOptions {
  /** The most bytes the file may have; a longer file (also one growing while read) is refused `TooLarge`. */
  readonly maxBytes: number;
}

export interface WorkspaceWriteOptions {
  /** Refuse (`Exists`) when the file already exists instead of truncating it. */
  readonly exclusive?: boolean;
}

export interface WorkspaceWalkOptions {
  /** Whether to descend into a directory the walk met; default: every directory. Symlinks never. */
  readonly descend?: (entry: WalkEntry) => boolean;
}

/** The operations one I/O mode provides on already canonical paths (`requested` names them in errors). */
export interface WorkspaceIo {
  readFile(canonical: string, requested: string, maxBytes: number): Promise<Buffer>;
  writeFile(canonical: string, requested: string, data: Uint8Array, exclusive: boolean): Promise<void>;
  readDir(canonical: string, requested: string): Promise<WorkspaceEntry[]>;
  walk(
    canonical: string,
    requested: string,
    descend: (entry: WalkEntry) => boolean,
  ): AsyncIterable<WalkEntry>;
  stat(canonical: string, requested: string): Promise<WorkspaceStat>;
  /** The target text of the link at `parent`/`name` (`parent` canonical); the link is never followed. */
  readLink(parent: string, name: string, requested: string): Promise<string>;
  /** Removes the regular file `name` in `parent` (`parent` canonical); the entry is never followed. */
  deleteFile(parent: string, name: string, requested: string): Promise<void>;
}

export function entryType(entry: Stats | Dirent): WorkspaceEntryType {
  if (entry.isSymbolicLink()) return 'Symlink';
  if (entry.isDirectory()) return 'Directory';
  return entry.isFile() ? 'File' : 'Other';
}

export function toStat(stats: Stats): WorkspaceStat {
  return { type: entryType(stats), size: stats.size, mtimeMs: stats.mtimeMs, mode: stats.mode & 0o7777 };
}

export function checkMaxBytes(maxBytes: number): void {
  if (!Number.isSafeInteger(maxBytes) || maxBytes < 0) {
    throw new InvalidArgumentError(`maxBytes must be a non-negative integer, got ${String(maxBytes)}`);
  }
}

const CHUNK = 64 * 1024;

/**
 * Reads an open regular file, never holding more than `maxBytes + 1` bytes: the budget is enforced as
 * bytes arrive, so a file that grows after its size was checked is still refused.
 */
export async function readWithinBudget(
  handle: FileHandle,
  maxBytes: number,
  requested: string,
): Promise<Buffer> {
  if ((await handle.stat()).size > maxBytes) throw tooLarge(requested, maxBytes);
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(CHUNK, maxBytes + 1 - total);
    const buffer = Buffer.allocUnsafe(want);
    const { bytesRead } = await handle.read(buffer, 0, want, null);
    if (bytesRead === 0) return Buffer.concat(chunks, total);
    total += bytesRead;
    if (total > maxBytes) throw tooLarge(requested, maxBytes);
    chunks.push(buffer.subarray(0, bytesRead));
  }
}

function tooLarge(requested: string, maxBytes: number): WorkspacePathError {
  return new WorkspacePathError(requested, 'TooLarge', `budget ${maxBytes} bytes`);
}

/** The walk's path of `name` under `prefix` (`''` is the walk's start, relative to the root). */
export function walkPath(prefix: string, name: string): string {
  return prefix === '' || prefix === '.' ? name : `${prefix}/${name}`;
}

export function sortedEntries(dirents: readonly Dirent[]): WorkspaceEntry[] {
  return dirents
    .map((d) => ({ name: d.name, type: entryType(d) }))
    .sort((a, b) => (a.name < b.name ? -1 : 1)); // names in one directory are unique
}
