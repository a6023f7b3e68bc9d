import { describe, expect, it } from 'vitest';
import { ScimFilterError } from './errors.js';
import { MAX_FILTER_DEPTH, MAX_FILTER_LENGTH, parseScimFilter } from './scim-filter.js';
import { compileScimFilter, escapeLike, scimAttributes } from './scim-sql.js';

const ATTRIBUTES = scimAttributes({
  subjectId: { column: 'subject_id', type: 'uuid' },
  label: { column: 'label', type: 'text' },
  rating: { column: 'rating', type: 'integer' },
  createdAt: { column: 'created_at', type: 'timestamp' },
});

function failure(run: () => unknown): ScimFilterError {
  try {
    run();
  } catch (error) {
    if (error instanceof ScimFilterError) return error;
    throw error;
  }
  throw new Error('expected a ScimFilterError');
}

describe('parseScimFilter', () => {
  it('parses every comparison operator, case-insensitively, with each literal type', () => {
    for (const op of ['eq', 'ne', 'co', 'sw', 'ew', 'gt', 'ge', 'lt', 'le']) {
      expect(parseScimFilter(`label ${op.toUpperCase()} "x"`)).toEqual({
        kind: 'Compare',
        attribute: 'label',
        operator: op,
        value: 'x',
        position: 0,
      });
    }
    const values = ['"a \\"q\\" \\u00e9"', '-1.5e2', '42', 'true', 'False', 'null'].map(
      (literal) => (parseScimFilter(`a eq ${literal}`) as { value: unknown }).value,
    );
    expect(values).toEqual(['a "q" é', -150, 42, true, false, null]);
  });

  it('gives not > and > or precedence, and parentheses group', () => {
    expect(parseScimFilter('a pr or b pr and not (c pr)')).toEqual({
      kind: 'Or',
      left: { kind: 'Present', attribute: 'a', position: 0 },
      right: {
        kind: 'And',
        left: { kind: 'Present', attribute: 'b', position: 8 },
        right: { kind: 'Not', filter: { kind: 'Present', attribute: 'c', position: 22 } },
      },
    });
    expect(parseScimFilter('(a pr or b pr) and c pr')).toMatchObject({ kind: 'And', left: { kind: 'Or' } });
  });

  it.each([
    ['', 0, /empty/],
    ['label', 5, /expected an operator after label, found the end/],
    ['label eq', 8, /expected a value/],
    ['label eq "x" label eq "y"', 13, /expected "and", "or" or the end/],
    ['label eq "unterminated', 9, /unterminated or malformed string/],
    ['label eq "tab\there"', 9, /unterminated or malformed string/],
    ['label eq "bad \\x escape"', 9, /unterminated or malformed string/],
    ['label xx "x"', 6, /expected an operator after label, found "xx"/],
    ['(label pr', 9, /expected "\)", found the end/],
    ['label pr)', 8, /expected "and", "or" or the end, found "\)"/],
    ['not label pr', 4, /expected "\("/],
    ['and pr', 0, /expected an attribute/],
    ['emails[type eq "work"]', 6, /unexpected character "\["/],
    ["label eq 'x'", 9, /unexpected character "'"/],
    ['label eq "x" and', 16, /expected an attribute, found the end/],
    ['rating eq 01', 10, /malformed number|expected/],
  ])('refuses %j at position %i', (filter, position, reason) => {
    const error = failure(() => parseScimFilter(filter));
    expect(error.code).toBe('INVALID_FILTER');
    expect(error.position).toBe(position);
    expect(error.message).toMatch(reason);
    expect(error.message).toContain(`position ${position}`);
  });

  it('refuses filters too long or nested too deep', () => {
    expect(failure(() => parseScimFilter(`a eq "${'x'.repeat(MAX_FILTER_LENGTH)}"`)).message).toMatch(
      /longer than/,
    );
    const deep = `${'('.repeat(MAX_FILTER_DEPTH + 1)}a pr${')'.repeat(MAX_FILTER_DEPTH + 1)}`;
    expect(failure(() => parseScimFilter(deep)).message).toMatch(/nested deeper/);
    const allowed = `${'('.repeat(MAX_FILTER_DEPTH - 1)}a pr${')'.repeat(MAX_FILTER_DEPTH - 1)}`;
    expect(parseScimFilter(allowed)).toEqual({
      kind: 'Present',
      attribute: 'a',
      position: MAX_FILTER_DEPTH - 1,
    });
  });

  it('refuses SQL in attribute names at the first character that is not part of a name', () => {
    const error = failure(() => parseScimFilter(`label"; drop table helios_annotations; -- eq "x"`));
    expect(error.position).toBe(5);
    expect(failure(() => parseScimFilter("label'; drop table x; -- eq 1")).position).toBe(5);
    expect(failure(() => parseScimFilter('label;drop eq 1')).position).toBe(5);
  });
});

