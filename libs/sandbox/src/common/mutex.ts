/**
 * One at a time, in arrival order: a promise-chain lock. A caller that gives up while waiting (its
 * signal fired) leaves the queue without ever holding the lock.
 */
export class Mutex {
  #tail: Promise<void> = Promise.resolve();

  /** Runs `work` once every earlier caller's work has finished; rejects with the signal's reason if it fires first. */
  async run<T>(work: () => Promise<T>, signal?: AbortSignal): Promise<T> {
    const previous = this.#tail;
    let release!: () => void;
    this.#tail = new Promise((resolve) => (release = resolve));
    try {
      await waitUnlessAborted(previous, signal);
      return await work();
    } finally {
      // Hand over only after the previous holder is done, even if this caller gave up early.
      void previous.then(release);
    }
  }
}

function waitUnlessAborted(previous: Promise<void>, signal: AbortSignal | undefined): Promise<void> {
  if (signal === undefined) return previous;
  signal.throwIfAborted();
  return new Promise((resolve, reject) => {
    const onAbort = (): void => reject(signal.reason);
    signal.addEventListener('abort', onAbort, { once: true });
    void previous.then(() => {
      signal.removeEventListener('abort', onAbort);
      resolve();
    });
  });
}
