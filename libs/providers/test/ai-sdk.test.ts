/**
 * fromLanguageModel against the AI SDK's own mock language model (`ai/test`): what our request becomes
 * in the specification's call options, and how its stream parts become ModelChunks — text, reasoning,
 * tool input streamed and whole, usage, finish, errors, and abort reaching the provider's signal.
 */
import { inlineFile, Message, OutputSchema, type ToolDefinition, toolCall } from '@helios/core';
import { type LanguageModelV3StreamPart } from '@ai-sdk/provider';
import { simulateReadableStream } from 'ai';
import { MockLanguageModelV3 } from 'ai/test';
import { describe, expect, it } from 'vitest';
import { fromLanguageModel } from '../src/index.js';
import { ProviderRejectedError, ProviderTransientError } from '../src/shared/provider-errors.js';

const usage = {
  inputTokens: { total: 120, noCache: 20, cacheRead: 100, cacheWrite: 0 },
  outputTokens: { total: 9, text: 9, reasoning: undefined },
};
const finish = (unified: 'stop' | 'tool-calls'): LanguageModelV3StreamPart => ({
  type: 'finish',
  usage,
  finishReason: { unified, raw: unified },
});

function mockStreaming(parts: LanguageModelV3StreamPart[]): MockLanguageModelV3 {
  return new MockLanguageModelV3({
    provider: 'mock.chat',
    modelId: 'mock-1',
    doStream: async () => ({ stream: simulateReadableStream({ chunks: parts }) }),
  });
}

const grep: ToolDefinition = {
  name: 'Grep',
  description: 'search files',
  inputSchema: { type: 'object', properties: { pattern: { type: 'string' } }, required: ['pattern'] },
};

