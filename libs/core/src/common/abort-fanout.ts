/**
 * One 'abort' listener per signal, shared by every waiter on it. Adding and removing an EventTarget
 * listener allocates and costs more than a small tool call, and a session registers one per model
 * stream and per tool call; here a waiter is a slot in an array, removed by swapping with the last.
 */

/** Called once when the signal aborts, with its reason. */
export type AbortWaiter = (reason: unknown) => void;

/** A waiter's registration; `cancel` is idempotent. */
export interface AbortSubscription {
  cancel(): void;
}

class Fanout {
  readonly waiters: Slot[] = [];

  constructor(signal: AbortSignal) {
    signal.addEventListener(
      'abort',
      () => {
        const waiters = this.waiters.splice(0);
        for (const slot of waiters) {
          slot.index = -1;
          slot.waiter(signal.reason);
        }
      },
      { once: true },
    );
  }
}

class Slot implements AbortSubscription {
  constructor(
    readonly fanout: Fanout,
    readonly waiter: AbortWaiter,
    public index: number,
  ) {}

  cancel(): void {
    if (this.index < 0) return;
    const waiters = this.fanout.waiters;
    const last = waiters.pop() as Slot;
    if (last !== this) {
      waiters[this.index] = last;
      last.index = this.index;
    }
    this.index = -1;
  }
}

const fanouts = new WeakMap<AbortSignal, Fanout>();

/** Tells `waiter` when `signal` aborts (not if it already has: check `signal.aborted` first). */
export function listenForAbort(signal: AbortSignal, waiter: AbortWaiter): AbortSubscription {
  let fanout = fanouts.get(signal);
  if (!fanout) {
    fanout = new Fanout(signal);
    fanouts.set(signal, fanout);
  }
  const slot = new Slot(fanout, waiter, fanout.waiters.length);
  fanout.waiters.push(slot);
  return slot;
}
