import { inspect } from 'node:util';
import {
  FinishReason,
  Message,
  ModelConfig,
  Reasoning,
  ReasoningDisplay,
  ReasoningLevel,
  ToolChoice,
  TransientStreamError,
  Usage,
} from '@helios/core';
import { type ResponsePlan } from '@helios/testing';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiCompatibleModel } from '../src/openai-compatible/openai-compatible-model.js';
import { ProviderRejectedError, ProviderTransientError } from '../src/shared/provider-errors.js';
import { startRecordedModel, stopRecordedModels } from './support/recorded-model.js';
import { collect, everythingShown, failureOf } from './support/collect.js';
import { jsonResponse, sseEvents, sseResponse, WEATHER_TOOL } from './support/fixtures.js';

const KEY = 'sk-test-openai-compat-0123456789';
const P = 'openai-compatible';

afterEach(stopRecordedModels);

function start(plan: ResponsePlan, options: Parameters<typeof ModelConfig.create>[0] = {}) {
  return startRecordedModel(plan, (url) =>
    createOpenAiCompatibleModel(
      'llama3.2',
      ModelConfig.create({ baseUrl: `${url}/v1`, apiKey: KEY, ...options }),
    ),
  );
}

describe('openai-compatible Chat Completions', () => {
  it('streams plain text and reports usage with cached prompt tokens as cache reads', async () => {
    const { server, model } = await start(sseResponse(P, 'plain-text'));
    const response = await model.chat([Message.system('Be brief.'), Message.user('Capital of France?')]);
    expect(response.content).toBe('Paris is the capital.');
    expect(response.finishReason).toBe(FinishReason.STOP);
    expect(response.usage).toEqual(Usage.of(10, 6, { cacheReadTokens: 16 }));
    const request = server.requests[0];
    expect(request?.url).toBe('/v1/chat/completions');
    expect(request?.headers['authorization']).toBe(`Bearer ${KEY}`);
    expect(request?.json()).toEqual({
      model: 'llama3.2',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'Capital of France?' },
      ],
      stream: true,
      stream_options: { include_usage: true },
    });
  });

  it('assembles several tool calls whose arguments arrive split and interleaved', async () => {
    const { server, model } = await start(sseResponse(P, 'tool-calls-split'), {
      toolChoice: ToolChoice.required(['get_weather']),
      temperature: 0.2,
      reasoning: Reasoning.effort(ReasoningLevel.LOW),
    });
    const chunks = await collect(model.chatStream([Message.user('Weather and time?')], [WEATHER_TOOL]));
    expect(chunks.filter((chunk) => chunk.type === 'ToolUseDelta').map((c) => c.argumentsDelta)).toEqual([
      '{"ci',
      '{"zone":',
      'ty":"Paris"}',
      '"CET"}',
    ]);
    const stops = chunks.flatMap((chunk) => (chunk.type === 'ToolUseStop' ? [chunk.toolCall] : []));
    expect(stops).toEqual([
      { id: 'call_abc', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'call_def', name: 'get_time', arguments: { zone: 'CET' } },
    ]);
    const last = chunks.at(-1);
    expect(last).toMatchObject({ type: 'MessageStop', finishReason: FinishReason.TOOL_CALLS });
    expect(server.requests[0]?.json()).toEqual({
      model: 'llama3.2',
      messages: [{ role: 'user', content: 'Weather and time?' }],
      stream: true,
      stream_options: { include_usage: true },
      tools: [
        {
          type: 'function',
          function: {
            name: 'get_weather',
            description: 'Current weather for a city',
            parameters: WEATHER_TOOL.inputSchema,
          },
        },
      ],
      tool_choice: { type: 'function', function: { name: 'get_weather' } },
      temperature: 0.2,
      reasoning_effort: 'low',
    });
  });

  it('replays assistant tool calls and tool results in the wire shape', async () => {
    const { server, model } = await start(sseResponse(P, 'plain-text'));
    await model.chat([
      Message.user('Weather?'),
      Message.assistant('', {
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
      }),
      Message.tool('call_1', 'get_weather', 'sunny'),
    ]);
    expect((server.requests[0]?.json() as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Weather?' },
      {
        role: 'assistant',
        content: null,
        tool_calls: [
          { id: 'call_1', type: 'function', function: { name: 'get_weather', arguments: '{"city":"Oslo"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 'call_1', content: 'sunny' },
    ]);
  });

  it('ends LENGTH with zero usage when the server reports none', async () => {
    const { model } = await start(sseResponse(P, 'length-no-usage'));
    const response = await model.chat([Message.user('Tell a story')]);
    expect(response).toMatchObject({ content: 'Once upon a time', finishReason: FinishReason.LENGTH });
    expect(response.usage).toEqual(Usage.ZERO);
  });

  it('maps an overloaded error event mid-stream to a transient error naming the provider', async () => {
    const { model } = await start(sseResponse(P, 'error-mid-stream'));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error.message).toContain('openai-compatible');
    expect(error.message).toContain('The engine is overloaded');
  });

  it('maps 429 to a transient error carrying retry-after', async () => {
    const { model } = await start(jsonResponse(P, 'rate-limited', 429, { 'retry-after': '7' }));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(TransientStreamError);
    expect(error).toMatchObject({ statusCode: 429, retryAfterMs: 7000, providerName: P });
  });

  it('maps 401 to a non-retryable rejection whose message quotes the provider but never the key', async () => {
    const { model } = await start(jsonResponse(P, 'bad-request', 401));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).isRetryable).toBe(false);
    expect(error.message).toContain('Incorrect API key provided: <redacted:api key>.');
    expect(everythingShown(error)).not.toContain(KEY);
    expect(inspect(model)).not.toContain(KEY);
  });

  it('treats a body cut before finish_reason as transient', async () => {
    const { model } = await start(sseResponse(P, 'cut-before-finish'));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error.message).toContain('ended before a finish_reason');
  });

  it('hangs up when the caller closes mid-stream and serves the next call', async () => {
    const [first, ...rest] = sseEvents(P, 'plain-text');
    const slow: ResponsePlan = [
      { format: 'sse', events: [first!, ...rest.map((event) => ({ ...event, delayMs: 60_000 }))] },
      sseResponse(P, 'plain-text'),
    ];
    const { server, model } = await start(slow);
    const stream = model.chatStream([Message.user('Hi')]);
    expect((await stream.next()).value).toEqual({ type: 'TextDelta', text: 'Paris' });
    await stream.close();
    expect(await server.requests[0]?.outcome).toBe('disconnected');
    const again = await model.chat([Message.user('Hi again')]);
    expect(again.content).toBe('Paris is the capital.');
  });

  it('refuses at creation what Chat Completions cannot express', () => {
    const config = ModelConfig.create({
      baseUrl: 'http://127.0.0.1:1/v1',
      reasoning: Reasoning.effort(ReasoningLevel.HIGH, ReasoningDisplay.SUMMARY),
    });
    expect(() => createOpenAiCompatibleModel('qwen3', config)).toThrow(
      "openai-compatible model 'qwen3' does not accept reasoning Effort(HIGH, SUMMARY); accepted: Effort(<level>, HIDDEN), Off",
    );
    expect(() => createOpenAiCompatibleModel('qwen3', ModelConfig.create({}))).toThrow(/needs a baseUrl/);
  });
});
