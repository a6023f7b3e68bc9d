import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ApiKey } from './api-key.js';

const SECRET = 'sk-test-0123456789abcdef';

describe('ApiKey', () => {
  it('shows the key nowhere but reveal()', () => {
    const key = ApiKey.of(SECRET);
    expect(key?.reveal()).toBe(SECRET);
    const shown = [
      String(key),
      `${key}`,
      JSON.stringify({ key }),
      inspect(key),
      inspect({ nested: { key } }),
    ];
    for (const text of shown) expect(text).not.toContain(SECRET);
    expect(String(key)).toBe('<redacted>');
    expect(JSON.stringify({ key })).toBe('{"key":"<redacted>"}');
    expect(inspect(key)).toBe('ApiKey(<redacted>)');
  });

  it('masks the key in text a provider echoes back; blank or absent is no key', () => {
    const key = ApiKey.of(SECRET);
    expect(key?.redact(`invalid x-api-key: ${SECRET} (check it)`)).not.toContain(SECRET);
    expect(ApiKey.of(undefined)).toBeUndefined();
    expect(ApiKey.of('   ')).toBeUndefined();
  });
});
