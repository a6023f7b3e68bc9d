/**
 * Counting semaphores for the per-category concurrency caps. A slot is released when the tool really
 * settles, not when the session stops waiting for it, so a tool that ignores cancellation keeps its slot.
 */
import { abortReason } from '@helios/core';
import { type ConcurrencyLimits } from '../limits.js';
import { type ToolCategory } from './tool-binding.js';

export class Semaphore {
  #available: number;
  readonly #waiting: (() => void)[] = [];

  constructor(permits: number) {
    this.#available = permits;
  }

  get available(): number {
    return this.#available;
  }

  /** A release function when a permit is free now, else undefined (no waiting, no signal needed). */
  tryAcquire(): (() => void) | undefined {
    if (this.#available === 0 || this.#waiting.length > 0) return undefined;
    this.#available -= 1;
    return this.#releaser();
  }

  /** Resolves with a release function; rejects with the signal's reason if it aborts first. */
  acquire(signal: AbortSignal): Promise<() => void> {
    if (signal.aborted) return Promise.reject(abortReason(signal));
    if (this.#available > 0) {
      this.#available -= 1;
      return Promise.resolve(this.#releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal.removeEventListener('abort', onAbort);
        resolve(this.#releaser());
      };
      const onAbort = (): void => {
        const index = this.#waiting.indexOf(grant);
        if (index >= 0) this.#waiting.splice(index, 1);
        reject(abortReason(signal));
      };
      signal.addEventListener('abort', onAbort, { once: true });
      this.#waiting.push(grant);
    });
  }

  #releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      const next = this.#waiting.shift();
      if (next) next();
      else this.#available += 1;
    };
  }
}

export class ToolSlots {
  readonly #general: Semaphore;
  readonly #writes: Semaphore;
  readonly #executions: Semaphore;

  constructor(limits: ConcurrencyLimits) {
    this.#general = new Semaphore(limits.maxConcurrentToolCalls);
    this.#writes = new Semaphore(limits.maxConcurrentFileWrites);
    this.#executions = new Semaphore(limits.maxConcurrentExecutions);
  }

  for(category: ToolCategory): Semaphore {
    switch (category) {
      case 'WRITE':
        return this.#writes;
      case 'EXECUTION':
        return this.#executions;
      case 'READ':
      case 'SEARCH':
      case 'CONTROL':
      case 'NETWORK':
      case 'DELEGATION':
        return this.#general;
      default: {
        const unknown: never = category;
        return unknown;
      }
    }
  }
}
