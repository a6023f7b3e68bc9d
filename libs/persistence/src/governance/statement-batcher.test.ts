import { describe, expect, it } from 'vitest';
import { StatementBatcher } from './statement-batcher.js';

/** An execute function that records each batch it is given and answers `item * 10`. */
function recorder(fail: (items: readonly number[]) => boolean = () => false) {
  const batches: number[][] = [];
  let release: (() => void) | undefined;
  let gate: Promise<void> | undefined;
  const execute = async (items: readonly number[]): Promise<number[]> => {
    batches.push([...items]);
    if (gate !== undefined) await gate;
    if (fail(items)) throw new Error(`batch ${items.join(',')} failed`);
    return items.map((item) => item * 10);
  };
  const hold = () => {
    gate = new Promise((resolve) => (release = resolve));
  };
  const open = () => {
    gate = undefined;
    release?.();
  };
  return { batches, execute, hold, open };
}

describe('StatementBatcher', () => {
  it('sends the calls of one turn as one batch and answers each caller its own result', async () => {
    const { batches, execute } = recorder();
    const batcher = new StatementBatcher(execute, { maxBatch: 100, maxInFlight: 1 });
    const answers = await Promise.all([1, 2, 3].map((item) => batcher.submit(item)));
    expect(answers).toEqual([10, 20, 30]);
    expect(batches).toEqual([[1, 2, 3]]);
  });

  it('gathers calls made while a batch is in flight into the next one', async () => {
    const { batches, execute, hold, open } = recorder();
    const batcher = new StatementBatcher(execute, { maxBatch: 100, maxInFlight: 1 });
    hold();
    const first = batcher.submit(1);
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    const later = [2, 3, 4].map((item) => batcher.submit(item));
    await new Promise((resolve) => setImmediate(resolve));
    expect(batches).toEqual([[1]]);
    open();
    expect(await Promise.all([first, ...later])).toEqual([10, 20, 30, 40]);
    expect(batches).toEqual([[1], [2, 3, 4]]);
  });

  it('caps the batch size', async () => {
    const { batches, execute } = recorder();
    const batcher = new StatementBatcher(execute, { maxBatch: 2, maxInFlight: 1 });
    await Promise.all([1, 2, 3, 4, 5].map((item) => batcher.submit(item)));
    expect(batches).toEqual([[1, 2], [3, 4], [5]]);
  });

  it('never puts two items with one key in a batch', async () => {
    const { batches, execute } = recorder();
    const batcher = new StatementBatcher(execute, {
      maxBatch: 100,
      maxInFlight: 1,
      keyOf: (item: number) => String(item % 2),
    });
    await Promise.all([1, 2, 3, 4].map((item) => batcher.submit(item)));
    expect(batches).toEqual([
      [1, 2],
      [3, 4],
    ]);
  });

  it('retries the items of a failed batch one by one: only the bad item fails', async () => {
    const { batches, execute } = recorder((items) => items.includes(2));
    const batcher = new StatementBatcher(execute, { maxBatch: 100, maxInFlight: 1 });
    const settled = await Promise.allSettled([1, 2, 3].map((item) => batcher.submit(item)));
    expect(settled.map((result) => result.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(settled[0]).toMatchObject({ value: 10 });
    expect(settled[2]).toMatchObject({ value: 30 });
    expect(batches).toEqual([[1, 2, 3], [1], [2], [3]]);
  });
});
