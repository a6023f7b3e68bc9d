/**
 * Aho–Corasick automaton over the printable-ASCII alphabet secrets are drawn from, compiled to a dense
 * transition table so a scan costs one table lookup per character: linear in the text, whatever the
 * number of patterns. A character no pattern contains resets the automaton to its root.
 */
const ROOT = 0;
const NONE = -1;

export class AhoCorasick {
  readonly #column = new Int16Array(128).fill(NONE);
  readonly #width: number;
  readonly #next: Int32Array;
  readonly #depth: Int32Array;
  readonly #fail: Int32Array;
  readonly #isPrefix: Uint8Array;
  /** Per state: the longest pattern that ends the state's string, or NONE. */
  readonly #longestMatch: Int32Array;
  readonly #patternLength: Int32Array;

  /** Patterns in priority order; an identical later pattern is shadowed by the earlier one. */
  constructor(patterns: readonly string[]) {
    let width = 0;
    for (const pattern of patterns) {
      for (let i = 0; i < pattern.length; i += 1) {
        const code = pattern.charCodeAt(i);
        if (code >= 128) throw new RangeError('Aho–Corasick patterns must be ASCII');
        if (this.#column[code] === NONE) this.#column[code] = width++;
      }
    }
    this.#width = Math.max(width, 1);
    const trie = buildTrie(patterns, this.#column, this.#width);
    const states = trie.depth.length;
    this.#next = Int32Array.from(trie.next);
    this.#depth = Int32Array.from(trie.depth);
    this.#isPrefix = Uint8Array.from(trie.isPrefix);
    this.#fail = new Int32Array(states);
    this.#longestMatch = Int32Array.from(trie.terminal);
    this.#patternLength = Int32Array.from(patterns, (p) => p.length);
    this.#link();
  }

  /**
   * Calls `onMatch(start, end, pattern)` for the longest pattern ending at each position, end exclusive,
   * in order of `end`. Shorter patterns ending at the same position lie inside it and are not reported.
   */
  scan(text: string, onMatch: (start: number, end: number, pattern: number) => void): number {
    let state = ROOT;
    for (let i = 0; i < text.length; i += 1) {
      const code = text.charCodeAt(i);
      const column = code < 128 ? (this.#column[code] as number) : NONE;
      if (column === NONE) {
        state = ROOT;
        continue;
      }
      state = this.#next[state * this.#width + column] as number;
      const pattern = this.#longestMatch[state] as number;
      if (pattern !== NONE) onMatch(i + 1 - (this.#patternLength[pattern] as number), i + 1, pattern);
    }
    return state;
  }

  /**
   * Length of the longest suffix of the scanned text (ending in `state`) that is a proper prefix of some
   * pattern, i.e. the start of a pattern the text was cut in the middle of.
   */
  partialSuffixLength(state: number): number {
    let current = state;
    while (current !== ROOT && this.#isPrefix[current] === 0) current = this.#fail[current] as number;
    return this.#depth[current] as number;
  }

  /** Breadth-first: failure links, then the full transition table and inherited matches. */
  #link(): void {
    const width = this.#width;
    const queue: number[] = [ROOT];
    for (let head = 0; head < queue.length; head += 1) {
      const state = queue[head] as number;
      const fail = this.#fail[state] as number;
      if (this.#longestMatch[state] === NONE && state !== ROOT) {
        this.#longestMatch[state] = this.#longestMatch[fail] as number;
      }
      for (let column = 0; column < width; column += 1) {
        const slot = state * width + column;
        const child = this.#next[slot] as number;
        const viaFail = state === ROOT ? ROOT : (this.#next[fail * width + column] as number);
        if (child === NONE) {
          this.#next[slot] = viaFail;
        } else {
          this.#fail[child] = viaFail;
          queue.push(child);
        }
      }
    }
  }
}

interface Trie {
  readonly next: number[];
  readonly depth: number[];
  readonly terminal: number[];
  readonly isPrefix: number[];
}

function buildTrie(patterns: readonly string[], columnOf: Int16Array, width: number): Trie {
  const trie: Trie = {
    next: new Array<number>(width).fill(NONE),
    depth: [0],
    terminal: [NONE],
    isPrefix: [0],
  };
  patterns.forEach((pattern, index) => {
    let state = ROOT;
    for (let i = 0; i < pattern.length; i += 1) {
      trie.isPrefix[state] = 1;
      const slot = state * width + (columnOf[pattern.charCodeAt(i)] as number);
      let child = trie.next[slot] as number;
      if (child === NONE) {
        child = trie.depth.length;
        trie.next[slot] = child;
        trie.next.push(...new Array<number>(width).fill(NONE));
        trie.depth.push(i + 1);
        trie.terminal.push(NONE);
        trie.isPrefix.push(0);
      }
      state = child;
    }
    if (state !== ROOT && trie.terminal[state] === NONE) trie.terminal[state] = index;
  });
  return trie;
}
