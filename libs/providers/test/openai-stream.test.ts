import { inspect } from 'node:util';
import { FinishReason, Message, TransientStreamError, Usage } from '@helios/core';
import { type ResponsePlan } from '@helios/testing';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ProviderRejectedError,
  ProviderResponseError,
  ProviderTransientError,
} from '../src/shared/provider-errors.js';
import { collect, everythingShown, failureOf } from './support/collect.js';
import { jsonResponse, sseEvents, sseResponse, WEATHER_TOOL } from './support/fixtures.js';
import { OPENAI_KEY, startOpenAi, stopOpenAi } from './support/openai-server.js';

const P = 'openai';

afterEach(stopOpenAi);

describe('openai Responses stream', () => {
  it('streams plain text with the bearer key, cached prompt tokens counted as cache reads', async () => {
    const { server, model } = await startOpenAi(sseResponse(P, 'plain-text'));
    const chunks = await collect(model.chatStream([Message.user('Capital of France?')]));
    expect(chunks).toEqual([
      { type: 'TextDelta', text: 'Paris' },
      { type: 'TextDelta', text: ' is the capital.' },
      {
        type: 'MessageStop',
        finishReason: FinishReason.STOP,
        usage: Usage.of(304, 7, { cacheReadTokens: 1536 }),
        metadata: { 'openai.status': 'completed', 'openai.responseId': 'resp_01' },
      },
    ]);
    const request = server.requests[0];
    expect(request?.url).toBe('/v1/responses');
    expect(request?.headers['authorization']).toBe(`Bearer ${OPENAI_KEY}`);
    expect(request?.headers['accept']).toBe('text/event-stream');
  });

  it('assembles several function calls whose arguments arrive split across deltas', async () => {
    const { model } = await startOpenAi(sseResponse(P, 'tool-calls-split'), { modelId: 'gpt-4.1' });
    const chunks = await collect(model.chatStream([Message.user('Weather and time?')], [WEATHER_TOOL]));
    expect(chunks.filter((chunk) => chunk.type === 'ToolUseStart')).toEqual([
      { type: 'ToolUseStart', callId: 'call_weather', toolName: 'get_weather' },
      { type: 'ToolUseStart', callId: 'call_time', toolName: 'get_time' },
    ]);
    expect(chunks.filter((chunk) => chunk.type === 'ToolUseDelta').map((c) => c.argumentsDelta)).toEqual([
      '{"ci',
      'ty":"Paris"}',
      '{"zone":',
      '"CET"}',
    ]);
    // The second call has no arguments.done event: output_item.done completes it, once.
    const stops = chunks.flatMap((chunk) => (chunk.type === 'ToolUseStop' ? [chunk.toolCall] : []));
    expect(stops).toEqual([
      { id: 'call_weather', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'call_time', name: 'get_time', arguments: { zone: 'CET' } },
    ]);
    expect(chunks.at(-1)).toMatchObject({
      type: 'MessageStop',
      finishReason: FinishReason.TOOL_CALLS,
      usage: Usage.of(96, 31),
    });
  });

  it('streams the reasoning summary as thinking and keeps it in the metadata', async () => {
    const { model } = await startOpenAi(sseResponse(P, 'reasoning-summary'), { modelId: 'o3' });
    const response = await model.chat([Message.user('Which is larger, 9.9 or 9.11?')]);
    const summary = '**Comparing sizes**\n\nNine point nine is larger.\n\n**Answering**';
    expect(response).toMatchObject({ content: '9.9', thinking: summary, finishReason: FinishReason.STOP });
    expect(response.metadata).toEqual({
      'openai.status': 'completed',
      'openai.responseId': 'resp_03',
      'openai.reasoning': summary,
    });
    expect(response.usage).toEqual(Usage.of(30, 210));
  });

  it('ends LENGTH when the response is incomplete at max_output_tokens', async () => {
    const { model } = await startOpenAi(sseResponse(P, 'incomplete-length'), { modelId: 'gpt-4o' });
    const response = await model.chat([Message.user('Tell a story')]);
    expect(response).toMatchObject({ content: 'Once upon a time', finishReason: FinishReason.LENGTH });
    expect(response.metadata).toMatchObject({
      'openai.status': 'incomplete',
      'openai.incompleteReason': 'max_output_tokens',
    });
  });

  it('ends REFUSAL when the model refuses, the refusal text as content', async () => {
    const { model } = await startOpenAi(sseResponse(P, 'refusal'));
    const response = await model.chat([Message.user('Something unsafe')]);
    expect(response).toMatchObject({
      content: "I can't help with that.",
      finishReason: FinishReason.REFUSAL,
    });
    expect(response.usage).toEqual(Usage.of(11, 6));
  });

  it('maps a server_error event mid-stream to a transient error naming the provider', async () => {
    const { model } = await startOpenAi(sseResponse(P, 'error-mid-stream'));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error.message).toBe(
      'openai: stream error server_error: The server had an error while processing your request. Sorry about that!',
    );
  });

  it('maps response.failed with a non-transient code to a non-retryable response error', async () => {
    const { model } = await startOpenAi(sseResponse(P, 'failed'));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(error.message).toBe(
      'openai: stream error invalid_prompt: Invalid prompt: the request was flagged.',
    );
  });

  it('maps 429 to a transient error carrying retry-after', async () => {
    const { model } = await startOpenAi(jsonResponse(P, 'rate-limited', 429, { 'retry-after': '3' }));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(TransientStreamError);
    expect(error).toMatchObject({ statusCode: 429, retryAfterMs: 3000, providerName: P });
    expect(error.message).toContain('openai: HTTP 429 tokens: Rate limit reached for gpt-5.5');
  });

  it('maps 401 to a rejection quoting the provider, never the key', async () => {
    const { model } = await startOpenAi(jsonResponse(P, 'invalid-key', 401));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).isRetryable).toBe(false);
    expect(error.message).toContain('Incorrect API key provided: <redacted:api key>.');
    expect(everythingShown(error)).not.toContain(OPENAI_KEY);
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(OPENAI_KEY);
  });

  it('fails transiently when the connection drops mid-stream', async () => {
    const events = sseEvents(P, 'plain-text');
    const cut = events.map((event, index) => (index < 5 ? event : { ...event, delayMs: 60_000 }));
    const { server, model } = await startOpenAi({ format: 'sse', events: cut });
    const stream = model.chatStream([Message.user('Hi')]);
    expect((await stream.next()).value).toEqual({ type: 'TextDelta', text: 'Paris' });
    await server.close(); // destroys the open socket mid-body
    const error = await failureOf(stream);
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error.message).toMatch(/^openai: /);
  });

  it('treats a body that ends before response.completed as transient', async () => {
    const events = sseEvents(P, 'plain-text').slice(0, -1);
    const { model } = await startOpenAi({ format: 'sse', events });
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error.message).toBe('openai: stream ended before response.completed');
  });

  it('fails with a response error when the stream goes idle', async () => {
    const events = sseEvents(P, 'plain-text');
    const idle = events.map((event, index) => (index < 2 ? event : { ...event, delayMs: 60_000 }));
    const { model } = await startOpenAi({ format: 'sse', events: idle }, { streamIdleTimeoutMs: 50 });
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(error.message).toBe('openai: stream idle for more than 50 ms');
  });

  it('hangs up when the caller closes mid-stream and serves the next call', async () => {
    const events = sseEvents(P, 'plain-text');
    const slow: ResponsePlan = [
      { format: 'sse', events: events.map((e, index) => (index < 5 ? e : { ...e, delayMs: 60_000 })) },
      sseResponse(P, 'plain-text'),
    ];
    const { server, model } = await startOpenAi(slow);
    const stream = model.chatStream([Message.user('Hi')]);
    expect((await stream.next()).value).toEqual({ type: 'TextDelta', text: 'Paris' });
    await stream.close();
    expect(await server.requests[0]?.outcome).toBe('disconnected');
    const again = await model.chat([Message.user('Hi again')]);
    expect(again.content).toBe('Paris is the capital.');
  });
});
