import { describe, expect, it } from 'vitest';
import { AhoCorasick } from './aho-corasick.js';

function matches(patterns: string[], text: string): [number, number, number][] {
  const found: [number, number, number][] = [];
  new AhoCorasick(patterns).scan(text, (start, end, pattern) => found.push([start, end, pattern]));
  return found;
}

describe('AhoCorasick', () => {
  it('reports the longest pattern ending at each position', () => {
    expect(matches(['he', 'she', 'hers'], 'ushers')).toEqual([
      [1, 4, 1],
      [2, 6, 2],
    ]);
  });

  it('inherits matches through failure links', () => {
    expect(matches(['abcd', 'bc'], 'abcx')).toEqual([[1, 3, 1]]);
  });

  it('refuses non-ASCII patterns', () => {
    expect(() => new AhoCorasick(['é'])).toThrow(RangeError);
  });

  it('works with no patterns', () => {
    expect(matches([], 'abc')).toEqual([]);
  });

  it('agrees with a naive search on random input', () => {
    const patterns = ['abab', 'bab', 'aab', 'ba'];
    let seed = 7;
    const random = (): number => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const text = Array.from({ length: 400 }, () => (random() < 0.5 ? 'a' : 'b')).join('');
    const expected: [number, number, number][] = [];
    for (let end = 1; end <= text.length; end += 1) {
      let best: [number, number, number] | undefined;
      patterns.forEach((p, index) => {
        if (text.slice(0, end).endsWith(p) && (!best || p.length > best[1] - best[0]))
          best = [end - p.length, end, index];
      });
      if (best) expected.push(best);
    }
    expect(matches(patterns, text)).toEqual(expected);
  });
});
