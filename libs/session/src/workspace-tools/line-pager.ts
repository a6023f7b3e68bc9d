/**
 * Read's text output: `%6d<TAB>line` lines from a 1-based offset, each line cut at MAX_LINE_CHARS, the
 * whole cut at MAX_READ_OUTPUT_CHARS, with a footer telling the model which offset continues.
 */

/** Lines shown when the model gives no limit. */
export const DEFAULT_READ_LIMIT = 2_000;
/** A longer line is cut here, with a suffix note (1 MiB of characters). */
export const MAX_LINE_CHARS = 1024 * 1024;
/** Read's whole text output stays under this many characters (4 MiB), footer excluded. */
export const MAX_READ_OUTPUT_CHARS = 4 * 1024 * 1024;

export interface Page {
  readonly offset: number;
  readonly limit: number;
}

/** The file's lines (a final newline ends the last line rather than starting an empty one). */
export function splitLines(text: string): string[] {
  if (text === '') return [];
  const lines = text.split('\n');
  if (lines[lines.length - 1] === '') lines.pop();
  return lines.map((line) => (line.endsWith('\r') ? line.slice(0, -1) : line));
}

/** `%6d<TAB>line`: the number right-aligned in six columns (wider numbers simply widen). */
export function numbered(lineNumber: number, line: string): string {
  return `${String(lineNumber).padStart(6, ' ')}\t${line}`;
}

function capped(line: string): string {
  if (line.length <= MAX_LINE_CHARS) return line;
  return `${line.slice(0, MAX_LINE_CHARS)} [line truncated: ${line.length - MAX_LINE_CHARS} more characters not shown; use Grep to search it]`;
}

/**
 * The numbered page of `lines` (offset must be within the file), followed by a footer when the page
 * stops before the file's end: the limit was reached, or the output cap.
 */
export function renderPage(lines: readonly string[], { offset, limit }: Page): string {
  const total = lines.length;
  const out: string[] = [];
  let size = 0;
  let next = offset;
  const end = Math.min(total, offset - 1 + limit);
  while (next <= end) {
    const entry = numbered(next, capped(lines[next - 1] as string));
    if (out.length > 0 && size + entry.length + 1 > MAX_READ_OUTPUT_CHARS) break;
    out.push(entry);
    size += entry.length + 1;
    next += 1;
  }
  if (next > total) return out.join('\n');
  const shown = `showing lines ${offset}-${next - 1} of ${total}`;
  const footer =
    next <= end
      ? `[output truncated at ${MAX_READ_OUTPUT_CHARS} characters: ${shown}; continue with offset=${next}, or use Grep to find what you need]`
      : `[${shown}; continue with offset=${next}]`;
  return `${out.join('\n')}\n\n${footer}`;
}