describe('compileScimFilter', () => {
  it('binds every value as a parameter and takes column names from the allow-list only', () => {
    const injected = `x'; drop table helios_annotations; --`;
    const compiled = compileScimFilter(
      `label eq ${JSON.stringify(injected)} and (rating ge 2 or not (createdAt lt "2025-01-01T00:00:00Z"))`,
      ATTRIBUTES,
      3,
    );
    expect(compiled.sql).toBe(
      '(("label" = $3::text) AND (("rating" >= $4::integer) OR (NOT coalesce(("created_at" < $5::timestamptz), false))))',
    );
    expect(compiled.params).toEqual([injected, 2, '2025-01-01T00:00:00Z']);
    expect(compiled.sql).not.toContain('drop');
  });

  it('escapes LIKE wildcards for co, sw and ew', () => {
    expect(escapeLike('50%_a\\b')).toBe('50\\%\\_a\\\\b');
    expect(compileScimFilter('label co "5%"', ATTRIBUTES)).toEqual({
      sql: `("label" LIKE $1::text ESCAPE '\\')`,
      params: ['%5\\%%'],
    });
    expect(compileScimFilter('label sw "a_"', ATTRIBUTES).params).toEqual(['a\\_%']);
    expect(compileScimFilter('label ew "_"', ATTRIBUTES).params).toEqual(['%\\_']);
    expect(compileScimFilter('subjectId sw "0190"', ATTRIBUTES).sql).toBe(
      `("subject_id"::text LIKE $1::text ESCAPE '\\')`,
    );
  });

  it('compiles null, ne and pr as SCIM means them', () => {
    expect(compileScimFilter('label eq null', ATTRIBUTES).sql).toBe('("label" IS NULL)');
    expect(compileScimFilter('label ne null', ATTRIBUTES).sql).toBe('("label" IS NOT NULL)');
    expect(compileScimFilter('label ne "a"', ATTRIBUTES).sql).toBe('("label" IS DISTINCT FROM $1::text)');
    expect(compileScimFilter('label pr', ATTRIBUTES).sql).toBe(`("label" IS NOT NULL AND "label" <> '')`);
    expect(compileScimFilter('RATING pr', ATTRIBUTES).sql).toBe('("rating" IS NOT NULL)');
  });

  it.each([
    ['metadata.team eq "a"', 0, /unknown attribute "metadata.team"/],
    ['label eq "a" and subject_id eq "x"', 17, /unknown attribute "subject_id"/],
    ['rating eq "5"', 0, /rating eq needs an integer/],
    ['rating eq 1.5', 0, /needs an integer/],
    ['label eq 5', 0, /label eq needs a string/],
    ['label eq true', 0, /needs a string/],
    ['subjectId eq "not-a-uuid"', 0, /needs a UUID string/],
    ['createdAt gt "yesterday"', 0, /needs an ISO 8601 date-time/],
    ['rating co "1"', 0, /"co" needs a text attribute/],
    ['label gt null', 0, /"gt" cannot compare with null/],
  ])('refuses %j at position %i', (filter, position, reason) => {
    const error = failure(() => compileScimFilter(filter, ATTRIBUTES));
    expect(error.position).toBe(position);
    expect(error.message).toMatch(reason);
  });

  it('refuses an allow-list whose column is not a plain identifier', () => {
    expect(() => scimAttributes({ evil: { column: 'label"; drop', type: 'text' } })).toThrow(TypeError);
  });
});
