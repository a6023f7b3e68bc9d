/** How the local limit authority (limit-authority.ts) is tuned; every field has a default. */
export interface LimitAuthorityOptions {
  /** A bucket handed back on request stays shared this long (default 30 s). */
  readonly cooldownMs?: number;
  /** Retirement of charge rows and release of empty buckets (default 1 s). */
  readonly sweepIntervalMs?: number;
  /** How often buckets of owners that died are looked for and taken over (default 10 s; also at start). */
  readonly recoveryIntervalMs?: number;
  /** How often the charge journal becomes runs (default 30 s; row-retirement.ts says what it trades). */
  readonly journalCompactionMs?: number;
  /** Charge entries (milliseconds with charges) one owned bucket may keep in memory (default 1,000,000). */
  readonly maxChargeEntries?: number;
  /** The service's clock, for work no call drives (recovery at start); default the system clock. */
  readonly clock?: { now(): number };
  /** After the lease was lost, the first attempt to rejoin waits this long, doubling to 30 s (default 250 ms). */
  readonly rejoinDelayMs?: number;
  readonly log?: { warn(message: string): void; error(message: string, error?: unknown): void };
}
