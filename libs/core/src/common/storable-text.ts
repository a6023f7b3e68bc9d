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
  return holdsUnstorable(value) ? (storableCopy(value) as T) : value;
}

function holdsUnstorable(value: unknown): boolean {
  if (typeof value === 'string') return CANDIDATE.test(value) && storableText(value) !== value;
  if (typeof value !== 'object' || value === null) return false;
  if (Array.isArray(value)) return value.some(holdsUnstorable);
  // for…in rather than Object.keys: no array per object on the hot path. Parsed JSON has no inherited
  // enumerable keys; the hasOwn check keeps it so for objects built elsewhere.
  for (const key in value) {
    if (!Object.hasOwn(value, key)) continue;
    if (holdsUnstorable(key) || holdsUnstorable((value as Record<string, unknown>)[key])) return true;
  }
  return false;
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
