/**
 * The lexical half of the jail: a requested path is taken literally (nothing is decoded), and `..`,
 * absolute paths, NUL bytes and blank paths are refused before the filesystem is consulted.
 */
import { win32 } from 'node:path';
import { WorkspacePathError } from './workspace-error.js';

/**
 * The requested path's segments, with empty and `.` segments dropped (`[]` names the root itself).
 * `windows` also treats `\` as a separator and drive prefixes as absolute (trusted mode off Linux).
 */
export function lexicalSegments(requested: string, windows = false): string[] {
  if (typeof requested !== 'string' || requested.trim() === '') {
    throw new WorkspacePathError(String(requested), 'Empty');
  }
  if (requested.includes('\0')) throw new WorkspacePathError(requested, 'NulByte');
  if (requested.startsWith('/') || (windows && (win32.isAbsolute(requested) || /^[a-z]:/i.test(requested)))) {
    throw new WorkspacePathError(requested, 'Absolute');
  }
  const segments = requested.split(windows ? /[\\/]/ : '/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) throw new WorkspacePathError(requested, 'ParentSegment');
  return segments;
}
