/**
 * The stream idle ceiling of one run: one timer for all its model attempts, re-armed at each attempt's
 * start and by each chunk (a timer set and cleared per attempt was a cost of every turn). Between
 * attempts it is disarmed; a late tick then does nothing. Unref'd: the provider's own socket is what
 * keeps a process alive while a model call is in flight.
 */
import { type ModelStream } from '@helios/core';

export class IdleWatch {
  readonly #ms: number;
  #timer: ReturnType<typeof setTimeout> | undefined;
  #stream: ModelStream | undefined;
  #fired = false;

  constructor(ms: number) {
    this.#ms = ms;
  }

  get ms(): number {
    return this.#ms;
  }

  /** Whether the ceiling closed the current attempt's stream. */
  get fired(): boolean {
    return this.#fired;
  }

  /** Arms the ceiling for an attempt; `stream` is closed if no chunk comes for `ms`. */
  start(stream: ModelStream): void {
    this.#stream = stream;
    this.#fired = false;
    if (this.#timer === undefined) {
      this.#timer = setTimeout(() => this.#expire(), this.#ms);
      this.#timer.unref?.();
    } else {
      this.#timer.refresh();
    }
  }

  /** A chunk arrived: the ceiling starts again. */
  touch(): void {
    this.#timer?.refresh();
  }

  /** The attempt is over. */
  stop(): void {
    this.#stream = undefined;
  }

  /** The run is over. */
  dispose(): void {
    this.#stream = undefined;
    clearTimeout(this.#timer);
    this.#timer = undefined;
  }

  #expire(): void {
    const stream = this.#stream;
    if (!stream) return;
    this.#fired = true;
    void stream.close();
  }
}
