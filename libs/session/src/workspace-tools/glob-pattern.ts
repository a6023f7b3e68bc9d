/**
 * Globs for Glob's `pattern` and Grep's `include`, matched with picomatch (`*`, `**`, `?`, `[…]`,
 * `{a,b}`; a leading globstar segment also matches root-level names). A compiled glob is a regular
 * expression that backtracks: `*a*a*a*a*b` against a long name could block the event loop, so a pattern
 * may have at most MAX_STARS_PER_SEGMENT stars in one path segment and at most MAX_GLOBSTARS `**`
 * segments; a longer or busier one is refused with a message the model can act on.
 */
import picomatch from 'picomatch';

export const MAX_GLOB_LENGTH = 1_000;
export const MAX_STARS_PER_SEGMENT = 3;
export const MAX_GLOBSTARS = 3;

export type GlobMatcher = (path: string) => boolean;

/** A matcher for `pattern`, or the reason it is refused. */
export function compileGlob(pattern: string): GlobMatcher | string {
  if (pattern.trim() === '') return 'the glob must not be empty';
  if (pattern.length > MAX_GLOB_LENGTH) return `the glob is longer than ${MAX_GLOB_LENGTH} characters`;
  if (pattern.startsWith('/')) return 'the glob must be relative to the search path';
  const segments = pattern.split('/');
  if (segments.filter((s) => s === '**').length > MAX_GLOBSTARS) {
    return `the glob has more than ${MAX_GLOBSTARS} "**" segments`;
  }
  if (segments.some((s) => s !== '**' && countStars(s) > MAX_STARS_PER_SEGMENT)) {
    return `a segment of the glob has more than ${MAX_STARS_PER_SEGMENT} "*" wildcards`;
  }
  return picomatch(pattern);
}

function countStars(segment: string): number {
  let stars = 0;
  for (const char of segment) if (char === '*') stars += 1;
  return stars;
}
