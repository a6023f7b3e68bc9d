import {
  Message,
  Reasoning,
  ReasoningDisplay,
  ReasoningLevel,
  ToolChoice,
  Usage,
  inlineFile,
  toolDefinition,
} from '@helios/core';
import { afterEach, describe, expect, it } from 'vitest';
import { CachePolicy } from '../src/anthropic/cache-policy.js';
import { startAnthropic, stopAnthropic } from './support/anthropic-server.js';
import { sseResponse } from './support/fixtures.js';

const P = 'anthropic';
const lookup = toolDefinition({
  name: 'lookup',
  description: 'Find a fact',
  inputSchema: { type: 'object' },
});
const weather = toolDefinition({
  name: 'get_weather',
  description: 'Current weather for a city',
  inputSchema: { type: 'object', properties: { city: { type: 'string' } } },
});

afterEach(stopAnthropic);

describe('anthropic request body', () => {
  it('places cache breakpoints on system, the last tool and the last block of the last two messages', async () => {
    const { server, model } = await startAnthropic(sseResponse(P, 'plain-text'), {
      cachePolicy: CachePolicy.longLived(),
      reasoning: Reasoning.effort(ReasoningLevel.HIGH, ReasoningDisplay.SUMMARY),
      toolChoice: ToolChoice.auto(),
    });
    await model.chat(
      [
        Message.system('You are terse.'),
        Message.system('Answer in English.'),
        Message.user('First question'),
        Message.assistant('First answer'),
        Message.user('Second question'),
      ],
      [lookup, weather],
    );
    const ttl = { type: 'ephemeral', ttl: '1h' };
    expect(server.requests[0]?.json()).toEqual({
      model: 'claude-opus-5',
      max_tokens: 131_072,
      system: [{ type: 'text', text: 'You are terse.\n\nAnswer in English.', cache_control: ttl }],
      messages: [
        { role: 'user', content: 'First question' },
        { role: 'assistant', content: [{ type: 'text', text: 'First answer', cache_control: ttl }] },
        { role: 'user', content: [{ type: 'text', text: 'Second question', cache_control: ttl }] },
      ],
      tools: [
        { name: 'lookup', description: 'Find a fact', input_schema: { type: 'object' } },
        {
          name: 'get_weather',
          description: 'Current weather for a city',
          input_schema: weather.inputSchema,
          cache_control: ttl,
        },
      ],
      thinking: { type: 'adaptive', display: 'summarized' },
      output_config: { effort: 'high' },
      tool_choice: { type: 'auto' },
      stream: true,
    });
  });

  it('sends no reasoning or cache field when none is asked for; the default cache is five minutes', async () => {
    const { server, model } = await startAnthropic(sseResponse(P, 'plain-text'), {
      cachePolicy: CachePolicy.shortLived(),
    });
    await model.chat([Message.user('Hi')]);
    expect(server.requests[0]?.json()).toEqual({
      model: 'claude-opus-5',
      max_tokens: 131_072,
      messages: [
        { role: 'user', content: [{ type: 'text', text: 'Hi', cache_control: { type: 'ephemeral' } }] },
      ],
      stream: true,
    });
  });

  it('spells Off per model and sends PROGRESS display with its beta header', async () => {
    const off = await startAnthropic(sseResponse(P, 'plain-text'), { reasoning: Reasoning.off() });
    await off.model.chat([Message.user('Hi')]);
    expect(off.server.requests[0]?.json()).toMatchObject({ thinking: { type: 'disabled' } });

    const progress = await startAnthropic(sseResponse(P, 'plain-text'), {
      modelId: 'claude-opus-5-5',
      reasoning: Reasoning.effort(ReasoningLevel.MAX, ReasoningDisplay.PROGRESS),
    });
    await progress.model.chat([Message.user('Hi')]);
    const request = progress.server.requests[0];
    expect(request?.json()).toMatchObject({
      thinking: { type: 'adaptive', display: 'updates' },
      output_config: { effort: 'max' },
    });
    expect(request?.headers['anthropic-beta']).toBe('thinking-display-updates-2026-08-18');
  });

  it('sends budget thinking and the sampling option a budget model accepts', async () => {
    const { server, model } = await startAnthropic(sseResponse(P, 'plain-text'), {
      modelId: 'claude-haiku-4-5',
      topP: 0.9,
      reasoning: Reasoning.effort(ReasoningLevel.LOW, ReasoningDisplay.SUMMARY),
    });
    await model.chat([Message.user('Hi')]);
    const body = server.requests[0]?.json() as Record<string, unknown>;
    expect(body['thinking']).toEqual({ type: 'enabled', budget_tokens: 4096 });
    expect(body['top_p']).toBe(0.9);
    expect(body).not.toHaveProperty('temperature');
    expect(body).not.toHaveProperty('output_config');
  });

  it('sends an unknown model id as given, with no temperature unless asked', async () => {
    const { server, model } = await startAnthropic(sseResponse(P, 'plain-text'), {
      modelId: 'claude-next-preview',
    });
    await model.chat([Message.user('Hi')]);
    expect(server.requests[0]?.json()).toMatchObject({ model: 'claude-next-preview', max_tokens: 32_000 });
    expect(server.requests[0]?.json()).not.toHaveProperty('temperature');
  });

  it('sends images and PDFs as base64 sources before the text', async () => {
    const { server, model } = await startAnthropic(sseResponse(P, 'plain-text'));
    const png = inlineFile(new Uint8Array([0x89, 0x50, 0x4e, 0x47]), 'image/png');
    const pdf = inlineFile(new Uint8Array([0x25, 0x50, 0x44, 0x46]), 'application/pdf', 'report.pdf');
    await model.chat([Message.user('Describe these', { inlineFiles: [png, pdf] })]);
    expect((server.requests[0]?.json() as { messages: unknown }).messages).toEqual([
      {
        role: 'user',
        content: [
          { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'iVBORw==' } },
          {
            type: 'document',
            source: { type: 'base64', media_type: 'application/pdf', data: 'JVBERg==' },
            title: 'report.pdf',
          },
          { type: 'text', text: 'Describe these' },
        ],
      },
    ]);
  });

  it('replays a thinking turn byte for byte, tool calls and results included', async () => {
    const { server, model } = await startAnthropic([
      sseResponse(P, 'thinking-signature'),
      sseResponse(P, 'plain-text'),
      sseResponse(P, 'plain-text'),
    ]);
    const first = await model.chat([Message.user('27 * 453?')]);
    const rawContent = first.metadata['anthropic.rawContent'] as string;
    const replayed = Message.assistant(first.content, {
      metadata: first.metadata,
      ...(first.thinking ? { thinking: first.thinking } : {}),
    });
    await model.chat([Message.user('27 * 453?'), replayed, Message.user('And doubled?')]);
    const sent = JSON.parse(server.requests[1]?.body ?? '') as { messages: { content: unknown }[] };
    expect(JSON.stringify(sent.messages[1]?.content)).toBe(rawContent);

    const signedOnly = Message.assistant('', {
      toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: { q: 'x' } }],
      metadata: {
        'anthropic.thinkingBlocks': JSON.stringify([{ text: 'Plan: look it up.', signature: 'sig==' }]),
      },
    });
    await model.chat(
      [
        Message.user('Look it up'),
        signedOnly,
        Message.tool('toolu_1', 'lookup', '42'),
        Message.tool('toolu_1', 'lookup', '43'),
      ],
      [lookup],
    );
    const third = server.requests[2]?.json() as { messages: unknown[] };
    expect(third.messages.slice(1)).toEqual([
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: 'Plan: look it up.', signature: 'sig==' },
          { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '42' },
          { type: 'tool_result', tool_use_id: 'toolu_1', content: '43' },
        ],
      },
    ]);
  });

  it('continues a pause_turn with the paused content and reports one merged turn', async () => {
    const { server, model } = await startAnthropic([
      sseResponse(P, 'pause-turn-first'),
      sseResponse(P, 'pause-turn-second'),
    ]);
    const response = await model.chat([Message.user('Search the news')]);
    expect(response.content).toBe('Searching. Found it.');
    expect(response.usage).toEqual(Usage.of(230, 25));
    expect(response.metadata['anthropic.stopReason']).toBe('end_turn');
    expect(JSON.parse(response.metadata['anthropic.rawContent'] ?? '')).toEqual([
      { type: 'text', text: 'Searching. ' },
      { type: 'text', text: 'Found it.' },
    ]);
    expect((server.requests[1]?.json() as { messages: unknown }).messages).toEqual([
      { role: 'user', content: 'Search the news' },
      { role: 'assistant', content: 'Searching. ' },
    ]);
  });
});
