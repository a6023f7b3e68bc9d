import { describe, expect, it } from 'vitest';
import { Watchdog } from './watchdog.js';

const tick = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('Watchdog', () => {
  it('calls back once its span has passed, unless disarmed', async () => {
    let fired = 0;
    const watchdog = new Watchdog(() => (fired += 1));
    watchdog.arm(20);
    await tick(60);
    expect(fired).toBe(1);
    watchdog.arm(20);
    watchdog.disarm();
    await tick(60);
    expect(fired).toBe(1);
    watchdog.close();
  });

  it('re-uses its timer for the same span, and waits out a longer deadline armed after a shorter one', async () => {
    let fired = 0;
    const watchdog = new Watchdog(() => (fired += 1));
    watchdog.arm(30);
    await tick(15);
    watchdog.arm(30); // refreshed: due 30 ms from now, not from the first arm
    await tick(20);
    expect(fired).toBe(0);
    await tick(40);
    expect(fired).toBe(1);
    watchdog.arm(10);
    watchdog.arm(10);
    watchdog.close(); // gone: nothing fires
    await tick(30);
    expect(fired).toBe(1);
  });

  it('sets the timer for what is left when it fires before a deadline moved later', async () => {
    let fired = 0;
    const watchdog = new Watchdog(() => (fired += 1));
    watchdog.arm(10);
    await tick(5);
    watchdog.arm(10); // same span: refreshed
    watchdog.arm(40); // a longer span: a new timer
    await tick(20);
    expect(fired).toBe(0);
    await tick(50);
    expect(fired).toBe(1);
    watchdog.close();
  });
});
