/**
 * The Interactions API request body for one turn. With provider continuation, an earlier assistant
 * message that carries an interaction id created under the same system instruction and tool set lets
 * the request send only the turns after it plus `previous_interaction_id`; otherwise the whole local
 * history goes, thought signatures replayed as `thought` steps.
 */
import {
  type AssistantMessage,
  type FileReference,
  type InlineFile,
  type Message,
  type ModelRequest,
  type ToolDefinition,
  type UserMessage,
} from '@helios/core';
import { base64Of } from '../shared/inline-data.js';
import { GEMINI_METADATA, SIGNATURE_SEPARATOR } from './gemini-metadata.js';
import { type GeminiRequestOptions } from './gemini-options.js';

type Json = Record<string, unknown>;

export interface GeminiBodyInput {
  readonly modelId: string;
  readonly options: GeminiRequestOptions;
  readonly request: ModelRequest;
  /** Continue from this interaction, sending only `newMessages`. */
  readonly continuation?: Continuation;
  /** Provider continuation off: ask the API not to store the interaction. */
  readonly stateless: boolean;
}

export interface Continuation {
  readonly interactionId: string;
  readonly newMessages: readonly Message[];
}

export function buildGeminiBody(input: GeminiBodyInput): Json {
  const { request, options, continuation } = input;
  const messages = continuation?.newMessages ?? request.messages;
  const body: Json = { model: input.modelId, input: messages.flatMap(steps), stream: true };
  if (continuation !== undefined) body['previous_interaction_id'] = continuation.interactionId;
  if (input.stateless) body['store'] = false;
  const system = systemInstruction(request.messages);
  if (system !== undefined) body['system_instruction'] = system;
  const generation: Json = { ...options.generation };
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map(functionTool);
    if (options.toolChoice !== undefined) generation['tool_choice'] = options.toolChoice;
  }
  if (Object.keys(generation).length > 0) body['generation_config'] = generation;
  if (request.schema !== undefined) {
    body['response_format'] = {
      type: 'text',
      mime_type: 'application/json',
      schema: request.schema.jsonSchema,
    };
  }
  return body;
}

/**
 * Where continuation may start: the latest assistant message with an interaction id, when it was
 * created under `digest` and only user and tool turns follow it. Anything else means a full resend.
 */
export function findContinuation(messages: readonly Message[], digest: string): Continuation | undefined {
  for (let index = messages.length - 1; index >= 0; index -= 1) {
    const message = messages[index] as Message;
    if (message.role !== 'assistant') continue;
    const interactionId = message.metadata[GEMINI_METADATA.interactionId];
    if (interactionId === undefined || message.metadata[GEMINI_METADATA.contextDigest] !== digest) {
      return undefined;
    }
    const newMessages = messages.slice(index + 1).filter((next) => next.role !== 'system');
    return newMessages.length === 0 ? undefined : { interactionId, newMessages };
  }
  return undefined;
}

/** A short fingerprint of what an interaction is bound to: the system instruction and the tool set. */
export function contextDigest(request: ModelRequest): string {
  const text = JSON.stringify([systemInstruction(request.messages) ?? null, request.tools.map(functionTool)]);
  return fnv1a64(text);
}

function systemInstruction(messages: readonly Message[]): string | undefined {
  const system = messages.flatMap((message) => (message.role === 'system' ? [message.content] : []));
  return system.length === 0 ? undefined : system.join('\n\n');
}

function functionTool(tool: ToolDefinition): Json {
  return { type: 'function', name: tool.name, description: tool.description, parameters: tool.inputSchema };
}

function steps(message: Message): Json[] {
  switch (message.role) {
    case 'system':
      return []; // sent as `system_instruction`
    case 'user':
      return [{ type: 'user_input', content: userContent(message) }];
    case 'assistant':
      return assistantSteps(message);
    case 'tool':
      return [
        {
          type: 'function_result',
          call_id: message.toolCallId,
          name: message.toolName,
          result: message.content,
        },
      ];
  }
}

/** Thought signatures first (they precede what they sign), then the text, then the calls. */
function assistantSteps(message: AssistantMessage): Json[] {
  const result: Json[] = [];
  const signatures = message.metadata[GEMINI_METADATA.thoughtSignatures];
  for (const signature of signatures === undefined ? [] : signatures.split(SIGNATURE_SEPARATOR)) {
    if (signature !== '') result.push({ type: 'thought', signature });
  }
  if (message.content !== '' || message.toolCalls.length === 0) {
    result.push({ type: 'model_output', content: [{ type: 'text', text: message.content }] });
  }
  for (const call of message.toolCalls) {
    result.push({ type: 'function_call', id: call.id, name: call.name, arguments: call.arguments });
  }
  return result;
}

/** Files first, the text last (after what it talks about). */
function userContent(message: UserMessage): Json[] {
  const content: Json[] = [
    ...message.inlineFiles.map(inlinePart),
    ...message.fileReferences.map(referencePart),
  ];
  if (message.content !== '' || content.length === 0) content.push({ type: 'text', text: message.content });
  return content;
}

function inlinePart(file: InlineFile): Json {
  return { type: mediaType(file.mimeType), data: base64Of(file), mime_type: file.mimeType };
}

function referencePart(file: FileReference): Json {
  return { type: mediaType(file.mimeType), uri: file.uri, mime_type: file.mimeType };
}

function mediaType(mimeType: string): string {
  const family = mimeType.slice(0, mimeType.indexOf('/'));
  return family === 'image' || family === 'audio' || family === 'video' ? family : 'document';
}

/** FNV-1a over UTF-16 code units, 64 bits as two 32-bit halves; enough to notice a change. */
function fnv1a64(text: string): string {
  let high = 0xcbf29ce4;
  let low = 0x84222325;
  for (let index = 0; index < text.length; index += 1) {
    low ^= text.charCodeAt(index);
    // multiply (high, low) by the 64-bit FNV prime 0x100000001b3
    const lowProduct = low * 0x1b3;
    const carry = Math.floor(lowProduct / 0x100000000);
    high = (Math.imul(high, 0x1b3) + Math.imul(low, 0x100) + carry) >>> 0;
    low = lowProduct >>> 0;
  }
  return `${high.toString(16).padStart(8, '0')}${low.toString(16).padStart(8, '0')}`;
}
