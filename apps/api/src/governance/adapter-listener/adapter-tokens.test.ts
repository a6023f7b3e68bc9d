import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../config/config-error.js';
import { bearerToken, checkTokenEnvironment, resolveTokens, tokenMatcher } from './adapter-tokens.js';

describe('adapter tokens', () => {
  it('takes tokens from the environment and never prints their values', () => {
    const lines: string[] = [];
    const env = { HELIO_ADAPTER_TOKEN: 'adapter-secret-0001', HELIO_SDK_TOKEN: 'sdk-secret-000000022' };
    expect(resolveTokens(env, (l) => lines.push(l))).toEqual({
      adapter: 'adapter-secret-0001',
      sdk: 'sdk-secret-000000022',
    });
    expect(lines).toEqual([
      'HELIO_ADAPTER_TOKEN: using the value from the environment',
      'HELIO_SDK_TOKEN: using the value from the environment',
    ]);
  });

  it('refuses identical tokens and tokens under 16 characters, naming the variable, never the value', () => {
    const refusal = (env: NodeJS.ProcessEnv): ConfigError => {
      try {
        resolveTokens(env, () => undefined);
      } catch (error) {
        expect(error).toBeInstanceOf(ConfigError);
        return error as ConfigError;
      }
      throw new Error('expected a ConfigError');
    };
    const same = 'the-same-token-for-both-scopes';
    const identical = refusal({ HELIO_ADAPTER_TOKEN: same, HELIO_SDK_TOKEN: ` ${same} ` });
    expect(identical.issues).toEqual([
      { path: 'HELIO_SDK_TOKEN', message: expect.stringContaining('must differ from HELIO_ADAPTER_TOKEN') },
    ]);
    expect(identical.message).not.toContain(same);
    const short = refusal({ HELIO_ADAPTER_TOKEN: 'x', HELIO_SDK_TOKEN: 'x' });
    expect(short.issues.map((i) => i.path)).toEqual([
      'HELIO_ADAPTER_TOKEN',
      'HELIO_SDK_TOKEN',
      'HELIO_SDK_TOKEN',
    ]);
    const fifteen = refusal({ HELIO_SDK_TOKEN: '123456789012345' });
    expect(fifteen.issues).toEqual([
      { path: 'HELIO_SDK_TOKEN', message: expect.stringContaining('at least 16') },
    ]);
    expect(fifteen.message).not.toContain('123456789012345');
    expect(() => checkTokenEnvironment({ HELIO_SDK_TOKEN: '1234567890123456' })).not.toThrow();
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
