/**
 * Finds the JSON in a model's answer: the whole text, else a Markdown code fence's body, else the first
 * balanced `{…}` object in prose. Models wrap JSON in all three ways even when told not to.
 */
export type LenientJsonResult =
  { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

const FENCE = /```[a-zA-Z0-9_-]*[ \t]*\r?\n?([\s\S]*?)```/;

export function parseLenientJson(content: string): LenientJsonResult {
  const text = content.trim();
  if (text === '') return { ok: false, error: 'response is empty; expected a JSON value' };
  const direct = tryParse(text);
  if (direct.ok) return direct;
  const fenced = FENCE.exec(text)?.[1];
  if (fenced !== undefined) {
    const inFence = tryParse(fenced.trim());
    if (inFence.ok) return inFence;
  }
  const object = firstBalancedObject(text);
  if (object !== undefined) {
    const embedded = tryParse(object);
    if (embedded.ok) return embedded;
  }
  return { ok: false, error: `JSON syntax error: ${direct.error}` };
}

function tryParse(text: string): LenientJsonResult {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, error: (error as Error).message };
  }
}

/** The first `{…}` whose braces balance, ignoring braces inside JSON strings. */
function firstBalancedObject(text: string): string | undefined {
  const start = text.indexOf('{');
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i += 1) {
    const ch = text[i];
    if (inString) {
      if (ch === '\\') i += 1;
      else if (ch === '"') inString = false;
    } else if (ch === '"') {
      inString = true;
    } else if (ch === '{') {
      depth += 1;
    } else if (ch === '}') {
      depth -= 1;
      if (depth === 0) return text.slice(start, i + 1);
    }
  }
  return undefined;
}
