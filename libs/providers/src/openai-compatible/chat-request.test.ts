import {
  inlineFile,
  Message,
  ModelConfig,
  Reasoning,
  ReasoningLevel,
  ToolChoice,
  type ModelRequest,
  type ToolDefinition,
} from '@helios/core';
import { describe, expect, it } from 'vitest';
import { checkChatConfig } from './chat-options.js';
import { buildChatRequest } from './chat-request.js';

const tool: ToolDefinition = { name: 'Read', description: 'read a file', inputSchema: { type: 'object' } };
const request = (
  messages: ModelRequest['messages'],
  tools: readonly ToolDefinition[] = [],
): ModelRequest => ({
  messages,
  tools,
});

describe('Chat Completions request', () => {
  it('spells every tool choice and Off reasoning', () => {
    const body = (toolChoice: ToolChoice) =>
      buildChatRequest('m', ModelConfig.create({ toolChoice }), request([Message.user('hi')], [tool]));
    expect(body(ToolChoice.auto())['tool_choice']).toBe('auto');
    expect(body(ToolChoice.any())['tool_choice']).toBe('required');
    expect(body(ToolChoice.none())['tool_choice']).toBe('none');
    expect(body(ToolChoice.required(['Read']))['tool_choice']).toEqual({
      type: 'function',
      function: { name: 'Read' },
    });
    const off = buildChatRequest(
      'm',
      ModelConfig.create({ reasoning: Reasoning.off() }),
      request([Message.user('hi')]),
    );
    expect(off['reasoning_effort']).toBe('none');
    const low = buildChatRequest(
      'm',
      ModelConfig.create({
        reasoning: Reasoning.effort(ReasoningLevel.LOW),
        temperature: 0.2,
        topP: 0.9,
        seed: 7,
        stopSequences: ['END'],
      }),
      request([Message.user('hi')]),
    );
    expect(low).toMatchObject({
      reasoning_effort: 'low',
      temperature: 0.2,
      top_p: 0.9,
      seed: 7,
      stop: ['END'],
    });
  });

  it('sends images as data URLs beside the text, and refuses what it cannot carry', () => {
    const image = inlineFile(new Uint8Array([1, 2, 3]), 'image/png');
    const body = buildChatRequest(
      'm',
      ModelConfig.create({}),
      request([Message.user('what is this?', { inlineFiles: [image] })]),
    );
    expect((body['messages'] as unknown[])[0]).toEqual({
      role: 'user',
      content: [
        { type: 'image_url', image_url: { url: 'data:image/png;base64,AQID' } },
        { type: 'text', text: 'what is this?' },
      ],
    });
    const pdf = inlineFile(new Uint8Array([1]), 'application/pdf');
    expect(() =>
      buildChatRequest('m', ModelConfig.create({}), request([Message.user('x', { inlineFiles: [pdf] })])),
    ).toThrow(/inline files must be images, got 'application\/pdf'/);
  });

  it('refuses options Chat Completions has no field for, naming the accepted ones', () => {
    expect(() =>
      checkChatConfig('m', ModelConfig.create({ toolChoice: ToolChoice.required(['a', 'b']) })),
    ).toThrow(/toolChoice Required\(a, b\); accepted: Auto, Any, None, Required\(<one tool>\)/);
    expect(() => checkChatConfig('m', ModelConfig.create({ apiVersion: 'v2' }))).toThrow(/apiVersion v2/);
  });
});
