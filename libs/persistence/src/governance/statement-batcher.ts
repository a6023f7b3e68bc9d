/**
 * Group commit for one kind of statement: calls made while the previous batch is in flight (or in the
 * same turn of the event loop) are sent together as ONE statement, so N concurrent requests cost one
 * round trip and one commit instead of N. Each caller still gets its own answer, and only after the
 * statement that carries its item has completed (for writes: committed, hence durable).
 *
 * If a batch fails, each of its items is retried alone, so one bad item (or a deadlock between two
 * processes' batches) cannot fail its neighbours: they get exactly what they would have got unbatched.
 */
export interface StatementBatcherOptions<I> {
  /** Most items per statement (bounds the parameter arrays). */
  readonly maxBatch: number;
  /** Batches of this kind running at once; 1 makes every batch wait for the previous one. */
  readonly maxInFlight: number;
  /**
   * Items with the same key never share a batch (a statement may not touch one row twice); a
   * duplicate waits for the next batch. Omit when items cannot collide.
   */
  readonly keyOf?: (item: I) => string;
}

interface Waiting<I, O> {
  readonly item: I;
  readonly resolve: (value: O) => void;
  readonly reject: (error: unknown) => void;
}

export class StatementBatcher<I, O> {
  private queue: Waiting<I, O>[] = [];
  private inFlight = 0;
  private scheduled = false;

  /** `execute` answers every item, in order, from one statement. */
  constructor(
    private readonly execute: (items: readonly I[]) => Promise<readonly O[]>,
    private readonly options: StatementBatcherOptions<I>,
  ) {}

  submit(item: I): Promise<O> {
    return new Promise<O>((resolve, reject) => {
      this.queue.push({ item, resolve, reject });
      this.schedule();
    });
  }

  private schedule(): void {
    if (this.scheduled || this.inFlight >= this.options.maxInFlight || this.queue.length === 0) return;
    this.scheduled = true;
    // setImmediate, not a microtask: requests whose bytes arrived in the same poll phase join this batch.
    setImmediate(() => {
      this.scheduled = false;
      this.flush();
    });
  }

  private flush(): void {
    while (this.inFlight < this.options.maxInFlight && this.queue.length > 0) {
      const batch = this.take();
      this.inFlight += 1;
      void this.run(batch).finally(() => {
        this.inFlight -= 1;
        this.schedule();
      });
    }
  }

  private take(): Waiting<I, O>[] {
    const { keyOf, maxBatch } = this.options;
    if (keyOf === undefined) return this.queue.splice(0, maxBatch);
    const batch: Waiting<I, O>[] = [];
    const later: Waiting<I, O>[] = [];
    const keys = new Set<string>();
    for (const waiting of this.queue) {
      const key = keyOf(waiting.item);
      if (batch.length >= maxBatch || keys.has(key)) later.push(waiting);
      else {
        keys.add(key);
        batch.push(waiting);
      }
    }
    this.queue = later;
    return batch;
  }

  private async run(batch: readonly Waiting<I, O>[]): Promise<void> {
    try {
      const answers = await this.execute(batch.map((waiting) => waiting.item));
      batch.forEach((waiting, i) => waiting.resolve(answers[i] as O));
    } catch (error) {
      if (batch.length === 1) {
        batch[0]?.reject(error);
        return;
      }
      await Promise.all(
        batch.map((waiting) =>
          this.execute([waiting.item]).then(
            (answers) => waiting.resolve(answers[0] as O),
            (alone: unknown) => waiting.reject(alone),
          ),
        ),
      );
    }
  }
}
