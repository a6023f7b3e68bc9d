/**
 * PostgreSQL stores neither U+0000 (in `text` or `jsonb`) nor unpaired UTF-16 surrogates (`jsonb`
 * refuses their escapes; UTF-8 cannot encode them at all), so a request carrying either would fail at
 * the first write. Whatever keeps what it receives replaces both with U+FFFD, the replacement
 * character, before anything decides on or stores the value: what is decided, stored and audited stays
 * one and the same value, and a call is never refused for it.
 */

const REPLACEMENT = '\uFFFD';
/** U+0000, a high surrogate not followed by a low one, or a low one not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this must find
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/** Any U+0000 or surrogate, paired or not: strings without one are storable as they are. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this must find
const CANDIDATE = /[\u0000\uD800-\uDFFF]/;

/** `text` with U+0000 and unpaired surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, REPLACEMENT);
}

/**
 * A parsed JSON value whose strings, object keys included, are all storable: the value itself when they
 * already are (the common case reads each string once and copies nothing), else a cleaned copy.
 */
export function storableJson<T>(value: T): T {
  return holdsUnstorable(value, Infinity) === 'Unstorable' ? (storableCopy(value) as T) : value;
}

/**
 * {@link storableJson} for values from callers that may nest objects and arrays without bound (in-process
 * callers never went through a JSON parser's depth check): undefined when the value nests deeper than
 * `maxDepth` (the outermost value is level 1), found in the same walk, so every later recursive walk
 * (`JSON.stringify` included) stays within the stack. A cyclic value reads as too deep.
 */
export function storableJsonWithin<T>(value: T, maxDepth: number): T | undefined {
  const verdict = holdsUnstorable(value, maxDepth);
  if (verdict === 'TooDeep') return undefined;
  return verdict === 'Unstorable' ? (storableCopy(value) as T) : value;
}

type Verdict = 'Storable' | 'Unstorable' | 'TooDeep';

/** Walks everything unless the depth runs out: an unstorable string early says nothing of depth below. */
function holdsUnstorable(value: unknown, depthLeft: number): Verdict {
  if (typeof value === 'string') {
    return CANDIDATE.test(value) && storableText(value) !== value ? 'Unstorable' : 'Storable';
  }
  if (typeof value !== 'object' || value === null) return 'Storable';
  if (depthLeft < 1) return 'TooDeep';
  let verdict: Verdict = 'Storable';
  if (Array.isArray(value)) {
    for (const item of value) {
      const inner = holdsUnstorable(item, depthLeft - 1);
      if (inner === 'TooDeep') return inner;
      if (inner === 'Unstorable') verdict = inner;
    }
    return verdict;
  }
  // for…in rather than Object.keys: no array per object on the hot path. Parsed JSON has no inherited
  // enumerable keys; the hasOwn check keeps it so for objects built elsewhere.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    const inner = holdsUnstorable((value as Record<string, unknown>)[key], depthLeft - 1);
    if (inner === 'TooDeep') return inner;
    if (inner === 'Unstorable' || holdsUnstorable(key, 0) === 'Unstorable') verdict = 'Unstorable';
  }
  return verdict;
}

function storableCopy(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableCopy);
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties: a "__proto__" key stays data, as JSON.parse made it.
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [storableText(key), storableCopy(inner)]),
    );
  }
  return value;
}
