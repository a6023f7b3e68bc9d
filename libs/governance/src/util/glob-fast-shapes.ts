/**
 * picomatch answers a few common globs that start with `.` or `*` from fixed templates instead of its
 * parser, with slightly different dot-segment guards; these reproduce the templates (`dot: true`).
 */
import {
  GLOBSTAR,
  MAYBE_SLASH,
  STAR,
  assert,
  literal,
  notDotSegment,
  notDotSegmentNorSlashDotSegment,
  oneCharAhead,
  optional,
  seq,
} from './glob-assertions.js';
import { type NameNode } from './name-automaton.js';

const NO_DOTS = assert(notDotSegmentNorSlashDotSegment);
const NO_DOTS_SLASH = assert(notDotSegment);
const ONE_CHAR = assert(oneCharAhead);
const DOT = literal('.');
const ANY_PARENTS = optional(seq(NO_DOTS, GLOBSTAR, literal('/')));

/** The template's tree (with its trailing optional slash), or undefined when the glob has none. */
export function fastShape(pattern: string): NameNode | undefined {
  const text = pattern.startsWith('./') ? pattern.slice(2) : pattern;
  const shape = create(REPLACEMENTS.get(text) ?? text);
  return shape === undefined ? undefined : seq(shape, MAYBE_SLASH);
}

const REPLACEMENTS = new Map([
  ['***', '*'],
  ['**/**', '**'],
  ['**/**/**', '**'],
]);

function create(text: string): NameNode | undefined {
  switch (text) {
    case '*':
      return seq(NO_DOTS, ONE_CHAR, STAR);
    case '.*':
      return seq(DOT, ONE_CHAR, STAR);
    case '*.*':
      return seq(NO_DOTS, STAR, DOT, ONE_CHAR, STAR);
    case '*/*':
      return seq(NO_DOTS, STAR, literal('/'), ONE_CHAR, NO_DOTS_SLASH, STAR);
    case '**':
      return seq(NO_DOTS, GLOBSTAR);
    case '**/*':
      return seq(ANY_PARENTS, NO_DOTS_SLASH, ONE_CHAR, STAR);
    case '**/*.*':
      return seq(ANY_PARENTS, NO_DOTS_SLASH, STAR, DOT, ONE_CHAR, STAR);
    case '**/.*':
      return seq(ANY_PARENTS, DOT, ONE_CHAR, STAR);
    default: {
      // `<shape>.<extension>`, e.g. `*.js`, `**/*.d.ts`.
      const match = /^(.*?)\.(\w+)$/.exec(text);
      if (match === null) return undefined;
      const head = create(match[1] as string);
      return head === undefined ? undefined : seq(head, DOT, literal(match[2] as string));
    }
  }
}
