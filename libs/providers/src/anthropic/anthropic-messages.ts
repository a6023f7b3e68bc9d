/**
 * Core messages as Messages API `system` + `messages`. An assistant turn that carries its raw content
 * blocks in metadata (`anthropic.rawContent`) is sent back exactly as received, and signed thinking
 * (`anthropic.thinkingBlocks`) is replayed with its signatures: both are bound to what the model wrote.
 * On a model that binds thinking to its prompt, a turn produced under another prompt goes without its
 * thinking (anthropic-prompt-binding.ts).
 */
import {
  type AssistantMessage,
  InvalidArgumentError,
  type InlineFile,
  type Message,
  type ToolMessage,
  type UserMessage,
} from '@helios/core';
import { isRecord } from '../shared/error-mapping.js';
import { base64Of } from '../shared/inline-data.js';
import { METADATA } from './anthropic-metadata.js';
import { isThinkingBlock, keepsThinking } from './anthropic-prompt-binding.js';

export type Block = Record<string, unknown>;

export interface WireMessage {
  readonly role: 'user' | 'assistant';
  readonly content: Block[];
}

/** All system messages joined by a blank line. */
export function systemText(messages: readonly Message[]): string {
  return messages.flatMap((message) => (message.role === 'system' ? [message.content] : [])).join('\n\n');
}

/**
 * The conversation without system messages; consecutive tool results share one user message.
 * `boundTo`: the request's prompt fingerprint when the model binds thinking to its prompt; assistant
 * turns recorded under another fingerprint are sent without their thinking.
 */
export function wireMessages(messages: readonly Message[], boundTo?: string): WireMessage[] {
  const wire: WireMessage[] = [];
  let results: Block[] | undefined;
  for (const message of messages) {
    if (message.role === 'tool') {
      if (results === undefined) {
        results = [];
        wire.push({ role: 'user', content: results });
      }
      results.push(toolResult(message));
      continue;
    }
    results = undefined;
    if (message.role === 'user') wire.push({ role: 'user', content: userBlocks(message) });
    else if (message.role === 'assistant')
      wire.push({ role: 'assistant', content: assistantBlocks(message, keepsThinking(message, boundTo)) });
  }
  return wire;
}

function toolResult(message: ToolMessage): Block {
  return { type: 'tool_result', tool_use_id: message.toolCallId, content: message.content };
}

/** Attachments first, the text last (after what it talks about). */
function userBlocks(message: UserMessage): Block[] {
  if (message.fileReferences.length > 0) {
    throw new InvalidArgumentError('anthropic: file references are not supported yet; send inline files');
  }
  const blocks = message.inlineFiles.map(fileBlock);
  if (message.content !== '' || blocks.length === 0) blocks.push({ type: 'text', text: message.content });
  return blocks;
}

function fileBlock(file: InlineFile): Block {
  const source = { type: 'base64', media_type: file.mimeType, data: base64Of(file) };
  if (file.mimeType.startsWith('image/')) return { type: 'image', source };
  if (file.mimeType === 'application/pdf') {
    return { type: 'document', source, ...(file.name === undefined ? {} : { title: file.name }) };
  }
  throw new InvalidArgumentError(
    `anthropic: inline files must be images or application/pdf, got '${file.mimeType}'`,
  );
}

/** Text, tool calls and server-tool blocks always go back; thinking only when `withThinking`. */
function assistantBlocks(message: AssistantMessage, withThinking: boolean): Block[] {
  const raw = message.metadata[METADATA.rawContent];
  if (raw !== undefined) {
    const blocks = parseBlocks(raw);
    return withThinking ? blocks : orEmptyText(blocks.filter((block) => !isThinkingBlock(block)));
  }
  const blocks: Block[] = [];
  const signed = message.metadata[METADATA.thinkingBlocks];
  if (signed !== undefined && withThinking) {
    for (const block of parseBlocks(signed)) {
      blocks.push({ type: 'thinking', thinking: block['text'], signature: block['signature'] });
    }
  }
  if (message.content !== '') blocks.push({ type: 'text', text: message.content });
  for (const call of message.toolCalls) {
    blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: call.arguments });
  }
  return orEmptyText(blocks);
}

/** An assistant turn with nothing to send back still takes its place in the conversation. */
function orEmptyText(blocks: Block[]): Block[] {
  if (blocks.length === 0) blocks.push({ type: 'text', text: '' });
  return blocks;
}

function parseBlocks(json: string): Block[] {
  const parsed = JSON.parse(json) as unknown;
  if (!Array.isArray(parsed) || !parsed.every(isRecord)) {
    throw new InvalidArgumentError('anthropic: assistant metadata does not hold a JSON array of blocks');
  }
  return parsed;
}
