import { describe, expect, it } from 'vitest';
import { Message } from '../model/message.js';
import { toolCall } from '../model/tool-call.js';
import { TokenCounter } from './token-counter.js';

describe('TokenCounter.charBased', () => {
  const counter = TokenCounter.charBased();

  it('counts ~4 characters per token plus 4 per message', () => {
    expect(counter.count([])).toBe(0);
    expect(counter.count([Message.user('')])).toBe(4);
    expect(counter.count([Message.user('abcd')])).toBe(5);
    expect(counter.count([Message.user('abcde')])).toBe(6);
    expect(counter.count([Message.system('abcd'), Message.user('abcd')])).toBe(10);
  });

  it('counts tool messages and tool-call names, ids and arguments', () => {
    expect(counter.count([Message.tool('id', 'name', 'xy')])).toBe(4 + 2);
    const call = toolCall('id', 'nm', { k: 'vv', n: 12, o: { a: 1 } });
    // id 2 + name 2 + k 1 + vv 2 + n 1 + "12" 2 + o 1 + '{"a":1}' 7 = 18 → 5 tokens
    expect(counter.count([Message.assistant('', { toolCalls: [call] })])).toBe(4 + 5);
    expect(
      counter.count([Message.assistant('', { toolCalls: [toolCall('i', 'n', { u: undefined })] })]),
    ).toBe(4 + 1);
  });

  it('takes another ratio and refuses a bad one', () => {
    expect(TokenCounter.charBased(1).count([Message.user('abc')])).toBe(7);
    expect(() => TokenCounter.charBased(0)).toThrow(/charsPerToken/);
  });
});
