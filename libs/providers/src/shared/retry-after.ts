/** How long a provider asked us to wait, from `retry-after-ms` or `retry-after` (seconds or a date). */

const MAX_WAIT_MS = 24 * 60 * 60 * 1000;

export function retryAfterMs(headers: Headers, now: () => number = Date.now): number | undefined {
  const millis = headers.get('retry-after-ms');
  if (millis !== null) {
    const value = Number(millis);
    if (Number.isFinite(value) && value >= 0) return bounded(value);
  }
  const header = headers.get('retry-after');
  if (header === null || header.trim() === '') return undefined;
  const seconds = Number(header);
  if (Number.isFinite(seconds)) return seconds >= 0 ? bounded(seconds * 1000) : undefined;
  const date = Date.parse(header);
  return Number.isNaN(date) ? undefined : bounded(Math.max(0, date - now()));
}

function bounded(ms: number): number {
  return Math.min(Math.round(ms), MAX_WAIT_MS);
}
