import { describe, expect, it } from 'vitest';
import { jsonNestingExceeds } from './json-nesting.js';

/** Objects and arrays alternating, `depth` levels in all, closed properly. */
function document(depth: number, leaf = '1'): string {
  let text = leaf;
  for (let level = depth; level >= 1; level -= 1) text = level % 2 === 1 ? `{"k":${text}}` : `[${text}]`;
  return text;
}

describe('jsonNestingExceeds', () => {
  it('allows exactly the limit and refuses one level more', () => {
    for (const max of [1, 2, 5, 64]) {
      const padded = (depth: number) => document(depth, `"${'x'.repeat(4 * max)}"`);
      expect(JSON.parse(padded(max))).toBeDefined();
      expect(jsonNestingExceeds(padded(max), max)).toBe(false);
      expect(jsonNestingExceeds(padded(max + 1), max)).toBe(true);
    }
  });

  it('ignores brackets inside strings, escaped quotes included', () => {
    const inside = JSON.stringify({ s: '[[[[{{{{ \\" ]]]] "[[[[', t: ['a"[[[['] });
    expect(jsonNestingExceeds(inside.padEnd(200, ' '), 2)).toBe(false);
    expect(jsonNestingExceeds(JSON.stringify({ s: '\\', a: [[[1]]] }), 3)).toBe(true);
    expect(jsonNestingExceeds(JSON.stringify({ s: '\\', a: [[1]] }).padEnd(50, ' '), 3)).toBe(false);
  });

  it('counts depth, not how many containers there are', () => {
    const wide = JSON.stringify(Array.from({ length: 500 }, () => ({ a: [1, { b: 2 }] })));
    expect(jsonNestingExceeds(wide, 4)).toBe(false);
    expect(jsonNestingExceeds(wide, 3)).toBe(true);
  });

  it('judges a document far deeper than the stack allows without overflowing', () => {
    const deep = document(100_000);
    expect(() => JSON.stringify(JSON.parse(deep))).toThrow(RangeError);
    expect(jsonNestingExceeds(deep, 256)).toBe(true);
  });
});
