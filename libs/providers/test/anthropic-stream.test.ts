import { inspect } from 'node:util';
import { FinishReason, Message, TransientStreamError, Usage } from '@helios/core';
import { afterEach, describe, expect, it } from 'vitest';
import {
  ProviderRejectedError,
  ProviderResponseError,
  ProviderTransientError,
} from '../src/shared/provider-errors.js';
import { ANTHROPIC_KEY, startAnthropic, stopAnthropic } from './support/anthropic-server.js';
import { collect, everythingShown, failureOf } from './support/collect.js';
import { jsonResponse, sseEvents, sseResponse, WEATHER_TOOL } from './support/fixtures.js';

const P = 'anthropic';

afterEach(stopAnthropic);

describe('anthropic Messages stream', () => {
  it('streams plain text with the key and version headers', async () => {
    const { server, model } = await startAnthropic(sseResponse(P, 'plain-text'));
    const chunks = await collect(model.chatStream([Message.user('Capital of France?')]));
    expect(chunks).toEqual([
      { type: 'TextDelta', text: 'Paris' },
      { type: 'TextDelta', text: ' is the capital.' },
      {
        type: 'MessageStop',
        finishReason: FinishReason.STOP,
        usage: Usage.of(21, 7),
        metadata: { 'anthropic.stopReason': 'end_turn' },
      },
    ]);
    const request = server.requests[0];
    expect(request?.url).toBe('/v1/messages');
    expect(request?.headers['x-api-key']).toBe(ANTHROPIC_KEY);
    expect(request?.headers['anthropic-version']).toBe('2023-06-01');
  });

  it('assembles a tool call whose input arrives split across input_json_delta events', async () => {
    const { model } = await startAnthropic(sseResponse(P, 'tool-use-split'));
    const chunks = await collect(model.chatStream([Message.user('Weather in Paris?')], [WEATHER_TOOL]));
    expect(chunks.slice(1, 5)).toEqual([
      { type: 'ToolUseStart', callId: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', toolName: 'get_weather' },
      { type: 'ToolUseDelta', callId: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', argumentsDelta: '{"city": "Pa' },
      { type: 'ToolUseDelta', callId: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', argumentsDelta: 'ris"}' },
      {
        type: 'ToolUseStop',
        toolCall: { id: 'toolu_01T1x1fJ34qAmk2tNTrN7Up6', name: 'get_weather', arguments: { city: 'Paris' } },
      },
    ]);
    expect(chunks.at(-1)).toMatchObject({ type: 'MessageStop', finishReason: FinishReason.TOOL_CALLS });
  });

  it('keeps signed and redacted thinking in metadata, verbatim', async () => {
    const { model } = await startAnthropic(sseResponse(P, 'thinking-signature'));
    const response = await model.chat([Message.user('27 * 453?')]);
    const thinking = '27 * 453: 27*400 = 10800, 27*53 = 1431, total 12231.';
    const signature = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+x1GvXUQ3i2Ua/Anq+Zh8xf=';
    expect(response.thinking).toBe(thinking);
    expect(response.content).toBe('12,231');
    expect(response.metadata['anthropic.thinkingSignature']).toBe(signature);
    expect(JSON.parse(response.metadata['anthropic.thinkingBlocks'] ?? '')).toEqual([
      { text: thinking, signature },
    ]);
    expect(JSON.parse(response.metadata['anthropic.rawContent'] ?? '')).toEqual([
      { type: 'thinking', thinking, signature },
      {
        type: 'redacted_thinking',
        data: 'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pabZHXmrZ2uFi+3Aw',
      },
      { type: 'text', text: '12,231' },
    ]);
  });

  it('reports cache writes and reads as their own usage classes', async () => {
    const { model } = await startAnthropic(sseResponse(P, 'cache-usage'), { modelId: 'claude-sonnet-4-6' });
    const response = await model.chat([Message.user('Again?')]);
    expect(response.usage).toEqual(Usage.of(3, 5, { cacheWriteTokens: 1200, cacheReadTokens: 4800 }));
    expect(response.finishReason).toBe(FinishReason.LENGTH);
  });

  it('turns citations_delta into Citations chunks', async () => {
    const { model } = await startAnthropic(sseResponse(P, 'citations'));
    const response = await model.chat([Message.user('What colour is grass?')]);
    expect(response.citations).toEqual([
      {
        title: 'Nature facts',
        content: 'The grass is green.',
        metadata: {
          type: 'char_location',
          document_index: '0',
          document_title: 'Nature facts',
          start_char_index: '0',
          end_char_index: '20',
        },
      },
    ]);
  });

  it('maps an overloaded error event mid-stream to a transient error naming the provider', async () => {
    const { model } = await startAnthropic(sseResponse(P, 'error-mid-stream'));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error).toMatchObject({ statusCode: 529, providerName: 'anthropic' });
    expect(error.message).toBe('anthropic: stream error overloaded_error: Overloaded');
  });

  it('maps 429 to a transient error carrying retry-after', async () => {
    const { model } = await startAnthropic(jsonResponse(P, 'rate-limited', 429, { 'retry-after': '12' }));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(TransientStreamError);
    expect(error).toMatchObject({ statusCode: 429, retryAfterMs: 12_000 });
    expect(error.message).toContain('rate_limit_error');
  });

  it('maps 401 to a rejection that quotes the provider with the key masked everywhere', async () => {
    const { model } = await startAnthropic(jsonResponse(P, 'invalid-key', 401));
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect(error.message).toBe(
      'anthropic: HTTP 401 authentication_error: invalid x-api-key: <redacted:api key>',
    );
    expect(everythingShown(error)).not.toContain(ANTHROPIC_KEY);
    expect(inspect(model, { depth: 10, showHidden: true })).not.toContain(ANTHROPIC_KEY);
  });

  it('fails transiently when the connection drops mid-stream', async () => {
    const events = sseEvents(P, 'plain-text');
    const cut = events.map((event, index) => (index < 4 ? event : { ...event, delayMs: 60_000 }));
    const { server, model } = await startAnthropic({ format: 'sse', events: cut });
    const stream = model.chatStream([Message.user('Hi')]);
    expect((await stream.next()).value).toEqual({ type: 'TextDelta', text: 'Paris' });
    await server.close(); // destroys the open socket mid-body
    const error = await failureOf(stream);
    expect(error).toBeInstanceOf(ProviderTransientError);
    expect(error.message).toMatch(/^anthropic: connection failed/);
    expect(everythingShown(error)).not.toContain(ANTHROPIC_KEY);
  });

  it('fails with a response error when the stream goes silent past the idle timeout', async () => {
    const events = sseEvents(P, 'plain-text');
    const stalled = events.map((event, index) => (index < 4 ? event : { ...event, delayMs: 60_000 }));
    const { model } = await startAnthropic({ format: 'sse', events: stalled }, { streamIdleTimeoutMs: 50 });
    const error = await failureOf(model.chatStream([Message.user('Hi')]));
    expect(error).toBeInstanceOf(ProviderResponseError);
    expect(error.message).toBe('anthropic: stream idle for more than 50 ms');
  });

  it('hangs up when the caller closes mid-stream and serves the next call', async () => {
    const events = sseEvents(P, 'plain-text');
    const slow = events.map((event, index) => (index < 4 ? event : { ...event, delayMs: 60_000 }));
    const { server, model } = await startAnthropic([
      { format: 'sse', events: slow },
      sseResponse(P, 'plain-text'),
    ]);
    const stream = model.chatStream([Message.user('Hi')]);
    expect((await stream.next()).value).toEqual({ type: 'TextDelta', text: 'Paris' });
    await stream.close();
    expect(await server.requests[0]?.outcome).toBe('disconnected');
    expect((await model.chat([Message.user('Hi again')])).content).toBe('Paris is the capital.');
    expect(await server.requests[1]?.outcome).toBe('completed');
  });

  it('hangs up on the caller’s abort signal too', async () => {
    const events = sseEvents(P, 'plain-text');
    const slow = events.map((event, index) => (index < 4 ? event : { ...event, delayMs: 60_000 }));
    const { server, model } = await startAnthropic({ format: 'sse', events: slow });
    const controller = new AbortController();
    const stream = model.chatStream([Message.user('Hi')], [], { signal: controller.signal });
    await stream.next();
    controller.abort(new Error('user cancelled'));
    await expect(stream.next()).rejects.toThrow('user cancelled');
    expect(await server.requests[0]?.outcome).toBe('disconnected');
  });
});
