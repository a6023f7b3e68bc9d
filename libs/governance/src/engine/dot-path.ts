/**
 * Dot-paths into tool arguments: `$.a.b` or `a.b`; `$` alone is the whole arguments object. No array
 * indexes or wildcards. Prototype-reaching segments resolve to undefined so a rule can never read (or
 * be steered by) `Object.prototype`.
 */
const FORBIDDEN_SEGMENTS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** Splits a configured path into segments; `[]` means the whole value. */
export function parseDotPath(path: string): readonly string[] {
  if (path === '$') return [];
  const body = path.startsWith('$.') ? path.slice(2) : path;
  return body.split('.');
}

export function resolveDotPath(root: unknown, segments: readonly string[]): unknown {
  let current = root;
  for (const segment of segments) {
    if (FORBIDDEN_SEGMENTS.has(segment)) return undefined;
    if (current === null || typeof current !== 'object' || Array.isArray(current)) return undefined;
    if (!Object.hasOwn(current, segment)) return undefined;
    current = (current as Record<string, unknown>)[segment];
  }
  return current;
}
