import { describe, expect, it } from 'vitest';
import { fileReference, inlineFile } from './attachments.js';
import { FinishReason, parseFinishReason } from './finish-reason.js';
import { Message } from './message.js';
import { Reasoning } from './reasoning.js';
import { responseToMessage } from './response.js';
import { toolCall } from './tool-call.js';
import { ToolChoice } from './tool-choice.js';
import { Usage } from './usage.js';

describe('Usage', () => {
  it('keeps four disjoint classes and totals them', () => {
    const usage = Usage.of(100, 20, { cacheWriteTokens: 30, cacheReadTokens: 40 });
    expect(usage).toEqual({
      inputTokens: 100,
      outputTokens: 20,
      cacheWriteTokens: 30,
      cacheReadTokens: 40,
      totalTokens: 190,
    });
    expect(Usage.of(1, 2).totalTokens).toBe(3);
  });

  it('adds class by class and refuses negatives and overflow', () => {
    expect(
      Usage.plus(
        Usage.of(1, 2, { cacheWriteTokens: 3, cacheReadTokens: 4 }),
        Usage.of(10, 20, { cacheWriteTokens: 30, cacheReadTokens: 40 }),
      ).totalTokens,
    ).toBe(110);
    expect(() => Usage.of(-1, 0)).toThrow(/inputTokens/);
    expect(() => Usage.of(1.5, 0)).toThrow(/inputTokens/);
    expect(() => Usage.plus(Usage.of(Number.MAX_SAFE_INTEGER, 0), Usage.of(1, 0))).toThrow(/safe integer/);
    expect(Usage.ZERO.totalTokens).toBe(0);
  });
});

describe('FinishReason', () => {
  it('parses known names and reads unknown ones as STOP', () => {
    expect(parseFinishReason('TOOL_CALLS')).toBe(FinishReason.TOOL_CALLS);
    expect(parseFinishReason('REFUSAL')).toBe('REFUSAL');
    expect(parseFinishReason('end_turn')).toBe('STOP');
  });
});

describe('Message', () => {
  it('builds each role as a frozen value', () => {
    const call = toolCall('call-1', 'get_weather', { city: 'Paris' });
    const png = inlineFile(new Uint8Array([1, 2]), 'image/png');
    const video = fileReference('files/abc', 'video/mp4');
    expect(Message.system('be brief')).toEqual({ role: 'system', content: 'be brief' });
    const user = Message.user('look', { inlineFiles: [png], fileReferences: [video] });
    expect(user.inlineFiles).toEqual([png]);
    expect(user.fileReferences[0]?.uri).toBe('files/abc');
    expect(Message.user('hi').inlineFiles).toEqual([]);
    const assistant = Message.assistant('', {
      toolCalls: [call],
      thinking: 'hmm',
      metadata: { 'anthropic.sig': 'x' },
    });
    expect(assistant).toMatchObject({
      role: 'assistant',
      thinking: 'hmm',
      metadata: { 'anthropic.sig': 'x' },
    });
    expect(Message.assistant('done')).not.toHaveProperty('thinking');
    expect(Message.tool('call-1', 'get_weather', '72°F')).toEqual({
      role: 'tool',
      toolCallId: 'call-1',
      toolName: 'get_weather',
      content: '72°F',
    });
    expect(Object.isFrozen(assistant)).toBe(true);
  });

  it('refuses blank ids, empty files and blank mime types', () => {
    expect(() => Message.tool(' ', 'x', 'y')).toThrow(/toolCallId/);
    expect(() => toolCall('id', '')).toThrow(/tool name/);
    expect(() => inlineFile(new Uint8Array(), 'image/png')).toThrow(/empty/);
    expect(() => fileReference('files/x', '')).toThrow(/mimeType/);
    expect(toolCall('id', 'n').arguments).toEqual({});
  });

  it('turns a response into the assistant message that replays it', () => {
    const message = responseToMessage({
      content: 'hi',
      parsed: undefined,
      toolCalls: [],
      finishReason: 'STOP',
      usage: Usage.ZERO,
      thinking: 'th',
      citations: [],
      metadata: { 'gemini.interactionId': 'i-1' },
    });
    expect(message).toMatchObject({
      role: 'assistant',
      content: 'hi',
      thinking: 'th',
      metadata: { 'gemini.interactionId': 'i-1' },
    });
  });
});

describe('Reasoning and ToolChoice', () => {
  it('describes reasoning', () => {
    expect(Reasoning.describe(Reasoning.off())).toBe('Off');
    expect(Reasoning.describe(Reasoning.effort('MAX'))).toBe('Effort(MAX, HIDDEN)');
  });

  it('builds tool choices', () => {
    expect(ToolChoice.auto()).toEqual({ type: 'Auto' });
    expect(ToolChoice.any().type).toBe('Any');
    expect(ToolChoice.none().type).toBe('None');
    expect(ToolChoice.required(['a', 'a', 'b'])).toEqual({ type: 'Required', allowedTools: ['a', 'b'] });
    expect(() => ToolChoice.required([])).toThrow(/at least one/);
  });
});
