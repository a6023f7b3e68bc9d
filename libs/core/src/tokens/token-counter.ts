/**
 * Estimates how many tokens messages take, for context-window accounting before a provider reports
 * real usage. The default counts characters (~4 per token) plus a fixed per-message overhead.
 */
import { requirePositiveInteger } from '../common/validate.js';
import { type Message } from '../model/message.js';

export interface TokenCounter {
  count(messages: readonly Message[]): number;
}

export const DEFAULT_CHARS_PER_TOKEN = 4;
/** Role markers and separators every provider adds around a message. */
export const MESSAGE_OVERHEAD_TOKENS = 4;

function messageChars(message: Message): number {
  switch (message.role) {
    case 'system':
    case 'user':
      return message.content.length;
    case 'tool':
      return message.content.length + message.toolCallId.length + message.toolName.length;
    case 'assistant': {
      let chars = message.content.length;
      for (const call of message.toolCalls) {
        chars += call.id.length + call.name.length;
        for (const [key, value] of Object.entries(call.arguments)) {
          chars += key.length + (typeof value === 'string' ? value : (JSON.stringify(value) ?? '')).length;
        }
      }
      return chars;
    }
    default: {
      const unknown: never = message;
      return unknown;
    }
  }
}

export const TokenCounter = {
  charBased(charsPerToken: number = DEFAULT_CHARS_PER_TOKEN): TokenCounter {
    requirePositiveInteger(charsPerToken, 'charsPerToken');
    return Object.freeze({
      count(messages: readonly Message[]): number {
        let total = 0;
        for (const message of messages) {
          total += Math.ceil(messageChars(message) / charsPerToken) + MESSAGE_OVERHEAD_TOKENS;
        }
        return total;
      },
    });
  },
} as const;
