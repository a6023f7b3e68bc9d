/**
 * Whether JSON text nests objects and arrays deeper than `maxDepth` (the outermost value is level 1),
 * read from the text without parsing it. A deep enough document still parses, then overflows the stack
 * of every recursive walk after it, `JSON.stringify` included: boundaries refuse it before that. Text
 * that is not JSON gets no verdict here; the parser judges it.
 */
export function jsonNestingExceeds(text: string, maxDepth: number): boolean {
  // Every level costs an opening and a closing character: text this short cannot nest deeper.
  if (text.length <= 2 * maxDepth) return false;
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === BACKSLASH) i += 1;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === OPEN_BRACE || code === OPEN_BRACKET) {
      depth += 1;
      if (depth > maxDepth) return true;
    } else if (code === CLOSE_BRACE || code === CLOSE_BRACKET) {
      depth -= 1;
    }
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
