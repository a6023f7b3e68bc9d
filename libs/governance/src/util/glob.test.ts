import fc from 'fast-check';
import picomatch from 'picomatch';
import { describe, expect, it } from 'vitest';
import { compileGlob, type NameMatcher } from './glob.js';

function glob(pattern: string): NameMatcher {
  const matcher = compileGlob(pattern);
  if (typeof matcher === 'string') throw new Error(matcher);
  return matcher;
}

const picomatchSays = (pattern: string, name: string): boolean =>
  picomatch.makeRe(pattern, { dot: true }).test(name);

/** Pieces of the supported grammar, weighted toward what policies write. */
const piece = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('a', 'b', '_', '-', '.', 'ab', '__', 'mcp') },
  { weight: 2, arbitrary: fc.constant('/') },
  { weight: 4, arbitrary: fc.constant('*') },
  { weight: 1, arbitrary: fc.constant('**') },
  { weight: 2, arbitrary: fc.constant('?') },
  { weight: 1, arbitrary: fc.constantFrom('[ab]', '[^a]', '[a-c]', '[._]', '[-a]') },
  {
    weight: 1,
    arbitrary: fc.constantFrom('{a,b}', '{a,*}', '{*,b.}', '{a,{b,c}d}', '{,a}', '{a/b,*}', '{**,a}'),
  },
  { weight: 1, arbitrary: fc.constantFrom('@(a|b)', '@(a*|.)', '?(a|b)', '?(.|*)', '@(**)') },
  { weight: 1, arbitrary: fc.constantFrom('\\*', '\\?', '\\{', '\\[') },
);
const pattern = fc
  .tuple(fc.constantFrom('', '', '', '!', './'), fc.array(piece, { minLength: 1, maxLength: 6 }))
  .map(([prefix, pieces]) => prefix + pieces.join(''))
  .filter((text) => !/\*\*\*/.test(text) && typeof compileGlob(text) !== 'string');
const name = fc
  .array(fc.constantFrom('a', 'b', 'c', '.', '_', '-', '/', '*', '\n'), { minLength: 0, maxLength: 8 })
  .map((chars) => chars.join(''));

describe('globs match as picomatch (dot: true) did', () => {
  it.each([
    ['send_*', ['send_email', 'send_', 'send', 'send_a/b', 'resend_x']],
    ['stripe.*', ['stripe.charge', 'stripe', 'stripe.', 'stripeXcharge']],
    ['*', ['a', '.hidden', '.', '..', 'a/b', '', 'a/']],
    ['{a,b}*', ['a', 'bx', 'c', 'a/']],
    ['mcp__*__read_*', ['mcp__fs__read_file', 'mcp____read_', 'mcp__fs__write_file', 'mcp__a/b__read_x']],
    ['!send_*', ['send_x', 'get_x', 'get\nx']],
    ['@scope/*', ['@scope/pkg', '@scope/a/b', '@other/pkg']],
    // Only a single star after a leading dot asks for a character ahead (a line break is none).
    ['.**[^a]*', ['.\n', '.b', '.']],
    ['.*[^a]*', ['.\n', '.b', '.']],
  ])('%s', (glob_, names) => {
    const matcher = glob(glob_);
    for (const candidate of names)
      expect([candidate, matcher(candidate)]).toEqual([candidate, picomatchSays(glob_, candidate)]);
  });

  it('agrees with picomatch on random globs of the supported grammar and random names', () => {
    fc.assert(
      fc.property(pattern, fc.array(name, { minLength: 1, maxLength: 20 }), (text, names) => {
        const matcher = glob(text);
        for (const candidate of names) {
          expect({ text, candidate, ours: matcher(candidate) }).toEqual({
            text,
            candidate,
            ours: picomatchSays(text, candidate),
          });
        }
      }),
      { numRuns: 3000 },
    );
  });
});

describe('glob matching is linear', () => {
  it('survives the reported attack: *_*_*_*_*_*! against long tool names', () => {
    const started = performance.now();
    const attack = glob('*_*_*_*_*_*!');
    for (const length of [200, 10_000, 100_000]) {
      expect(attack('_'.repeat(length))).toBe(false);
      expect(attack(`${'a_'.repeat(length / 2)}`)).toBe(false);
    }
    expect(glob('**/*_*_*_*_*!')('a/'.repeat(20_000))).toBe(false);
    expect(glob('{*_,_*}{*_,_*}{*_,_*}{*_,_*}!')('_'.repeat(50_000))).toBe(false);
    // A sanity bound only: picomatch's RegExp needed minutes for 200 characters.
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

describe('globs refused at load, with the reason', () => {
  it.each([
    ['!(a)', /extglobs are not supported/],
    ['+(a|b)', /extglobs are not supported/],
    ['*(a|b)', /repeated extglob/],
    ['[!abc]', /write "\[\^\.\.\.\]"/],
    ['[[:alpha:]]', /POSIX classes/],
    ['{1..3}', /ranges are not supported/],
    ['a(b)', /outside an extglob must be escaped/],
    ['a|b', /outside an extglob must be escaped/],
    ['"a"', /quotes/],
    ['a\\b', /only punctuation may be escaped/],
    ['a\\', /lone/],
    ['***', undefined],
    ['a***', /three or more stars/],
    ['{a,b', /never closed/],
    ['[ab', /never closed/],
    ['**@(a)', /next to an extglob/],
    ['@(a)?', /ambiguous/],
    ['!', /nothing after/],
  ])('%s', (pattern, reason) => {
    const compiled = compileGlob(pattern);
    if (reason === undefined) expect(typeof compiled).toBe('function');
    else expect(compiled).toMatch(reason);
  });
});
