import { describe, expect, it, vi } from 'vitest';
import { type ModelChunk } from './model-chunk.js';
import { type ChunkSourceContext, createModelStream } from './model-stream.js';
import { Usage } from './usage.js';

const stop: ModelChunk = { type: 'MessageStop', finishReason: 'STOP', usage: Usage.ZERO, metadata: {} };

/** A source that records its signal and waits for it between chunks when told to. */
function source(chunks: ModelChunk[], options: { hangAfter?: number; ignoreAbort?: boolean } = {}) {
  const seen: { signal?: AbortSignal; opened: number; finalized: boolean } = { opened: 0, finalized: false };
  const open = vi.fn(async function* ({ signal }: ChunkSourceContext) {
    seen.signal = signal;
    seen.opened += 1;
    try {
      for (const [index, chunk] of chunks.entries()) {
        if (index === options.hangAfter) {
          await new Promise<void>((resolve) => {
            if (!options.ignoreAbort) signal.addEventListener('abort', () => resolve());
          });
          signal.throwIfAborted();
        }
        yield chunk;
      }
    } finally {
      seen.finalized = true;
    }
  });
  return { open, seen };
}

describe('ModelStream', () => {
  it('sends nothing before the first pull', async () => {
    const { open } = source([{ type: 'TextDelta', text: 'hi' }, stop]);
    const stream = createModelStream(open);
    expect(open).not.toHaveBeenCalled();
    expect(stream.started).toBe(false);
    const chunks: ModelChunk[] = [];
    for await (const chunk of stream) chunks.push(chunk);
    expect(open).toHaveBeenCalledTimes(1);
    expect(chunks.map((c) => c.type)).toEqual(['TextDelta', 'MessageStop']);
    expect(stream.finished).toBe(true);
    expect(await stream.next()).toEqual({ done: true, value: undefined });
  });

  it('closed before the first pull never opens the request', async () => {
    const { open } = source([stop]);
    const stream = createModelStream(open);
    await stream.close();
    await stream.close();
    expect(await stream.next()).toMatchObject({ done: true });
    expect(open).not.toHaveBeenCalled();
  });

  it('aborted by the caller before the first pull throws the reason and never opens', async () => {
    const { open } = source([stop]);
    const controller = new AbortController();
    const stream = createModelStream(open, controller.signal);
    controller.abort(new Error('user cancelled'));
    await expect(stream.next()).rejects.toThrow('user cancelled');
    expect(open).not.toHaveBeenCalled();
    expect(await stream.next()).toMatchObject({ done: true });
  });

  it('return() after the first chunk aborts the request and finalizes the source', async () => {
    const { open, seen } = source([{ type: 'TextDelta', text: 'a' }, { type: 'TextDelta', text: 'b' }, stop]);
    const stream = createModelStream(open);
    for await (const chunk of stream) {
      expect(chunk.type).toBe('TextDelta');
      break;
    }
    expect(seen.signal?.aborted).toBe(true);
    expect(seen.finalized).toBe(true);
  });

  it('close() during a pending pull ends the iteration even if the source ignores its signal', async () => {
    const { open, seen } = source([{ type: 'TextDelta', text: 'a' }, stop], {
      hangAfter: 1,
      ignoreAbort: true,
    });
    const stream = createModelStream(open);
    await stream.next();
    const pending = stream.next();
    await stream.close();
    expect(await pending).toMatchObject({ done: true });
    expect(seen.signal?.aborted).toBe(true);
  });

  it("the caller's abort mid-stream rejects the pending pull with its reason", async () => {
    const { open, seen } = source([{ type: 'TextDelta', text: 'a' }, stop], {
      hangAfter: 1,
      ignoreAbort: true,
    });
    const controller = new AbortController();
    const stream = createModelStream(open, controller.signal);
    await stream.next();
    const pending = stream.next();
    controller.abort();
    await expect(pending).rejects.toMatchObject({ name: 'AbortError' });
    expect(seen.signal?.aborted).toBe(true);
    expect(stream.finished).toBe(true);
  });

  it('a failed turn throws from the iteration, once', async () => {
    const failing = createModelStream(async function* () {
      yield { type: 'TextDelta', text: 'partial' } as ModelChunk;
      throw new Error('HTTP 529 overloaded');
    });
    await failing.next();
    await expect(failing.next()).rejects.toThrow('HTTP 529 overloaded');
    expect(await failing.next()).toMatchObject({ done: true });
  });

  it('reports its end once and detaches from the caller signal', async () => {
    const onFinish = vi.fn();
    const controller = new AbortController();
    const { open } = source([stop]);
    const stream = createModelStream(open, controller.signal, onFinish);
    expect(stream[Symbol.asyncIterator]()).toBe(stream);
    while (!(await stream.next()).done);
    await stream.close();
    controller.abort();
    expect(onFinish).toHaveBeenCalledTimes(1);
  });

  it('a signal first read after the stream was closed is already aborted with the close reason', async () => {
    let context: ChunkSourceContext | undefined;
    const stream = createModelStream(async function* (given: ChunkSourceContext) {
      context = given;
      yield { type: 'TextDelta', text: 'a' } as ModelChunk;
      yield stop;
    });
    await stream.next();
    await stream.close();
    expect(context?.signal.aborted).toBe(true);
    expect(context?.signal.reason).toMatchObject({ name: 'AbortError' });
    expect(context?.signal).toBe(context?.signal);
  });

  it('surfaces a cleanup error that is not a cancellation', async () => {
    const stream = createModelStream(() => ({
      [Symbol.asyncIterator]: () => ({
        next: () => Promise.resolve({ done: false as const, value: stop }),
        return: () => Promise.reject(new Error('socket close failed')),
      }),
    }));
    await stream.next();
    await expect(stream.close()).rejects.toThrow('socket close failed');
  });

  it('closes a source without a return method', async () => {
    const stream = createModelStream(() => ({
      [Symbol.asyncIterator]: () => ({ next: () => Promise.resolve({ done: false as const, value: stop }) }),
    }));
    await stream.next();
    await expect(stream.close()).resolves.toBeUndefined();
  });
});
