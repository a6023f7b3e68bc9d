/**
 * A conversation message, one variant per role. Assistant metadata is provider data (signed thinking,
 * raw server-tool blocks, interaction ids) that must be replayed byte for byte, so it is kept verbatim.
 */
import { type FileReference, type InlineFile } from './attachments.js';
import { type ToolCall } from './tool-call.js';
import { requireNonBlank } from '../common/validate.js';

export const Role = {
  SYSTEM: 'system',
  USER: 'user',
  ASSISTANT: 'assistant',
  TOOL: 'tool',
} as const;

export type Role = (typeof Role)[keyof typeof Role];

export interface SystemMessage {
  readonly role: 'system';
  readonly content: string;
}

export interface UserMessage {
  readonly role: 'user';
  readonly content: string;
  readonly inlineFiles: readonly InlineFile[];
  readonly fileReferences: readonly FileReference[];
}

export interface AssistantMessage {
  readonly role: 'assistant';
  readonly content: string;
  readonly toolCalls: readonly ToolCall[];
  readonly thinking?: string;
  readonly metadata: Readonly<Record<string, string>>;
}

export interface ToolMessage {
  readonly role: 'tool';
  readonly toolCallId: string;
  readonly toolName: string;
  readonly content: string;
}

export type Message = SystemMessage | UserMessage | AssistantMessage | ToolMessage;

export interface UserAttachments {
  readonly inlineFiles?: readonly InlineFile[];
  readonly fileReferences?: readonly FileReference[];
}

export interface AssistantParts {
  readonly toolCalls?: readonly ToolCall[];
  readonly thinking?: string;
  readonly metadata?: Readonly<Record<string, string>>;
}

export const Message = {
  system(content: string): SystemMessage {
    return Object.freeze({ role: 'system', content });
  },
  user(content: string, attachments: UserAttachments = {}): UserMessage {
    return Object.freeze({
      role: 'user',
      content,
      inlineFiles: Object.freeze([...(attachments.inlineFiles ?? [])]),
      fileReferences: Object.freeze([...(attachments.fileReferences ?? [])]),
    });
  },
  assistant(content: string, parts: AssistantParts = {}): AssistantMessage {
    return Object.freeze({
      role: 'assistant',
      content,
      toolCalls: Object.freeze([...(parts.toolCalls ?? [])]),
      ...(parts.thinking === undefined ? {} : { thinking: parts.thinking }),
      metadata: Object.freeze({ ...parts.metadata }),
    });
  },
  tool(toolCallId: string, toolName: string, content: string): ToolMessage {
    return Object.freeze({
      role: 'tool',
      toolCallId: requireNonBlank(toolCallId, 'toolCallId'),
      toolName: requireNonBlank(toolName, 'toolName'),
      content,
    });
  },
} as const;
