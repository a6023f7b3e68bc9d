/** Test helpers that read a model stream the way callers do. */
import { inspect } from 'node:util';
import { type ModelChunk, type ModelStream } from '@helios/core';

export async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

/** The error a stream fails with (the test fails if it ends normally). */
export async function failureOf(stream: ModelStream): Promise<Error> {
  try {
    await collect(stream);
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected the stream to fail, but it ended normally');
}

/** Everything an error shows a log: message, stack, inspect output (causes included). */
export function everythingShown(value: unknown): string {
  if (!(value instanceof Error)) return inspect(value, { depth: 10 });
  return `${value.message}\n${value.stack ?? ''}\n${inspect(value, { depth: 10 })}`;
}
