import { describe, expect, it } from 'vitest';
import { storableJson, storableText } from './storable-text.js';

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
});
