/** The pure text edits behind MemoryWrite's str_replace and insert. */
import { MemoryError } from './memory-error.js';

/** How many times `needle` starts in `text` (overlapping starts counted: any doubt is ambiguity). */
export function countOccurrences(text: string, needle: string): number {
  let count = 0;
  for (let at = text.indexOf(needle); at !== -1; at = text.indexOf(needle, at + 1)) count += 1;
  return count;
}

/** `text` with its one occurrence of `oldString` replaced (literally: no `$` patterns). */
export function replaceExactlyOnce(path: string, text: string, oldString: string, newString: string): string {
  if (oldString === '') throw new MemoryError(path, 'InvalidArgument', 'oldString must not be empty');
  const count = countOccurrences(text, oldString);
  if (count === 0) throw new MemoryError(path, 'NoMatch');
  if (count > 1) throw new MemoryError(path, 'AmbiguousMatch', `found ${count} occurrences`);
  const at = text.indexOf(oldString);
  return text.slice(0, at) + newString + text.slice(at + oldString.length);
}

/**
 * `text` with `content` inserted so that it starts at 1-based line `lineNumber` (1 to n+1 for a file of
 * n lines). One final newline of `content` is dropped (each inserted line is a line); whether the file
 * ends with a newline is preserved.
 */
export function insertAtLine(path: string, text: string, lineNumber: number, content: string): string {
  const trailing = text.endsWith('\n');
  const lines = text === '' ? [] : (trailing ? text.slice(0, -1) : text).split('\n');
  if (!Number.isSafeInteger(lineNumber) || lineNumber < 1 || lineNumber > lines.length + 1) {
    const detail = `lineNumber ${String(lineNumber)}; the file has ${lines.length} lines, so 1 to ${lines.length + 1}`;
    throw new MemoryError(path, 'LineOutOfRange', detail);
  }
  if (text === '') return content;
  const added = (content.endsWith('\n') ? content.slice(0, -1) : content).split('\n');
  lines.splice(lineNumber - 1, 0, ...added);
  return lines.join('\n') + (trailing ? '\n' : '');
}
