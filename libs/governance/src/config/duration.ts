/** Durations of the policy format: a whole number followed by s, m, h or d. */
export const DURATION_PATTERN = /^(\d+)([smhd])$/;

const UNIT_MS = { s: 1_000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;

/** `"5m"` → 300000. Returns undefined for anything that is not a duration (callers report it). */
export function parseDuration(text: string): number | undefined {
  const match = DURATION_PATTERN.exec(text);
  if (!match) return undefined;
  const unit = match[2] as keyof typeof UNIT_MS;
  const ms = Number(match[1]) * UNIT_MS[unit];
  return Number.isSafeInteger(ms) ? ms : undefined;
}

/** 3600000 → `"1h"`: the largest whole unit of the same format (`"1500ms"` when none divides it). */
export function formatDuration(ms: number): string {
  for (const unit of ['d', 'h', 'm', 's'] as const) {
    if (ms % UNIT_MS[unit] === 0) return `${ms / UNIT_MS[unit]}${unit}`;
  }
  return `${ms}ms`;
}