describe('fromLanguageModel (AI SDK V3 language models)', () => {
  it('streams text and reasoning and reports usage and the finish reason', async () => {
    const model = fromLanguageModel(
      mockStreaming([
        { type: 'stream-start', warnings: [] },
        { type: 'reasoning-start', id: 'r' },
        { type: 'reasoning-delta', id: 'r', delta: 'think' },
        { type: 'reasoning-end', id: 'r' },
        { type: 'text-start', id: 't' },
        { type: 'text-delta', id: 't', delta: 'Paris' },
        { type: 'text-delta', id: 't', delta: ' is the capital.' },
        { type: 'text-end', id: 't' },
        finish('stop'),
      ]),
    );
    const response = await model.chat([Message.user('capital of France?')]);
    expect(model.provider).toBe('mock.chat');
    expect(model.id).toBe('mock-1');
    expect(response.content).toBe('Paris is the capital.');
    expect(response.thinking).toBe('think');
    expect(response.finishReason).toBe('STOP');
    expect(response.usage).toMatchObject({ inputTokens: 20, outputTokens: 9, cacheReadTokens: 100 });
  });

  it('turns streamed tool input into one tool call, and a whole tool-call part too', async () => {
    const model = fromLanguageModel(
      mockStreaming([
        { type: 'tool-input-start', id: 'call_1', toolName: 'Grep' },
        { type: 'tool-input-delta', id: 'call_1', delta: '{"pattern":' },
        { type: 'tool-input-delta', id: 'call_1', delta: '"TODO"}' },
        { type: 'tool-input-end', id: 'call_1' },
        { type: 'tool-call', toolCallId: 'call_1', toolName: 'Grep', input: '{"pattern":"TODO"}' },
        { type: 'tool-call', toolCallId: 'call_2', toolName: 'Grep', input: '{"pattern":"FIXME"}' },
        finish('tool-calls'),
      ]),
    );
    const response = await model.chat([Message.user('find work')], [grep]);
    expect(response.toolCalls).toEqual([
      toolCall('call_1', 'Grep', { pattern: 'TODO' }),
      toolCall('call_2', 'Grep', { pattern: 'FIXME' }),
    ]);
    expect(response.finishReason).toBe('TOOL_CALLS');
  });

  it('sends the conversation, tools and output schema in the specification’s call options', async () => {
    const mock = mockStreaming([{ type: 'text-delta', id: 't', delta: '{}' }, finish('stop')]);
    const model = fromLanguageModel(mock);
    const schema = OutputSchema.fromJsonSchema<object>({ type: 'object' }, { name: 'answer' });
    const history = [
      Message.system('be brief'),
      Message.user('look', { inlineFiles: [inlineFile(new Uint8Array([1, 2, 3]), 'image/png', 'a.png')] }),
      Message.assistant('', { toolCalls: [toolCall('call_1', 'Grep', { pattern: 'x' })], thinking: 'hm' }),
      Message.tool('call_1', 'Grep', 'no matches'),
    ];
    await model.chat(history, [grep], { schema });
    const [call] = mock.doStreamCalls;
    expect(call?.prompt).toEqual([
      { role: 'system', content: 'be brief' },
      {
        role: 'user',
        content: [
          { type: 'text', text: 'look' },
          { type: 'file', data: new Uint8Array([1, 2, 3]), mediaType: 'image/png', filename: 'a.png' },
        ],
      },
      {
        role: 'assistant',
        content: [
          { type: 'reasoning', text: 'hm' },
          { type: 'tool-call', toolCallId: 'call_1', toolName: 'Grep', input: { pattern: 'x' } },
        ],
      },
      {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: 'call_1',
            toolName: 'Grep',
            output: { type: 'text', value: 'no matches' },
          },
        ],
      },
    ]);
    expect(call?.tools).toEqual([
      { type: 'function', name: 'Grep', description: 'search files', inputSchema: grep.inputSchema },
    ]);
    expect(call?.responseFormat).toEqual({ type: 'json', schema: { type: 'object' }, name: 'answer' });
    expect(call?.abortSignal).toBeInstanceOf(AbortSignal);
  });

  it('maps error parts: retryable ones transient, 4xx rejections', async () => {
    const failing = (error: object) =>
      fromLanguageModel(mockStreaming([{ type: 'error', error }, finish('stop')]));
    const transient = await failing({ message: 'overloaded', statusCode: 529, isRetryable: true })
      .chat([Message.user('hi')])
      .catch((error: unknown) => error);
    expect(transient).toBeInstanceOf(ProviderTransientError);
    expect((transient as Error).message).toBe('mock.chat: overloaded');
    const rejected = await failing({ message: 'bad request', statusCode: 400, isRetryable: false })
      .chat([Message.user('hi')])
      .catch((error: unknown) => error);
    expect(rejected).toBeInstanceOf(ProviderRejectedError);
  });

  it('a stream that ends without its finish part is a transient failure', async () => {
    const model = fromLanguageModel(mockStreaming([{ type: 'text-delta', id: 't', delta: 'cut' }]));
    await expect(model.chat([Message.user('hi')])).rejects.toBeInstanceOf(ProviderTransientError);
  });

  it('aborting the turn aborts the provider call’s signal, and the model stays usable', async () => {
    let seen: AbortSignal | undefined;
    let calls = 0;
    const model = fromLanguageModel(
      new MockLanguageModelV3({
        doStream: async (options) => {
          calls += 1;
          seen = options.abortSignal;
          const parts: LanguageModelV3StreamPart[] =
            calls === 1
              ? [{ type: 'text-delta', id: 't', delta: 'a' }]
              : [{ type: 'text-delta', id: 't', delta: 'again' }, finish('stop')];
          // The first stream stalls after its first part, as a slow provider would.
          return {
            stream: new ReadableStream<LanguageModelV3StreamPart>({
              start(controller) {
                for (const part of parts) controller.enqueue(part);
                if (calls > 1) controller.close();
              },
            }),
          };
        },
      }),
    );
    const controller = new AbortController();
    const stream = model.chatStream([Message.user('hi')], [], { signal: controller.signal });
    const iterator = stream[Symbol.asyncIterator]();
    expect((await iterator.next()).value).toMatchObject({ type: 'TextDelta', text: 'a' });
    controller.abort();
    await expect(iterator.next()).rejects.toBeDefined();
    expect(seen?.aborted).toBe(true);
    expect((await model.chat([Message.user('hi')])).content).toBe('again');
  });
});
