import { Message, OutputSchema, toolCall, Usage, type ModelChunk } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { ScriptedModel, ScriptExhaustedError } from './scripted-model.js';

const ask = [Message.user('hi')];

async function collect(stream: AsyncIterable<ModelChunk>): Promise<ModelChunk[]> {
  const chunks: ModelChunk[] = [];
  for await (const chunk of stream) chunks.push(chunk);
  return chunks;
}

describe('ScriptedModel', () => {
  it('replays turns in order and records each request', async () => {
    const call = toolCall('c1', 'get_weather', { city: 'Paris' });
    const model = new ScriptedModel({ id: 'm' })
      .thenToolCalls([call], { usage: Usage.of(10, 2), text: 'checking' })
      .thenText('72°F in Paris', { thinking: 'easy', metadata: { sig: 'x' } });
    expect(model).toMatchObject({ id: 'm', provider: 'testing', remainingTurns: 2 });
    const first = await model.chat(ask, [{ name: 'get_weather', description: '', inputSchema: {} }]);
    expect(first).toMatchObject({
      finishReason: 'TOOL_CALLS',
      toolCalls: [call],
      content: 'checking',
      usage: Usage.of(10, 2),
    });
    const second = await model.chat([...ask, Message.tool('c1', 'get_weather', '72°F')]);
    expect(second).toMatchObject({
      finishReason: 'STOP',
      content: '72°F in Paris',
      thinking: 'easy',
      metadata: { sig: 'x' },
    });
    expect(model.requests).toHaveLength(2);
    expect(model.requests[0]?.tools[0]?.name).toBe('get_weather');
    expect(model.calls[1]).toHaveLength(2);
  });

  it('records nothing before the first pull', async () => {
    const model = new ScriptedModel().thenText('x');
    const stream = model.chatStream(ask);
    expect(model.requests).toHaveLength(0);
    await stream.next();
    expect(model.requests).toHaveLength(1);
    await stream.close();
  });

  it('streams a text array as one delta per part, with delays', async () => {
    const model = new ScriptedModel().thenText(['Hel', 'lo'], { chunkDelayMs: 5 });
    const started = Date.now();
    const chunks = await collect(model.chatStream(ask));
    expect(chunks.filter((c) => c.type === 'TextDelta').map((c) => (c as { text: string }).text)).toEqual([
      'Hel',
      'lo',
    ]);
    expect(Date.now() - started).toBeGreaterThanOrEqual(10);
  });

  it('ends a delay when the stream is aborted', async () => {
    const model = new ScriptedModel().thenText('slow', { chunkDelayMs: 60_000 });
    const controller = new AbortController();
    const pending = model.chatStream(ask, [], { signal: controller.signal }).next();
    setTimeout(() => controller.abort(new Error('user stop')), 5);
    await expect(pending).rejects.toThrow('user stop');
  });

  it('throws scripted errors from the iteration after the chunks before them', async () => {
    const model = new ScriptedModel().thenError(new Error('overloaded'), {
      before: [{ type: 'TextDelta', text: 'par' }],
    });
    const stream = model.chatStream(ask);
    expect(await stream.next()).toMatchObject({ value: { type: 'TextDelta', text: 'par' } });
    await expect(stream.next()).rejects.toThrow('overloaded');
  });

  it('plays refusals, other finish reasons and raw chunks', async () => {
    const model = new ScriptedModel()
      .thenRefusal('no')
      .thenFinish('LENGTH', 'cut')
      .thenChunks(
        [{ type: 'MessageStop', finishReason: 'CONTENT_FILTER', usage: Usage.ZERO, metadata: {} }],
        { chunkDelayMs: 1 },
      )
      .thenError('not an error object');
    expect((await model.chat(ask)).finishReason).toBe('REFUSAL');
    expect(await model.chat(ask)).toMatchObject({ finishReason: 'LENGTH', content: 'cut' });
    expect((await model.chat(ask)).finishReason).toBe('CONTENT_FILTER');
    await expect(model.chat(ask)).rejects.toBe('not an error object');
  });

  it('throws when the script is exhausted', async () => {
    const model = new ScriptedModel();
    await expect(model.chat(ask)).rejects.toBeInstanceOf(ScriptExhaustedError);
    expect(() => model.thenToolCalls([])).toThrow(/at least one/);
  });

  it('parses structured output with the real parser, except on tool-call and refusal turns', async () => {
    const schema = OutputSchema.fromJsonSchema<{ label: string }>({
      type: 'object',
      properties: { label: { type: 'string' } },
      required: ['label'],
    });
    const model = new ScriptedModel()
      .thenText('```json\n{"label":"ok"}\n```')
      .thenToolCalls([toolCall('c', 't')])
      .thenRefusal('{"bad":1}')
      .thenText('{"label":1}');
    expect((await model.chat(ask, [], { schema })).parsed).toEqual({ label: 'ok' });
    expect((await model.chat(ask, [], { schema })).parsed).toBeUndefined();
    expect((await model.chat(ask, [], { schema })).parsed).toBeUndefined();
    await expect(model.chat(ask, [], { schema })).rejects.toThrow(/field 'label'/);
  });

  it('counts closes by its owner', async () => {
    const model = new ScriptedModel({ contextWindow: 10, maxOutputTokens: 5, rawOutputCapture: 'DISABLED' });
    expect(model).toMatchObject({
      contextWindow: 10,
      maxOutputTokens: 5,
      rawOutputCapture: 'DISABLED',
      closeCount: 0,
    });
    await model.close();
    await model.close();
    expect(model.closeCount).toBe(1);
  });
});
