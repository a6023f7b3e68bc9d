/** Time as the service sees it; tests inject a manual clock to cross TTLs and windows deterministically. */
export interface Clock {
  /** Epoch milliseconds. */
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };
