import { describe, expect, it } from 'vitest';
import { bearerToken, resolveTokens, tokenMatcher } from './adapter-tokens.js';

describe('adapter tokens', () => {
  it('takes tokens from the environment and never prints their values', () => {
    const lines: string[] = [];
    const env = { HELIO_ADAPTER_TOKEN: 'adapter-secret-1', HELIO_SDK_TOKEN: 'sdk-secret-22' };
    expect(resolveTokens(env, (l) => lines.push(l))).toEqual({
      adapter: 'adapter-secret-1',
      sdk: 'sdk-secret-22',
    });
    expect(lines).toEqual([
      'HELIO_ADAPTER_TOKEN: using the value from the environment',
      'HELIO_SDK_TOKEN: using the value from the environment',
    ]);
  });

  it('generates 32 random bytes per scope when unset, prints and exports them', () => {
    const lines: string[] = [];
    const env: NodeJS.ProcessEnv = { HELIO_SDK_TOKEN: '   ' };
    const tokens = resolveTokens(env, (l) => lines.push(l));
    expect(tokens.adapter).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.sdk).toMatch(/^[0-9a-f]{64}$/);
    expect(tokens.sdk).not.toBe(tokens.adapter);
    expect(env.HELIO_ADAPTER_TOKEN).toBe(tokens.adapter);
    expect(lines[0]).toContain(tokens.adapter);
    expect(lines[1]).toContain(tokens.sdk);
    expect(resolveTokens({}, () => undefined).adapter).not.toBe(tokens.adapter);
  });

  it('compares in constant time, whatever the lengths', () => {
    const matches = tokenMatcher('abc');
    expect(matches('abc')).toBe(true);
    expect(matches('abd')).toBe(false);
    expect(matches('abcd')).toBe(false);
    expect(matches('ab')).toBe(false);
    expect(matches('ab\u0000')).toBe(false);
    expect(matches('')).toBe(false);
    expect(matches(undefined)).toBe(false);
    expect(matches('abc')).toBe(true); // the scratch buffer holds nothing over from earlier checks
    const unicode = tokenMatcher('tökén');
    expect(unicode('tökén')).toBe(true);
    expect(unicode('token')).toBe(false);
  });

  it('reads only a well-formed bearer header', () => {
    expect(bearerToken('Bearer t0k')).toBe('t0k');
    expect(bearerToken('bearer t0k')).toBe('t0k');
    expect(bearerToken('Basic t0k')).toBeUndefined();
    expect(bearerToken('Bearer a b')).toBeUndefined();
    expect(bearerToken(undefined)).toBeUndefined();
  });
});
