import { describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { OutputSchema } from '../schema/output-schema.js';
import { StructuredOutputParseError } from '../schema/structured-output-parse-error.js';
import { drainStream } from './chunk-drain.js';
import { adaptBlockingModel, createModel } from './create-model.js';
import { Message } from './message.js';
import { type ModelChunk } from './model-chunk.js';
import { IncompleteStreamError, ModelClosedError } from './model-errors.js';
import { type ModelRequest } from './model.js';
import { type Response } from './response.js';
import { toolCall } from './tool-call.js';
import { Usage } from './usage.js';

function turn(
  text: string,
  finishReason: 'STOP' | 'TOOL_CALLS' | 'REFUSAL' = 'STOP',
  extra: ModelChunk[] = [],
): ModelChunk[] {
  return [
    { type: 'ThinkingDelta', text: 'let me ' },
    { type: 'ThinkingDelta', text: 'think' },
    { type: 'TextDelta', text: text.slice(0, 3) },
    { type: 'TextDelta', text: text.slice(3) },
    ...extra,
    { type: 'UsageDelta', usage: Usage.of(1, 1) },
    { type: 'MessageStop', finishReason, usage: Usage.of(10, 5), metadata: { 'provider.id': 'r-1' } },
  ];
}

function modelOf(chunks: ModelChunk[]) {
  const requests: ModelRequest[] = [];
  const close = vi.fn();
  const model = createModel({
    id: 'm-1',
    provider: 'test',
    contextWindow: 1000,
    close,
    async *stream(request) {
      requests.push(request);
      yield* chunks;
    },
  });
  return { model, requests, close };
}

const messages = [Message.user('hi')];

describe('drainStream', () => {
  it('folds chunks into a response', async () => {
    const call = toolCall('c1', 'get_weather', { city: 'Paris' });
    const citation = { title: 'src', metadata: {} };
    const { model } = modelOf(
      turn('Hello!', 'TOOL_CALLS', [
        { type: 'ToolUseStart', callId: 'c1', toolName: 'get_weather' },
        { type: 'ToolUseDelta', callId: 'c1', argumentsDelta: '{"city":' },
        { type: 'ToolUseStop', toolCall: call },
        { type: 'Citations', citations: [citation] },
      ]),
    );
    const response = await model.chat(messages);
    expect(response).toMatchObject({
      content: 'Hello!',
      thinking: 'let me think',
      toolCalls: [call],
      citations: [citation],
      finishReason: 'TOOL_CALLS',
      usage: Usage.of(10, 5),
      metadata: { 'provider.id': 'r-1' },
      parsed: undefined,
    });
  });

  it('throws when the stream ends without MessageStop', async () => {
    async function* cut(): AsyncGenerator<ModelChunk> {
      yield { type: 'TextDelta', text: 'x' };
    }
    await expect(drainStream(cut())).rejects.toBeInstanceOf(IncompleteStreamError);
  });

  it('omits thinking when none streamed', async () => {
    const { model } = modelOf([
      { type: 'MessageStop', finishReason: 'STOP', usage: Usage.ZERO, metadata: {} },
    ]);
    expect(await model.chat(messages)).not.toHaveProperty('thinking');
  });
});

describe('createModel', () => {
  it('exposes its identity and sends the request on the first pull', async () => {
    const { model, requests } = modelOf(turn('hello'));
    expect(model).toMatchObject({
      id: 'm-1',
      provider: 'test',
      contextWindow: 1000,
      maxOutputTokens: 0,
      rawOutputCapture: 'ENABLED',
    });
    const tool = { name: 't', description: 'd', inputSchema: { type: 'object' as const } };
    const stream = model.chatStream(messages, [tool]);
    expect(requests).toHaveLength(0);
    await stream.next();
    expect(requests[0]).toMatchObject({ messages, tools: [tool] });
    expect(requests[0]?.messages).toBe(messages); // passed through, never copied per turn
    await stream.close();
  });

  it('parses a structured answer', async () => {
    const schema = OutputSchema.of(z.object({ label: z.string() }));
    const { model, requests } = modelOf(turn('{"label":"positive"}'));
    const response = await model.chat(messages, [], { schema });
    expect(response.parsed).toEqual({ label: 'positive' });
    expect(requests[0]?.schema).toBe(schema);
  });

  it('does not parse turns that call tools or refuse', async () => {
    const schema = OutputSchema.of(z.object({ label: z.string() }));
    const call = toolCall('c', 'x');
    const withTools = modelOf(turn('not json', 'TOOL_CALLS', [{ type: 'ToolUseStop', toolCall: call }]));
    expect((await withTools.model.chat(messages, [], { schema })).parsed).toBeUndefined();
    const refusal = modelOf(turn('I cannot', 'REFUSAL'));
    expect((await refusal.model.chat(messages, [], { schema })).parsed).toBeUndefined();
  });

  it('throws a parse error for a mismatching answer, keeping raw text only when capture is enabled', async () => {
    const schema = OutputSchema.of(z.object({ label: z.string() }));
    const enabled = modelOf(turn('{"label": 3}'));
    await expect(enabled.model.chat(messages, [], { schema })).rejects.toMatchObject({
      rawContent: '{"label": 3}',
    });
    const disabled = createModel({
      id: 'm',
      provider: 'p',
      rawOutputCapture: 'DISABLED',
      async *stream() {
        yield* turn('{"label": 3}');
      },
    });
    const error = await disabled.chat(messages, [], { schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredOutputParseError);
    expect((error as StructuredOutputParseError).rawContent).toBeUndefined();
  });

  it('close() aborts open streams, releases once and refuses new calls', async () => {
    let signal: AbortSignal | undefined;
    const close = vi.fn();
    const model = createModel({
      id: 'm',
      provider: 'p',
      close,
      async *stream(_request, s) {
        signal = s;
        yield { type: 'TextDelta', text: 'a' } as ModelChunk;
        await new Promise((resolve) => s.addEventListener('abort', resolve));
      },
    });
    const stream = model.chatStream(messages);
    await stream.next();
    const pending = stream.next();
    await Promise.all([model.close(), model.close()]);
    expect(await pending).toMatchObject({ done: true });
    expect(signal?.aborted).toBe(true);
    expect(close).toHaveBeenCalledTimes(1);
    expect(() => model.chatStream(messages)).toThrow(ModelClosedError);
    await expect(model.chat(messages)).rejects.toBeInstanceOf(ModelClosedError);
  });

  it('a stream closed by its reader leaves the model open', async () => {
    const { model, close } = modelOf(turn('abc'));
    const stream = model.chatStream(messages);
    await stream.next();
    await stream.close();
    expect((await model.chat(messages)).content).toBe('abc');
    expect(close).not.toHaveBeenCalled();
  });
});

describe('adaptBlockingModel', () => {
  const response: Response = {
    content: 'answer',
    parsed: undefined,
    toolCalls: [toolCall('c1', 'lookup', { q: 'x' })],
    finishReason: 'TOOL_CALLS',
    usage: Usage.of(3, 4),
    thinking: 'reasoned',
    citations: [{ title: 't', metadata: {} }],
    metadata: { k: 'v' },
  };

  it('calls complete on the first pull and replays the answer as chunks', async () => {
    const complete = vi.fn(() => Promise.resolve(response));
    const model = adaptBlockingModel({ id: 'b', provider: 'blocking', maxOutputTokens: 50, complete });
    const stream = model.chatStream(messages);
    expect(complete).not.toHaveBeenCalled();
    const types: string[] = [];
    for await (const chunk of stream) types.push(chunk.type);
    expect(types).toEqual([
      'ThinkingDelta',
      'TextDelta',
      'ToolUseStart',
      'ToolUseStop',
      'Citations',
      'MessageStop',
    ]);
    expect(await model.chat(messages)).toEqual(response);
    expect(model.maxOutputTokens).toBe(50);
    await model.close();
  });

  it('replays an empty answer as MessageStop alone and forwards close', async () => {
    const close = vi.fn();
    const model = adaptBlockingModel({
      id: 'b',
      provider: 'blocking',
      contextWindow: 9,
      rawOutputCapture: 'DISABLED',
      close,
      complete: () =>
        Promise.resolve({ ...response, content: '', thinking: '', toolCalls: [], citations: [] }),
    });
    const types: string[] = [];
    for await (const chunk of model.chatStream(messages)) types.push(chunk.type);
    expect(types).toEqual(['MessageStop']);
    await model.close();
    expect(close).toHaveBeenCalledTimes(1);
  });
});
