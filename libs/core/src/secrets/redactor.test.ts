import { describe, expect, it } from 'vitest';
import { Redactor, redactionMarker } from './redactor.js';

const redactor = (...entries: [string, string][]): Redactor => new Redactor(entries);

describe('Redactor.redact', () => {
  it('replaces every occurrence with a marker and counts markers per name', () => {
    const r = redactor(['STRIPE', 'sk_live_abc'], ['GH', 'ghp_12345678']);
    const result = r.redact('a sk_live_abc b ghp_12345678 c sk_live_abc');
    expect(result.text).toBe('a <redacted:STRIPE> b <redacted:GH> c <redacted:STRIPE>');
    expect(Object.fromEntries(result.counts)).toEqual({ STRIPE: 2, GH: 1 });
    expect(result.total).toBe(3);
  });

  it('is the identity without secrets or without matches', () => {
    expect(Redactor.EMPTY.redact('anything').text).toBe('anything');
    expect(Redactor.EMPTY.leaks('anything')).toBe(false);
    expect(Redactor.EMPTY.trimPartialSecret('anything')).toBe('anything');
    const r = redactor(['A', 'aaaaaaaa']);
    const result = r.redact('no secret here');
    expect(result).toMatchObject({ text: 'no secret here', total: 0 });
  });

  it('collapses overlapping occurrences into one marker naming the first', () => {
    const r = redactor(['FIRST', 'abcdefgh'], ['SECOND', 'efghijkl']);
    expect(r.redact('[abcdefghijkl]').text).toBe('[<redacted:FIRST>]');
    // the earliest-starting occurrence names the marker even when it was registered later
    expect(redactor(['LATE', 'efghijkl'], ['EARLY', 'abcdefgh']).redact('abcdefghijkl').text).toBe(
      '<redacted:EARLY>',
    );
  });

  it('folds a later, longer occurrence that reaches back over earlier ones', () => {
    const r = redactor(['SHORT1', 'bcdefghi'], ['SHORT2', 'klmnopqr'], ['LONG', 'abcdefghijklmnopqrs']);
    const result = r.redact('>abcdefghijklmnopqrs<');
    expect(result.text).toBe('><redacted:LONG><');
    expect(Object.fromEntries(result.counts)).toEqual({ LONG: 1 });
  });

  it('names the longest value when two start at the same place', () => {
    const r = redactor(['SHORT', 'abcdefgh'], ['LONG', 'abcdefghXY']);
    expect(r.redact('abcdefghXY').text).toBe('<redacted:LONG>');
    expect(r.redact('abcdefghZZ').text).toBe('<redacted:SHORT>ZZ');
  });

  it('names the first registered of two identical values', () => {
    const r = redactor(['ONE', 'samevalue'], ['TWO', 'samevalue']);
    expect(r.redact('samevalue').text).toBe('<redacted:ONE>');
  });

  it('keeps one marker per adjacent occurrence', () => {
    const r = redactor(['A', 'aaaaaaaa'], ['B', 'bbbbbbbb']);
    expect(r.redact('aaaaaaaabbbbbbbb').text).toBe('<redacted:A><redacted:B>');
    const repeated = r.redact('aaaaaaaaaaaaaaaa');
    expect(repeated.text).toBe('<redacted:A>'); // the second copy overlaps every shifted copy in between
  });

  it('finds secrets next to non-ASCII text and restarts after characters no secret contains', () => {
    const r = redactor(['K', 'key12345']);
    expect(r.redact('é key12345 ü key1é2345').text).toBe('é <redacted:K> ü key1é2345');
  });

  it('finds a value whose prefix repeats (failure links)', () => {
    const r = redactor(['K', 'aabaabaab']);
    expect(r.redact('aabaabaabaab').text).toBe('<redacted:K>'); // occurrences at 0 and 3 overlap
    expect(r.redact('aabaabaab aab').text).toBe('<redacted:K> aab');
    expect(r.redact('aaabaabaab').text).toBe('a<redacted:K>');
  });
});

describe('Redactor.trimPartialSecret', () => {
  const r = redactor(['TOKEN', 'ghp_secret123'], ['OTHER', 'xyz98765']);

  it('drops a trailing start of a secret, down to one character', () => {
    expect(r.trimPartialSecret('output ghp_secret12')).toBe('output ');
    expect(r.trimPartialSecret('output g')).toBe('output ');
    expect(r.trimPartialSecret('output xyz9')).toBe('output ');
  });

  it('keeps text that does not end in the start of a secret', () => {
    expect(r.trimPartialSecret('output ghp_q')).toBe('output ghp_q');
    expect(r.trimPartialSecret('')).toBe('');
  });

  it('keeps a complete secret at the end, which redaction then masks', () => {
    expect(r.trimPartialSecret('out ghp_secret123')).toBe('out ghp_secret123');
  });

  it('drops a complete occurrence that a trailing partial overlaps, leaving no head behind', () => {
    const overlapping = redactor(['P', 'abcdefgh'], ['Q', 'ghijklmn']);
    const trimmed = overlapping.trimPartialSecret('keep abcdefghij');
    expect(trimmed).toBe('keep ');
    expect(overlapping.redact(trimmed).text).toBe('keep ');
  });

  it('drops a complete value that is itself the start of a longer one', () => {
    const nested = redactor(['SHORT', 'abcdefgh'], ['LONG', 'abcdefghijkl']);
    expect(nested.trimPartialSecret('x abcdefgh')).toBe('x ');
  });
});

describe('Redactor helpers', () => {
  it('counts markers of registered names only', () => {
    const r = redactor(['A', 'aaaaaaaa']);
    const counts = r.counts(`${redactionMarker('A')} ${redactionMarker('A')} ${redactionMarker('Z')}`);
    expect(Object.fromEntries(counts)).toEqual({ A: 2 });
    expect(r.names).toEqual(['A']);
  });

  it('redactText and leaks', () => {
    const r = redactor(['A', 'aaaaaaaa']);
    expect(r.redactText('xaaaaaaaax')).toBe('x<redacted:A>x');
    expect(r.leaks('aaaaaaa')).toBe(false);
  });
});
