/**
 * One session in the registry: the AgentSession, its owner and agent, and what the HTTP surface reads
 * of it. Its one event reader (opened before any run) numbers every event into the retained log the
 * event streams read, and tracks the session's state from the events: running or not, the latest
 * run's result, turns and cost. A run started by `send` is also tracked through its promise, so its
 * result is known the moment it settles, before the reader gets to RunEnded.
 */
import { type AgentSession, type EventStream, type QueryEvent, type ResultMessage } from '@helios/session';
import { type Principal } from '../../auth/authentication.js';
import { RetainedEventLog, type RetentionLimits } from './event-log.js';

export type SessionStatus = 'idle' | 'running' | 'finished' | 'closed';

export type ResultOutcome =
  | { readonly kind: 'result'; readonly result: ResultMessage }
  | { readonly kind: 'failed' }
  | { readonly kind: 'timeout' };

/** Runs whose result was counted, kept for deduplication (the promise and RunEnded both report it). */
const COUNTED_RUNS = 32;

export interface SessionIdentity {
  readonly id: string;
  readonly owner: Principal;
  readonly ownerKey: string;
  readonly agent: string;
}

export class RegisteredSession {
  readonly log: RetainedEventLog;
  readonly createdAt = Date.now();
  #updatedAt = this.createdAt;
  /** When it last stopped running (or was created): the retention clock. */
  #idleSince = this.createdAt;
  #sending = 0;
  #activeRun: string | undefined;
  #lastResult: ResultMessage | undefined;
  #failed = false;
  #costMicroUsd = 0n;
  readonly #counted: string[] = [];
  readonly #listeners = new Set<() => void>();
  readonly #waiters = new Set<(outcome: ResultOutcome | undefined) => void>();
  #ended = false;

  constructor(
    readonly identity: SessionIdentity,
    readonly session: AgentSession,
    limits: RetentionLimits,
  ) {
    this.log = new RetainedEventLog(limits);
    void this.#record(session.events());
  }

  get id(): string {
    return this.identity.id;
  }

  get running(): boolean {
    return this.#sending > 0 || this.#activeRun !== undefined;
  }

  get status(): SessionStatus {
    if (this.session.closed) return 'closed';
    if (this.running) return 'running';
    return this.#lastResult ? 'finished' : 'idle';
  }

  /** Not running and has ended a run: the registry may evict it first. */
  get finished(): boolean {
    return !this.running && (this.#lastResult !== undefined || this.session.closed);
  }

  get idleSince(): number {
    return this.#idleSince;
  }

  get updatedAt(): number {
    return this.#updatedAt;
  }

  get costMicroUsd(): bigint {
    return this.#costMicroUsd;
  }

  get lastResult(): ResultMessage | undefined {
    return this.#lastResult;
  }

  /** Every event has been read and the session is closed: streams end after what they still owe. */
  get ended(): boolean {
    return this.#ended;
  }

  /**
   * Steers the run in progress or starts one. Rejects at once with the session's refusal (closed,
   * steering queue full, blank message); otherwise resolves when the message is accepted.
   */
  async send(text: string): Promise<void> {
    const run = this.session.send(text);
    const refusal = await immediateRejection(run);
    if (refusal) throw refusal.error;
    this.#sending += 1;
    this.#touch();
    void run.then(
      (result) => {
        this.#sending -= 1;
        this.#noteResult(result);
      },
      () => {
        this.#sending -= 1;
        this.#noteFailure();
      },
    );
  }

  /**
   * The latest run's result: now if none is running, else the next to end; `timeout` when none came in
   * time; undefined when `signal` aborted (the caller's identity was lost).
   */
  awaitResult(timeoutMs: number, signal: AbortSignal): Promise<ResultOutcome | undefined> {
    if (this.#failed) return Promise.resolve({ kind: 'failed' });
    if (!this.running && this.#lastResult)
      return Promise.resolve({ kind: 'result', result: this.#lastResult });
    if (this.session.closed || this.#ended) return Promise.resolve({ kind: 'timeout' });
    return new Promise((resolve) => {
      const finish = (outcome: ResultOutcome | undefined) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', abort);
        this.#waiters.delete(finish);
        resolve(outcome);
      };
      const abort = () => finish(undefined);
      const timer = setTimeout(() => finish({ kind: 'timeout' }), timeoutMs);
      signal.addEventListener('abort', abort, { once: true });
      this.#waiters.add(finish);
    });
  }

  /**
   * Calls `listener` (synchronously, from the reader) after each batch of new events is retained, and
   * once when the session has ended.
   */
  subscribe(listener: () => void): () => void {
    this.#listeners.add(listener);
    return () => this.#listeners.delete(listener);
  }

  async #record(stream: EventStream): Promise<void> {
    try {
      for await (const event of stream) {
        this.log.append(event);
        this.#observe(event);
        // Once per batch (nothing more buffered): readers write a burst of events in one go.
        if (stream.buffered === 0) for (const listener of this.#listeners) listener();
      }
    } finally {
      this.#ended = true;
      for (const listener of [...this.#listeners]) listener();
      // Closed with no further run ending: nothing more will come.
      for (const waiter of [...this.#waiters]) waiter({ kind: 'timeout' });
    }
  }

  #observe(event: QueryEvent): void {
    this.#touch();
    switch (event.type) {
      case 'RunStarted':
        if (!this.#counted.includes(event.runId)) this.#activeRun = event.runId;
        break;
      case 'RunEnded':
        this.#noteResult(event.result);
        break;
      case 'Error':
        this.#noteFailure();
        break;
      default:
        break;
    }
  }

  #noteResult(result: ResultMessage): void {
    if (this.#activeRun === result.runId) this.#activeRun = undefined;
    if (this.#counted.includes(result.runId)) return;
    this.#counted.push(result.runId);
    if (this.#counted.length > COUNTED_RUNS) this.#counted.shift();
    this.#lastResult = result;
    this.#costMicroUsd += result.cost.microUsd;
    this.#idleSince = Date.now();
    this.#touch();
    for (const waiter of [...this.#waiters]) waiter({ kind: 'result', result });
  }

  /** A run rejected: a programming error ended the session (it closes itself). */
  #noteFailure(): void {
    this.#failed = true;
    this.#activeRun = undefined;
    this.#idleSince = Date.now();
    for (const waiter of [...this.#waiters]) waiter({ kind: 'failed' });
  }

  #touch(): void {
    this.#updatedAt = Date.now();
  }
}

/**
 * Whether `promise` is already rejected, told within one microtask: `send` refuses (closed, queue full,
 * blank) with an already-rejected promise, while an accepted run settles only when it ends. A rejected
 * promise's reaction is queued when it is attached, before the await's continuation.
 */
async function immediateRejection(promise: Promise<unknown>): Promise<{ error: unknown } | undefined> {
  let rejection: { error: unknown } | undefined;
  let checked = false;
  promise.catch((error: unknown) => {
    if (!checked) rejection = { error };
  });
  await Promise.resolve();
  checked = true;
  return rejection;
}
