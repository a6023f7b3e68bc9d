import { describe, expect, it } from 'vitest';
import { InvalidSecretError, SecretRegistry } from './secret-registry.js';

describe('SecretRegistry.register', () => {
  it('refuses a 7-character value and accepts an 8-character one', () => {
    const registry = new SecretRegistry();
    expect(() => registry.register('SHORT', '1234567')).toThrow(/7 characters; at least 8/);
    registry.register('EXACT', '12345678');
    expect(registry.names()).toEqual(['EXACT']);
  });

  it.each([
    ['a double quote', 'abcd"efgh', /'"' at index 4/],
    ['a backslash', 'abcd\\efgh', /'\\' at index 4/],
    ['a non-ASCII character', 'abcdéfgh', /non-ASCII character at index 4/],
    ['a control character', 'abcd\tefgh', /control character at index 4/],
    ['DEL', 'abcd\u007fefgh', /control character at index 4/],
  ])('refuses a value with %s, without echoing it', (_label, value, message) => {
    const registry = new SecretRegistry();
    let thrown: unknown;
    try {
      registry.register('K', value);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(InvalidSecretError);
    expect((thrown as InvalidSecretError).code).toBe('INVALID_SECRET');
    expect((thrown as Error).message).toMatch(message);
    expect((thrown as Error).message).not.toContain(value);
    expect(registry.size).toBe(0);
  });

  it('accepts the printable edges space and tilde', () => {
    const registry = new SecretRegistry();
    registry.register('EDGES', ' ~~~~~~ ');
    expect(registry.redact('x ~~~~~~ y').text).toBe('x<redacted:EDGES>y');
  });

  it('refuses blank names and non-string values', () => {
    const registry = new SecretRegistry();
    expect(() => registry.register('  ', 'abcdefgh')).toThrow(/non-blank/);
    expect(() => registry.register('N', null as unknown as string)).toThrow(/must be a string, got null/);
    expect(() => registry.register('N', 12345678 as unknown as string)).toThrow(/got number/);
  });

  it('replaces the value when a name is registered again', () => {
    const registry = new SecretRegistry();
    registry.register('TOKEN', 'first-value-1');
    registry.register('TOKEN', 'second-value-2');
    expect(registry.size).toBe(1);
    expect(registry.redact('first-value-1 second-value-2').text).toBe('first-value-1 <redacted:TOKEN>');
  });

  it('caches its redactor until the next register', () => {
    const registry = new SecretRegistry();
    const empty = registry.redactor();
    expect(registry.redactor()).toBe(empty);
    registry.register('A', 'aaaaaaaa');
    const first = registry.redactor();
    expect(first).not.toBe(empty);
    expect(registry.redactor()).toBe(first);
    registry.register('B', 'bbbbbbbb');
    expect(registry.redactor()).not.toBe(first);
    expect(first.redactText('bbbbbbbb')).toBe('bbbbbbbb'); // a snapshot keeps what it was built from
  });

  it('delegates leaks, trimPartialSecret and counts to its redactor', () => {
    const registry = new SecretRegistry();
    registry.register('GH_TOKEN', 'ghp_secret123');
    expect(registry.leaks('token ghp_secret123 here')).toBe(true);
    expect(registry.leaks('nothing')).toBe(false);
    expect(registry.trimPartialSecret('out: ghp_sec')).toBe('out: ');
    expect(registry.counts('<redacted:GH_TOKEN> and <redacted:GH_TOKEN>').get('GH_TOKEN')).toBe(2);
  });
});
