/**
 * `duration_ms` of an /audit as the record keeps it. The reference accepts any number there, and a
 * refusal would lose the record of a call that already ran, so nothing is refused: a value that is no
 * duration (negative, non-finite, not a number — the last two reach us only in-process) is recorded as
 * null, and a note in the record's evidence chain says what arrived.
 */
export interface RecordedDuration {
  readonly ms: number | null;
  readonly note?: string;
}

const NONE: RecordedDuration = Object.freeze({ ms: null });

export function recordedDuration(value: unknown): RecordedDuration {
  if (value === undefined || value === null) return NONE;
  if (typeof value === 'number' && Number.isFinite(value) && value >= 0) return { ms: value };
  return { ms: null, note: `duration_ms ${describe(value)} is not a duration; recorded as null` };
}

/** The chain with the note appended to its `notes`; the chain itself when there is no note. */
export function withDurationNote(
  chain: Readonly<Record<string, unknown>> | null,
  duration: RecordedDuration,
): Readonly<Record<string, unknown>> | null {
  if (duration.note === undefined) return chain;
  const notes = Array.isArray(chain?.['notes']) ? (chain['notes'] as unknown[]) : [];
  return { ...chain, notes: [...notes, duration.note] };
}

function describe(value: unknown): string {
  if (typeof value === 'number') return String(value);
  if (typeof value === 'string') return JSON.stringify(value.length > 32 ? `${value.slice(0, 32)}…` : value);
  return `of type ${typeof value}`;
}
