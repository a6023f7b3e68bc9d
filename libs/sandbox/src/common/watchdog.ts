/**
 * A deadline with one timer for its whole life: each `arm` moves the deadline and re-uses the timer
 * (`refresh`) instead of creating and clearing one per use, which a warm execute would otherwise pay
 * for every time. A firing with nothing due is a no-op; a firing before the deadline (the timer last
 * ran for a shorter span) sets it for what is left. The timer never keeps the process alive.
 */
export class Watchdog {
  readonly #onDue: () => void;
  #timer: NodeJS.Timeout | undefined;
  #span = -1;
  #due = Number.POSITIVE_INFINITY;

  constructor(onDue: () => void) {
    this.#onDue = onDue;
  }

  /** Calls `onDue` `ms` from now, unless disarmed or armed again before. */
  arm(ms: number): void {
    this.#due = Date.now() + ms;
    if (this.#timer !== undefined && this.#span === ms) {
      this.#timer.refresh();
      return;
    }
    this.#start(ms);
  }

  disarm(): void {
    this.#due = Number.POSITIVE_INFINITY;
  }

  /** Disarms and lets the timer go. */
  close(): void {
    this.disarm();
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #start(ms: number): void {
    clearTimeout(this.#timer);
    this.#span = ms;
    this.#timer = setTimeout(this.#fire, ms).unref();
  }

  readonly #fire = (): void => {
    if (this.#due === Number.POSITIVE_INFINITY) return;
    const left = this.#due - Date.now();
    if (left > 0) return this.#start(left);
    this.#due = Number.POSITIVE_INFINITY;
    this.#onDue();
  };
}
