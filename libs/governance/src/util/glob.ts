/**
 * Tool and package name globs, with picomatch's meaning (`dot: true`: `*` also matches names with
 * leading dots). A model-chosen tool name meets these on every call, and picomatch's backtracking
 * RegExps ran for minutes on `*_*_*_*_*_*!` against a long name: a glob with two or more unbounded
 * repetitions is matched by a linear automaton instead. One with at most one (`send_*`, `*`, an exact
 * name: nearly every policy's) keeps picomatch's own RegExp, which cannot backtrack more than linearly
 * with a single repetition and is ten times faster than the automaton on the hot path.
 */
import picomatch from 'picomatch';
import { isLineTerminator } from './glob-assertions.js';
import { fastShape } from './glob-fast-shapes.js';
import { GlobSyntaxError, parseGlob } from './glob-syntax.js';
import { compileNameAutomaton, type NameNode } from './name-automaton.js';

export type NameMatcher = (name: string) => boolean;

/** picomatch's own ceiling on a glob's length. */
export const MAX_GLOB_LENGTH = 65_536;

/** Compiles a glob, or returns the reason it cannot be used. */
export function compileGlob(pattern: string): NameMatcher | string {
  if (pattern.length === 0) return 'glob must not be empty';
  if (pattern.length > MAX_GLOB_LENGTH)
    return `invalid glob: ${pattern.length} characters exceed the maximum of ${MAX_GLOB_LENGTH}`;
  try {
    const shape = pattern[0] === '.' || pattern[0] === '*' ? fastShape(pattern) : undefined;
    const parsed = shape === undefined ? parseGlob(pattern) : { root: shape, negated: false };
    if (!parsed.negated && unboundedRepetitions(parsed.root) <= 1) {
      const regex = picomatch.makeRe(pattern, { dot: true });
      return (name) => regex.test(name);
    }
    const matches = compileNameAutomaton(parsed.root);
    if (!parsed.negated) return matches;
    // picomatch negates with `^(?!…).*$`, whose `.` refuses line breaks.
    return (name) => !matches(name) && !hasLineTerminator(name);
  } catch (error) {
    if (error instanceof GlobSyntaxError) return `invalid glob ${JSON.stringify(pattern)}: ${error.message}`;
    throw error;
  }
}

function hasLineTerminator(name: string): boolean {
  for (let i = 0; i < name.length; i += 1) if (isLineTerminator(name.charCodeAt(i))) return true;
  return false;
}

/** How many `repeat` nodes the glob has: each is a place a backtracking matcher can retry. */
function unboundedRepetitions(node: NameNode): number {
  switch (node.kind) {
    case 'Unit':
    case 'Assert':
      return 0;
    case 'Seq':
      return node.items.reduce((sum, item) => sum + unboundedRepetitions(item), 0);
    case 'Alt':
      return node.options.reduce((sum, option) => sum + unboundedRepetitions(option), 0);
    case 'Repeat':
      return 1 + unboundedRepetitions(node.body);
  }
}
