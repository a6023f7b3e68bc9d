/**
 * Key-sorted JSON: the same value always serialises to the same text, whatever order its keys were
 * written in. Used for fingerprints, idempotency hashes and byte accounting.
 */
export function canonicalJson(value: unknown): string {
  return JSON.stringify(sortKeys(value)) ?? 'null';
}

function sortKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(sortKeys);
  if (value !== null && typeof value === 'object') {
    // No prototype: a `__proto__` key is then plain data like any other. Written into `{}` it would
    // hit the inherited setter and vanish, so two different values would serialise alike.
    const out: Record<string, unknown> = Object.create(null) as Record<string, unknown>;
    for (const key of Object.keys(value).sort()) {
      const item = (value as Record<string, unknown>)[key];
      if (item !== undefined) out[key] = sortKeys(item);
    }
    return out;
  }
  return value;
}

/** UTF-8 size of a value's JSON form; what the byte caps measure. */
export function jsonByteLength(value: unknown): number {
  return Buffer.byteLength(JSON.stringify(value) ?? 'null', 'utf8');
}

/** Printable ASCII without `"` or `\`: its JSON form is the text between two quotes. */
const PLAIN_JSON_TEXT = /^[\x20\x21\x23-\x5b\x5d-\x7e]*$/;
const IDENTITY_KEYS_BYTES = '{"toolName":,"agentId":,"session":,"origin":}'.length;

function jsonStringBytes(value: string | null): number {
  if (value === null) return 4;
  return PLAIN_JSON_TEXT.test(value) ? value.length + 2 : Buffer.byteLength(JSON.stringify(value), 'utf8');
}

/**
 * `jsonByteLength({ toolName, agentId, session, origin })` without building the object or its text:
 * a pending evaluation's identity, counted against the backlog byte cap on every /evaluate.
 */
export function identityJsonBytes(
  toolName: string,
  agentId: string | null,
  session: string | null,
  origin: string,
): number {
  return (
    IDENTITY_KEYS_BYTES +
    jsonStringBytes(toolName) +
    jsonStringBytes(agentId) +
    jsonStringBytes(session) +
    jsonStringBytes(origin)
  );
}

/**
 * `jsonByteLength(charges.map((c) => [c.key, String(c.amount)]))` without building the pairs or the
 * text: what a pending evaluation's planned charges count against the backlog byte cap.
 */
export function keyAmountJsonBytes(charges: readonly { key: string; amount: bigint }[]): number {
  // `[` and `]`, a comma between pairs; each pair `["key","amount"]`.
  let bytes = charges.length === 0 ? 2 : 1 + charges.length;
  for (const charge of charges) bytes += jsonStringBytes(charge.key) + charge.amount.toString().length + 5;
  return bytes;
}
