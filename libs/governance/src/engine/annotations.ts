/** MCP tool annotations with the protocol's defaults for hints a tool leaves out. */
export interface ToolAnnotations {
  readonly readOnlyHint: boolean;
  readonly destructiveHint: boolean;
  readonly idempotentHint: boolean;
  readonly openWorldHint: boolean;
}

/** What MCP assumes of a tool that says nothing: it may write, destroy, repeat badly and reach out. */
export const DEFAULT_ANNOTATIONS: ToolAnnotations = Object.freeze({
  readOnlyHint: false,
  destructiveHint: true,
  idempotentHint: false,
  openWorldHint: true,
});

/** Reads hints from an untrusted annotations object; non-boolean values take the default. */
export function effectiveAnnotations(raw: unknown): ToolAnnotations {
  if (raw === null || typeof raw !== 'object') return DEFAULT_ANNOTATIONS;
  const hints = raw as Record<string, unknown>;
  const pick = (key: keyof ToolAnnotations): boolean => {
    const value = Object.hasOwn(hints, key) ? hints[key] : undefined;
    return typeof value === 'boolean' ? value : DEFAULT_ANNOTATIONS[key];
  };
  return {
    readOnlyHint: pick('readOnlyHint'),
    destructiveHint: pick('destructiveHint'),
    idempotentHint: pick('idempotentHint'),
    openWorldHint: pick('openWorldHint'),
  };
}

export function annotationsMatch(wanted: Partial<ToolAnnotations>, actual: ToolAnnotations): boolean {
  for (const key of Object.keys(wanted) as (keyof ToolAnnotations)[]) {
    if (wanted[key] !== undefined && wanted[key] !== actual[key]) return false;
  }
  return true;
}
