import { describe, expect, it } from 'vitest';
import { storableJson, storableJsonWithin, storableText } from './storable-text.js';

describe('storable text', () => {
  it('replaces U+0000 and unpaired surrogates, and keeps pairs and everything else', () => {
    expect(storableText('a\u0000b')).toBe('a\uFFFDb');
    expect(storableText('\uD800x\uDC00')).toBe('\uFFFDx\uFFFD');
    expect(storableText('x\uD800')).toBe('x\uFFFD');
    expect(storableText('😀 \uD83D\uDE00 é \u0001 \\u0000')).toBe('😀 \uD83D\uDE00 é \u0001 \\u0000');
  });

  it('cleans keys and values at every depth without touching other types', () => {
    const parsed = JSON.parse(
      '{"k\\u0000":["\\ud800",{"__proto__":"\\u0000"}],"n":1,"b":true,"z":null,"ok":"\\ud83d\\ude00"}',
    ) as unknown;
    const clean = storableJson(parsed) as Record<string, unknown>;
    expect(clean).toEqual({
      'k\uFFFD': ['\uFFFD', JSON.parse('{"__proto__":"\uFFFD"}')],
      n: 1,
      b: true,
      z: null,
      ok: '😀',
    });
    expect(Object.getPrototypeOf(clean)).toBe(Object.prototype);
    expect(Object.hasOwn((clean['k\uFFFD'] as unknown[])[1] as object, '__proto__')).toBe(true);
  });

  it('returns the very value when it is already storable, surrogate pairs included', () => {
    const value = { a: ['plain', { 'é 😀': '\uD83D\uDE00' }], n: 1, z: null };
    expect(storableJson(value)).toBe(value);
    expect(storableJson('text')).toBe('text');
  });

  it('within a depth: level n passes, n + 1 is undefined, found even past an unstorable string', () => {
    const nest = (levels: number, inner: unknown = 1): unknown =>
      levels === 0 ? inner : levels % 2 === 0 ? [nest(levels - 1, inner)] : { k: nest(levels - 1, inner) };
    expect(storableJsonWithin(nest(3), 3)).toEqual(nest(3));
    expect(storableJsonWithin(nest(4), 3)).toBeUndefined();
    expect(storableJsonWithin({ a: '\u0000', b: nest(3) }, 3)).toBeUndefined();
    expect(storableJsonWithin({ a: '\u0000', b: nest(2) }, 3)).toEqual({ a: '\uFFFD', b: nest(2) });
    expect(storableJsonWithin('deep text is not nesting', 0)).toBe('deep text is not nesting');
  });

  it('within a depth: a value nested past the stack limit, or cyclic, is refused rather than thrown', () => {
    let deep: unknown = 1;
    for (let i = 0; i < 200_000; i += 1) deep = [deep];
    expect(() => JSON.stringify(deep)).toThrow(RangeError);
    expect(storableJsonWithin({ arguments: deep }, 256)).toBeUndefined();
    const cyclic: Record<string, unknown> = {};
    cyclic['self'] = cyclic;
    expect(storableJsonWithin(cyclic, 256)).toBeUndefined();
  });
});
