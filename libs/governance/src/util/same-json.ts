/**
 * Whether two JSON values would serialise to the same text (same keys in the same order, same
 * values), without serialising either: the check a tool definition sent again unchanged costs on
 * every /evaluate. Anything JSON cannot hold plainly (undefined, functions, non-plain objects) is
 * left to a text comparison.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const plain = plainEqual(a, b);
  return plain === 'unknown' ? JSON.stringify(a) === JSON.stringify(b) : plain;
}

type Kind = 'plain' | 'array' | 'object' | 'other';

/** Plain: what JSON writes as itself (finite numbers, strings, booleans, null); other: everything it rewrites. */
function kindOf(value: unknown): Kind {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return 'plain';
  if (typeof value === 'number') return Number.isFinite(value) ? 'plain' : 'other';
  if (typeof value !== 'object') return 'other';
  if (typeof (value as { toJSON?: unknown }).toJSON === 'function') return 'other';
  if (Array.isArray(value)) return 'array';
  return Object.getPrototypeOf(value) === Object.prototype ? 'object' : 'other';
}

function plainEqual(a: unknown, b: unknown): boolean | 'unknown' {
  const kind = kindOf(a);
  const otherKind = kindOf(b);
  if (kind === 'other' || otherKind === 'other') return 'unknown';
  if (kind !== otherKind) return false;
  if (kind === 'plain') return a === b;
  if (kind === 'array') {
    const left = a as unknown[];
    const right = b as unknown[];
    if (left.length !== right.length) return false;
    for (let i = 0; i < left.length; i += 1) {
      const item = plainEqual(left[i], right[i]);
      if (item !== true) return item;
    }
    return true;
  }
  const keysA = Object.keys(a as object);
  const keysB = Object.keys(b as object);
  if (keysA.length !== keysB.length) return 'unknown'; // an undefined member is dropped by JSON
  for (let i = 0; i < keysA.length; i += 1) {
    const key = keysA[i] as string;
    if (key !== keysB[i]) return 'unknown';
    const item = plainEqual((a as Record<string, unknown>)[key], (b as Record<string, unknown>)[key]);
    if (item !== true) return item;
  }
  return true;
}
