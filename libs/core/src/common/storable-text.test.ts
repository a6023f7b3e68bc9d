import { describe, expect, it } from 'vitest';
import { jsonMayHoldUnstorableText, storableJson, storableText } from './storable-text.js';

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

  it('tells JSON text that certainly holds only storable strings', () => {
    expect(jsonMayHoldUnstorableText('{"a":"plain é 😀 \\n \\u0041"}')).toBe(false);
    expect(jsonMayHoldUnstorableText('{"a":"\\u0000"}')).toBe(true);
    expect(jsonMayHoldUnstorableText('{"a":"\\uDc00"}')).toBe(true);
    expect(jsonMayHoldUnstorableText('{"a":"\\ud83d\\ude00"}')).toBe(true);
  });
});
