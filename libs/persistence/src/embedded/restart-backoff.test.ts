import { describe, expect, it } from 'vitest';
import { MAX_RESTART_DELAY_MS, restartDelayMs } from './restart-backoff.js';

describe('restartDelayMs', () => {
  it('starts at 250 ms and doubles', () => {
    expect([1, 2, 3, 4, 5, 6].map(restartDelayMs)).toEqual([250, 500, 1_000, 2_000, 4_000, 8_000]);
  });

  it('stays at the 10 s cap, however many attempts', () => {
    expect(restartDelayMs(7)).toBe(MAX_RESTART_DELAY_MS);
    expect(restartDelayMs(1_000_000)).toBe(MAX_RESTART_DELAY_MS);
  });
});
