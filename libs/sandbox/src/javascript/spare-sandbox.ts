/**
 * One sandbox booted ahead of the session that will take it, so a session opens in about the time of
 * a warm execute instead of a child's cold start. Taking it starts the next one at once. A spare that
 * failed to boot, or died while waiting, is not handed out: the caller starts a sandbox itself.
 */
import { type Sandbox } from './sandbox.js';

export class SpareSandbox {
  readonly #start: () => Promise<Sandbox>;
  #next: Promise<Sandbox | undefined> | undefined;
  #closed = false;

  constructor(start: () => Promise<Sandbox>) {
    this.#start = start;
  }

  /** Boots a spare unless one is there or booting. */
  fill(): void {
    if (this.#closed || this.#next !== undefined) return;
    this.#next = this.#start().catch(() => undefined);
  }

  /** The spare (waiting for it if it is still booting), or undefined; starts the next. */
  async take(): Promise<Sandbox | undefined> {
    const next = this.#next;
    this.#next = undefined;
    this.fill();
    const sandbox = next === undefined ? undefined : await next;
    return sandbox?.alive === true ? sandbox : undefined;
  }

  /** Ends the spare and boots no more. */
  async close(): Promise<void> {
    this.#closed = true;
    const next = this.#next;
    this.#next = undefined;
    await (await next)?.end('the provider closed');
  }
}
