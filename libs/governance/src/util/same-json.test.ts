import { describe, expect, it } from 'vitest';
import { sameJson } from './same-json.js';

const text = (a: unknown, b: unknown): boolean => JSON.stringify(a) === JSON.stringify(b);

describe('sameJson', () => {
  it('agrees with comparing JSON texts', () => {
    const values: unknown[] = [
      null,
      0,
      -0,
      1,
      Number.NaN,
      Number.POSITIVE_INFINITY,
      '',
      'a',
      true,
      false,
      [],
      [1, 2],
      [2, 1],
      [1, [2, { a: 3 }]],
      {},
      { a: 1 },
      { a: 1, b: 2 },
      { b: 2, a: 1 },
      { a: undefined },
      { a: undefined, b: 1 },
      { b: 1 },
      { a: { readOnlyHint: true } },
      { a: { readOnlyHint: false } },
      [undefined],
      [null],
      new Date(0),
      { toJSON: () => 'x' },
      'x',
    ];
    for (const a of values) {
      for (const b of values) {
        expect(sameJson(a, b), `${String(JSON.stringify(a))} vs ${String(JSON.stringify(b))}`).toBe(
          text(a, b),
        );
      }
    }
  });

  it('compares a structure with a fresh copy of itself', () => {
    const definition = {
      name: 'read_file',
      annotations: { readOnlyHint: true },
      inputSchema: { type: 'object' },
    };
    expect(sameJson(definition, JSON.parse(JSON.stringify(definition)))).toBe(true);
    expect(sameJson(definition, { ...definition, annotations: { readOnlyHint: false } })).toBe(false);
  });
});
