/**
 * The memory namespace: `/memories` and the paths below it, taken literally. Anything else, `.` and
 * `..` segments, NUL bytes and backslashes are refused before the filesystem is consulted.
 */
import { MemoryError } from './memory-error.js';

/** The namespace every memory path lives in. */
export const MEMORIES = '/memories';

/** A well-formed memory path: its segments below `/memories` (`[]` is `/memories` itself). */
export interface MemoryPath {
  /** As written by the caller (for messages). */
  readonly requested: string;
  readonly segments: readonly string[];
}

export function parseMemoryPath(requested: unknown): MemoryPath {
  if (typeof requested !== 'string' || requested.trim() === '') {
    throw new MemoryError(String(requested), 'NotMemoryPath', 'the path is empty');
  }
  if (requested !== MEMORIES && !requested.startsWith(`${MEMORIES}/`)) {
    throw new MemoryError(requested, 'NotMemoryPath');
  }
  if (requested.includes('\0') || requested.includes('\\')) {
    throw new MemoryError(requested, 'NotMemoryPath', 'NUL bytes and backslashes are not accepted');
  }
  const segments = requested
    .slice(MEMORIES.length)
    .split('/')
    .filter((s) => s !== '');
  if (segments.some((s) => s === '.' || s === '..')) throw new MemoryError(requested, 'NotMemoryPath');
  return { requested, segments };
}

/** A memory path naming a file (not `/memories` itself). */
export function parseMemoryFilePath(requested: unknown): MemoryPath {
  const path = parseMemoryPath(requested);
  if (path.segments.length === 0) throw new MemoryError(path.requested, 'NotRegularFile', 'Directory');
  return path;
}

/** The display path of `segments` below `/memories`. */
export function memoryPathOf(segments: readonly string[]): string {
  return segments.length === 0 ? MEMORIES : `${MEMORIES}/${segments.join('/')}`;
}
