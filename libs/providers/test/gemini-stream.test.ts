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
import { GEMINI_KEY, startGemini, stopGemini } from './support/gemini-server.js';

const P = 'gemini';

afterEach(stopGemini);

describe('gemini Interactions stream', () => {
  it('streams plain text with the key header, cached input counted as cache reads', async () => {
    const { server, model } = await startGemini(sseResponse(P, 'plain-text'));
    const chunks = await collect(model.chatStream([Message.user('Capital of France?')]));
    expect(chunks).toEqual([
      { type: 'TextDelta', text: 'Paris' },
      { type: 'TextDelta', text: ' is the capital.' },
      {
        type: 'MessageStop',
        finishReason: FinishReason.STOP,
        usage: Usage.of(185, 9, { cacheReadTokens: 1024 }),
        metadata: {
          'gemini.apiVersion': 'v1beta',
          'gemini.status': 'completed',
          'gemini.interactionId': 'v1_plain01',
          'gemini.contextDigest': expect.stringMatching(/^[0-9a-f]{16}$/) as unknown as string,
        },
      },
    ]);
    const request = server.requests[0];
    expect(request?.url).toBe('/v1beta/interactions?alt=sse');
    expect(request?.headers['x-goog-api-key']).toBe(GEMINI_KEY);
    expect(request?.headers['api-revision']).toBe('2026-05-20');
    expect(request?.headers['accept']).toBe('text/event-stream');
    expect(request?.json()).toEqual({
      model: 'gemini-3-flash-preview',
      input: [{ type: 'user_input', content: [{ type: 'text', text: 'Capital of France?' }] }],
      stream: true,
      generation_config: { max_output_tokens: 65_536 },
    });
  });

  it('assembles function calls from split argument deltas and from a whole step.start', async () => {
    const { model } = await startGemini(sseResponse(P, 'function-call'));
    const chunks = await collect(
      model.chatStream([Message.user('Weather and time in Paris?')], [WEATHER_TOOL]),
    );
    expect(chunks.filter((chunk) => chunk.type === 'ToolUseStart')).toEqual([
      { type: 'ToolUseStart', callId: 'un6k8t18', toolName: 'get_weather' },
      { type: 'ToolUseStart', callId: 'q2w9e7r1', toolName: 'get_time' },
    ]);
    expect(chunks.filter((chunk) => chunk.type === 'ToolUseDelta').map((c) => c.argumentsDelta)).toEqual([
      '{"city": "Pa',
      'ris"}',
    ]);
    expect(chunks.flatMap((chunk) => (chunk.type === 'ToolUseStop' ? [chunk.toolCall] : []))).toEqual([
      { id: 'un6k8t18', name: 'get_weather', arguments: { city: 'Paris' } },
      { id: 'q2w9e7r1', name: 'get_time', arguments: { zone: 'CET' } },
    ]);
    // Thought tokens bill as output: 31 + 118.
    expect(chunks.at(-1)).toMatchObject({
      type: 'MessageStop',
      finishReason: FinishReason.TOOL_CALLS,
      usage: Usage.of(96, 149),
      metadata: { 'gemini.thoughtSignatures': 'EpoGCpcGAXLI2nxSigA==', 'gemini.status': 'requires_action' },
    });
  });

  it('streams thought summaries as thinking and keeps every signature, in order', async () => {
    const { model } = await startGemini(sseResponse(P, 'thought-summary'));
    const response = await model.chat([Message.user('Which is larger, 9.9 or 9.11?')]);
    expect(response).toMatchObject({
      content: '9.9',
      thinking: '**Comparing decimals** 9.9 is 9.90, larger than 9.11.',
      finishReason: FinishReason.STOP,
      usage: Usage.of(30, 230),
    });
    expect(response.metadata['gemini.thoughtSignatures']).toBe('CiQBcsjafSigOne\u001eCiQBcsjafSigTwo');
  });

  it('ends LENGTH when the interaction is incomplete', async () => {
    const { model } = await startGemini(sseResponse(P, 'incomplete'));
    const response = await model.chat([Message.user('Tell a story')]);
    expect(response).toMatchObject({ content: 'Once upon a time', finishReason: FinishReason.LENGTH });
    expect(response.metadata['gemini.status']).toBe('incomplete');
  });

  it('maps an error event mid-stream to a transient error naming the provider', async () => {
    const { model } = await startGemini(sseResponse(P, 'error-mid-stream'));
    const stream = model.chatStream([Message.user('Hi')]);
    expect((await stream.next()).value).toEqual({ type: 'TextDelta', text: 'Once' });
    const error = await failureOf(stream);
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error.message).toBe(
      'gemini: stream error gateway_timeout: Deadline expired before operation could complete.',
    );
  });

  it('maps a non-transient error event to a non-retryable response error', async () => {
    const events = [
      ...sseEvents(P, 'plain-text').slice(0, 2),
      { event: 'error', data: { error: { code: 400, message: 'Invalid schema.' }, event_type: 'error' } },
    ];
    const { model } = await startGemini({ format: 'sse', events });
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(error.message).toBe('gemini: stream error: Invalid schema.');
  });

  it('maps 429 to a transient error carrying retry-after', async () => {
    const { model } = await startGemini(jsonResponse(P, 'rate-limited', 429, { 'retry-after': '7' }));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(TransientStreamError);
    expect(error).toMatchObject({ statusCode: 429, retryAfterMs: 7000, providerName: P });
    expect(error.message).toBe(
      'gemini: HTTP 429: Resource has been exhausted (e.g. check quota). (retry after 7000 ms)',
    );
  });

  it('maps a rejected key to a non-retryable error; the key shows nowhere', async () => {
    const { model } = await startGemini(jsonResponse(P, 'invalid-key', 400));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect((error as ProviderRejectedError).isRetryable).toBe(false);
    expect(error.message).toBe('gemini: HTTP 400: API key not valid. Please pass a valid API key.');
    expect(everythingShown(error)).not.toContain(GEMINI_KEY);
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(GEMINI_KEY);
    expect(JSON.stringify(model)).not.toContain(GEMINI_KEY);
  });

  it('fails transiently when the connection drops mid-stream', async () => {
    const events = sseEvents(P, 'plain-text');
    const cut = events.map((event, index) => (index < 4 ? event : { ...event, delayMs: 60_000 }));
    const { server, model } = await startGemini({ format: 'sse', events: cut });
    const stream = model.chatStream([Message.user('Hi')]);
    expect((await stream.next()).value).toEqual({ type: 'TextDelta', text: 'Paris' });
    await server.close(); // destroys the open socket mid-body
    const error = await failureOf(stream);
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error.message).toMatch(/^gemini: /);
  });

  it('treats a body that ends before interaction.completed as transient', async () => {
    const events = sseEvents(P, 'plain-text').slice(0, -1);
    const { model } = await startGemini({ format: 'sse', events });
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error.message).toBe('gemini: stream ended before interaction.completed');
  });

  it('hangs up when the caller closes mid-stream and serves the next call', async () => {
    const events = sseEvents(P, 'plain-text');
    const slow: ResponsePlan = [
      { format: 'sse', events: events.map((e, index) => (index < 4 ? e : { ...e, delayMs: 60_000 })) },
      sseResponse(P, 'plain-text'),
    ];
    const { server, model } = await startGemini(slow);
    const stream = model.chatStream([Message.user('Hi')]);
    expect((await stream.next()).value).toEqual({ type: 'TextDelta', text: 'Paris' });
    await stream.close();
    expect(await server.requests[0]?.outcome).toBe('disconnected');
    const again = await model.chat([Message.user('Hi again')]);
    expect(again.content).toBe('Paris is the capital.');
  });
});
