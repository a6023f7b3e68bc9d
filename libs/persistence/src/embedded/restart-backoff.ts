/** The wait before the first restart of a crashed server; doubled at each failed attempt. */
export const FIRST_RESTART_DELAY_MS = 250;
/** The longest wait between two restart attempts; attempts never stop while the owner runs. */
export const MAX_RESTART_DELAY_MS = 10_000;
/**
 * A server that crashes again within this time of its restart continues the backoff instead of starting
 * over at 250 ms, so a server that dies right after every start is not restarted four times a second.
 */
export const STABLE_AFTER_MS = 30_000;

/** The wait before restart attempt `attempt` (1-based): 250 ms, 500 ms, 1 s, … capped at 10 s. */
export function restartDelayMs(attempt: number): number {
  const doublings = Math.min(Math.max(attempt - 1, 0), 16);
  return Math.min(FIRST_RESTART_DELAY_MS * 2 ** doublings, MAX_RESTART_DELAY_MS);
}
