import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { compileSafeRegex, type PolicyRegex } from './safe-regex.js';

function regex(source: string): PolicyRegex {
  const compiled = compileSafeRegex(source);
  if (typeof compiled === 'string') throw new Error(compiled);
  return compiled;
}

describe('policy regexes run in linear time', () => {
  it('survives the reported ReDoS: ^([a-z]|[a-z0-9])*$ against 30 letters and "!"', () => {
    expect(regex('^([a-z]|[a-z0-9])*$').test(`${'a'.repeat(30)}!`)).toBe(false);
  });

  it('survives classic catastrophic patterns against 64 KiB inputs', () => {
    const started = performance.now();
    const input = `${'a'.repeat(64 * 1_024 - 1)}!`;
    for (const source of ['^([a-z]|[a-z0-9])*$', '(a+)+$', '^(a|aa)*$', '(.*a){20}$', '^(\\w+\\s?)*$']) {
      expect(regex(source).test(input)).toBe(false);
    }
    // A sanity bound only: a backtracking engine needs longer than the age of the universe here.
    expect(performance.now() - started).toBeLessThan(4_000);
  });
});

describe('JavaScript meaning', () => {
  it.each([
    ['^send_', 'send_email', true],
    ['^send_', 'resend_x', false],
    ['\\d+', 'order 42', true],
    ['\\d+', 'none', false],
    ['[a-z]+@example\\.com$', 'bob@example.com', true],
    ['[a-z]+@example\\.com$', 'bob@example.com.evil', false],
    ['[a-z]+@example\\.com$', 'bob@exampleXcom', false],
    ['\\.', 'a.b', true],
    ['\\.', 'ab', false],
    ['\\/etc\\/passwd', '/etc/passwd', true],
    ['a$', 'a\n', false],
    ['^b', 'a\nb', false],
    ['a.c', 'a\rc', false],
    ['a.c', 'a\u2028c', false],
    ['\\s', '\u000b', true],
    ['\\s', '\u00a0', true],
    ['\\S', '\u00a0', false],
    ['[\\s]', '\u3000', true],
    ['[^\\S]', '\ufeff', true],
    ['\\w', 'é', false],
    ['\\bfoo\\b', 'a foo b', true],
    ['[\\b]', '\b', true],
    ['[\\w-]', '-', true],
    ['[a-]', '-', true],
    ['\\u0041', 'A', true],
    ['\\x41\\cJ', 'A\n', true],
    ['a{2}', 'aa', true],
    ['a{,2}', 'a{,2}', true],
    ['x}', 'x}', true],
    ['[]', 'anything', false],
    ['^[^]$', '\n', true],
    ['(?<year>\\d{4})-(?:\\d\\d)', '2024-05', true],
    ['[[:alpha:]]', ':]', true],
    ['café', 'un café', true],
  ])('%j on %j is %s, as in JavaScript', (source, input, expected) => {
    expect(new RegExp(source).test(input)).toBe(expected);
    expect(regex(source).test(input)).toBe(expected);
  });

  const piece = fc.constantFrom(
    'a',
    'b',
    '.',
    '\\d',
    '\\D',
    '\\w',
    '\\W',
    '\\s',
    '\\S',
    '\\b',
    '\\B',
    '[a-c]',
    '[^a]',
    '[\\s\\d]',
    '[^\\S]',
    '(a|b)',
    '(?:ab)',
    'a*',
    'b+',
    '.?',
    'a{2}',
    'a{1,2}',
    '\\.',
    '\\n',
    '\\-',
    '^',
    '$',
    '|',
  );
  const input = fc
    .array(
      fc.constantFrom('a', 'b', 'c', '1', ' ', '.', '-', '\n', '\r', '\u000b', '\u00a0', '\u2028', 'é', '_'),
      {
        maxLength: 10,
      },
    )
    .map((chars) => chars.join(''));

  it('agrees with RegExp#test on random patterns and inputs', () => {
    fc.assert(
      fc.property(
        fc.array(piece, { minLength: 1, maxLength: 6 }),
        fc.array(input, { maxLength: 10 }),
        (pieces, inputs) => {
          const source = pieces.join('');
          const js = new RegExp(source);
          const ours = regex(source);
          for (const value of inputs)
            expect({ source, value, ours: ours.test(value) }).toEqual({
              source,
              value,
              ours: js.test(value),
            });
        },
      ),
      { numRuns: 2_000 },
    );
  });
});

describe('refused at load, with the reason', () => {
  it.each([
    ['(a)\\1', /backreferences/],
    ['(?<n>a)\\k<n>', /backreferences/],
    ['(?=a)b', /lookahead and lookbehind/],
    ['(?<!a)b', /lookahead and lookbehind/],
    ['\\u{41}', /needs the u flag/],
    ['\\A', /not a JavaScript escape/],
    ['\\p{L}', /not a JavaScript escape/],
    ['\\ud800', /surrogate/],
    ['a{1001}', /invalid repeat count/],
  ])('%s', (source, reason) => {
    const compiled = compileSafeRegex(source);
    expect(compiled).toEqual(expect.stringContaining(JSON.stringify(source)));
    expect(compiled).toMatch(reason);
    expect(compiled).toMatch(/linear-time engine/);
  });

  it('reports JavaScript syntax errors as such', () => {
    expect(compileSafeRegex('([')).toMatch(/^invalid regex: /);
  });
});
