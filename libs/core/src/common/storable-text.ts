/**
 * PostgreSQL stores neither U+0000 (in `text` or `jsonb`) nor unpaired UTF-16 surrogates (`jsonb`
 * refuses their escapes; UTF-8 cannot encode them at all), so a request carrying either would fail at
 * the first write. Boundaries that keep what they receive replace both with U+FFFD, the replacement
 * character, before anything decides on or stores the value: what is decided, stored and audited stays
 * one and the same value, and a call is never refused for it.
 */

const REPLACEMENT = '\uFFFD';
/** U+0000, a high surrogate not followed by a low one, or a low one not preceded by a high one. */
// eslint-disable-next-line no-control-regex -- U+0000 is exactly what this must find
const UNSTORABLE = /\u0000|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/g;
/**
 * In JSON text both can only arrive escaped (`\u0000`, `\ud800`): text without such an escape parses to
 * storable strings, and the walk below is skipped. Escaped surrogate pairs (some encoders escape every
 * non-ASCII character) also take the walk, which then changes nothing.
 */
const ESCAPED_CANDIDATE = /\\u(?:0000|[dD][89a-fA-F])/;

/** False when JSON `text` certainly parses to storable strings only. */
export function jsonMayHoldUnstorableText(text: string): boolean {
  return ESCAPED_CANDIDATE.test(text);
}

/** `text` with U+0000 and unpaired surrogates replaced by U+FFFD. */
export function storableText(text: string): string {
  return text.replace(UNSTORABLE, REPLACEMENT);
}

/** A copy of a parsed JSON value whose strings, object keys included, are all storable. */
export function storableJson(value: unknown): unknown {
  if (typeof value === 'string') return storableText(value);
  if (Array.isArray(value)) return value.map(storableJson);
  if (value !== null && typeof value === 'object') {
    // fromEntries defines own properties: a "__proto__" key stays data, as JSON.parse made it.
    return Object.fromEntries(
      Object.entries(value).map(([key, inner]) => [storableText(key), storableJson(inner)]),
    );
  }
  return value;
}
