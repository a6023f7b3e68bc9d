/** Tool and package name globs (picomatch, `dot: true` so `*` also matches names with leading dots). */
import picomatch from 'picomatch';

export type NameMatcher = (name: string) => boolean;

/** Compiles a glob, or returns the reason it cannot be used. */
export function compileGlob(pattern: string): NameMatcher | string {
  if (pattern.length === 0) return 'glob must not be empty';
  try {
    const regex = picomatch.makeRe(pattern, { dot: true });
    return (name) => regex.test(name);
  } catch (error) {
    return `invalid glob: ${(error as Error).message}`;
  }
}
