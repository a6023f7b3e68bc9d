/**
 * One at a time, in arrival order. A caller that finds the lock free takes it at once — no listener on
 * its signal, no promise to wait on: the common case of a session's executes, which come one by one. A
 * caller that has to wait queues, and leaves the queue without ever holding the lock if its signal
 * fires first. The lock passes straight from each holder to the next waiter.
 */
export class Mutex {
  #held = false;
  readonly #waiters: (() => void)[] = [];

  /** Runs `work` once every earlier caller's work has finished; rejects with the signal's reason if it fires first. */
  run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    if (signal?.aborted === true) return Promise.reject(signal.reason as Error);
    if (this.#held) return this.#wait(signal).then(() => this.#hold(work));
    this.#held = true;
    return this.#hold(work);
  }

  /** Runs `work` holding the lock, and lets go when it settles. */
  #hold<T>(work: () => Promise<T>): Promise<T> {
    let running: Promise<T>;
    try {
      running = work();
    } catch (error) {
      this.#release();
      return Promise.reject(error as Error);
    }
    return running.then(this.#passValue, this.#passError) as Promise<T>;
  }

  // Made once, not per run: a warm execute's host side is a few dozen allocations in all.
  readonly #passValue = (value: unknown): unknown => {
    this.#release();
    return value;
  };

  readonly #passError = (error: unknown): never => {
    this.#release();
    throw error;
  };

  #wait(signal: AbortSignal | undefined): Promise<void> {
    return new Promise((resolve, reject) => {
      const onAbort = (): void => {
        const at = this.#waiters.indexOf(take);
        if (at >= 0) this.#waiters.splice(at, 1);
        reject(signal?.reason);
      };
      const take = (): void => {
        signal?.removeEventListener('abort', onAbort);
        resolve();
      };
      this.#waiters.push(take);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
  }

  #release(): void {
    const next = this.#waiters.shift();
    if (next === undefined) this.#held = false;
    else next(); // the lock stays held: it is the next waiter's now
  }
}
