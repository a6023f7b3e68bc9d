/**
 * picomatch's (`dot: true`) building blocks as automaton pieces. Its lookaheads only ever inspect a
 * few code units, so each becomes an O(1) position test instead of a backtracking RegExp.
 */
import { type NameNode, type PositionTest, type UnitTest } from './name-automaton.js';

const SLASH = 0x2f;
const DOT = 0x2e;

/** What a JS `.` (no `s` flag) refuses: picomatch's `.`-based pieces never consume these. */
export function isLineTerminator(unit: number): boolean {
  return unit === 0x0a || unit === 0x0d || unit === 0x2028 || unit === 0x2029;
}

/** `\.{1,2}(?:\/|$)` at `index`: a `.` or `..` path segment starts there. */
function dotSegmentAt(name: string, index: number): boolean {
  if (name.charCodeAt(index) !== DOT) return false;
  const after = index + 1;
  if (after === name.length || name.charCodeAt(after) === SLASH) return true;
  if (name.charCodeAt(after) !== DOT) return false;
  return after + 1 === name.length || name.charCodeAt(after + 1) === SLASH;
}

/** NO_DOTS_SLASH, `(?!\.{1,2}(?:\/|$))`. */
export const notDotSegment: PositionTest = (name, index) => !dotSegmentAt(name, index);

/** NO_DOTS, `(?!(?:^|\/)\.{1,2}(?:\/|$))`. */
export const notDotSegmentNorSlashDotSegment: PositionTest = (name, index) =>
  !(index === 0 && dotSegmentAt(name, 0)) &&
  !(name.charCodeAt(index) === SLASH && dotSegmentAt(name, index + 1));

/** NO_DOT_SLASH, `(?!\.{0,1}(?:\/|$))`: after a leading `.`, the segment is neither `.` nor `..`. */
export const notEmptyNorDotRest: PositionTest = (name, index) => {
  if (index === name.length || name.charCodeAt(index) === SLASH) return false;
  if (name.charCodeAt(index) !== DOT) return true;
  return !(index + 1 === name.length || name.charCodeAt(index + 1) === SLASH);
};

/** ONE_CHAR, `(?=.)`. */
export const oneCharAhead: PositionTest = (name, index) =>
  index < name.length && !isLineTerminator(name.charCodeAt(index));

/** `[^/]`: what `?` and each step of `*` consume. */
export const notSlash: UnitTest = (name, index) => name.charCodeAt(index) !== SLASH;

export const unit = (test: UnitTest): NameNode => ({ kind: 'Unit', test });
export const assert = (test: PositionTest): NameNode => ({ kind: 'Assert', test });
export const seq = (...items: NameNode[]): NameNode => ({ kind: 'Seq', items });
export const alt = (...options: NameNode[]): NameNode => ({ kind: 'Alt', options });
export const optional = (body: NameNode): NameNode => alt(body, seq());

export const literal = (text: string): NameNode =>
  seq(
    ...Array.from({ length: text.length }, (_, i) => {
      const code = text.charCodeAt(i);
      return unit((name, index) => name.charCodeAt(index) === code);
    }),
  );

/** `[^/]*?` */
export const STAR: NameNode = { kind: 'Repeat', body: unit(notSlash), min: 0 };

/** picomatch's globstar body, `(?:(?!(?:^|\/)\.{1,2}(?:\/|$)).)*?`. */
export const GLOBSTAR: NameNode = {
  kind: 'Repeat',
  body: unit(
    (name, index) =>
      !isLineTerminator(name.charCodeAt(index)) && notDotSegmentNorSlashDotSegment(name, index),
  ),
  min: 0,
};

/** `\/?`, which picomatch appends after a trailing star or bracket. */
export const MAYBE_SLASH: NameNode = optional(literal('/'));
