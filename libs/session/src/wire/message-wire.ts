/**
 * Wire form of a conversation message, for session stores. Assistant metadata (signed thinking, raw
 * server-tool blocks) and tool-call arguments keep their keys, order and values, so a stored turn
 * replays to the provider exactly as it was received.
 */
import { type AssistantMessage, Message, type ToolMessage } from '@helios/core';
import { readToolCall, readUserMessage, toolCallToWire, userMessageToWire } from './content-wire.js';
import { type Wire } from './wire-type.js';
import { unknownVariant } from './wire-error.js';
import { ifPresent, readString, variantNames, WireObject } from './wire-object.js';

export type MessageWire = Wire<Message>;

export function messageToWire(message: Message): MessageWire {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return userMessageToWire(message);
    case 'assistant':
      return assistantToWire(message);
    case 'tool':
      return toolMessageToWire(message);
    default: {
      const unknown: never = message;
      throw unknownVariant('Message', unknown);
    }
  }
}

function assistantToWire(message: AssistantMessage): Wire<AssistantMessage> {
  return {
    role: 'assistant',
    content: message.content,
    toolCalls: message.toolCalls.map(toolCallToWire),
    ...ifPresent('thinking', message.thinking),
    metadata: { ...message.metadata },
  };
}

function toolMessageToWire(message: ToolMessage): Wire<ToolMessage> {
  return {
    role: 'tool',
    toolCallId: message.toolCallId,
    toolName: message.toolName,
    content: message.content,
  };
}

const ROLES = variantNames<Message['role']>({ system: true, user: true, assistant: true, tool: true });

export function readMessage(value: unknown, path: string): Message {
  const wire = WireObject.at(value, path);
  const role = wire.oneOf('role', ROLES);
  switch (role) {
    case 'system':
      return Message.system(wire.string('content'));
    case 'user':
      return readUserMessage(value, path);
    case 'assistant':
      return Message.assistant(wire.string('content'), {
        toolCalls: wire.array('toolCalls', readToolCall),
        ...ifPresent('thinking', wire.optional('thinking', readString)),
        metadata: wire.record('metadata', readString),
      });
    case 'tool':
      return Message.tool(wire.nonBlank('toolCallId'), wire.nonBlank('toolName'), wire.string('content'));
    default: {
      const unknown: never = role;
      throw unknownVariant('Message', unknown);
    }
  }
}
