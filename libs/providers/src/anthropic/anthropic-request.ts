/**
 * The Messages API body for one request of a turn. Cache breakpoints go where the seed puts them: on
 * the system prompt (as one text block), on the last tool definition and on the last cacheable block of
 * the last two messages, four in all (the API's limit).
 */
import { type ModelRequest, type ToolDefinition } from '@helios/core';
import { type AnthropicRequestOptions } from './anthropic-options.js';
import { type Block, systemText, type WireMessage, wireMessages } from './anthropic-messages.js';
import { cacheControl, type CachePolicy } from './cache-policy.js';

/** Breakpoints on the conversation itself; with system and tools that makes the API's maximum of 4. */
const MESSAGE_BREAKPOINTS = 2;
/** Blocks the API does not let carry `cache_control`. */
const UNCACHEABLE = new Set(['thinking', 'redacted_thinking']);

export interface AnthropicBodyInput {
  readonly modelId: string;
  readonly options: AnthropicRequestOptions;
  readonly cachePolicy: CachePolicy;
  readonly request: ModelRequest;
  /** Content of a paused turn so far, sent back as the last assistant message to continue it. */
  readonly continuation: readonly Block[];
  /** Whether the model accepts earlier thinking back only under the prompt it was produced under. */
  readonly bindsThinkingToPrompt: boolean;
  /** `promptFingerprint` of this request's system prompt (as sent) and tools. */
  readonly fingerprint: string;
}

export function buildAnthropicBody(input: AnthropicBodyInput): Record<string, unknown> {
  const { request, options } = input;
  const cache = cacheControl(input.cachePolicy);
  const messages = wireMessages(
    request.messages,
    input.bindsThinkingToPrompt ? input.fingerprint : undefined,
  );
  if (input.continuation.length > 0) {
    messages.push({ role: 'assistant', content: structuredClone([...input.continuation]) });
  }
  if (cache !== undefined) markLastBlocks(messages, cache);
  const body: Record<string, unknown> = { model: input.modelId, max_tokens: options.maxTokens };
  const system = systemPrompt(request);
  if (system !== '')
    body['system'] = cache === undefined ? system : [{ type: 'text', text: system, cache_control: cache }];
  body['messages'] = messages.map(compact);
  if (request.tools.length > 0) body['tools'] = anthropicTools(request.tools, cache);
  for (const [name, value] of Object.entries(options.fields)) {
    if (name === 'tool_choice' && request.tools.length === 0) continue; // nothing to choose from
    body[name] = value;
  }
  body['stream'] = true;
  return body;
}

function anthropicTools(
  tools: readonly ToolDefinition[],
  cache: Record<string, string> | undefined,
): Block[] {
  return tools.map((tool, index) => ({
    name: tool.name,
    description: tool.description,
    input_schema: tool.inputSchema,
    ...(cache !== undefined && index === tools.length - 1 ? { cache_control: cache } : {}),
  }));
}

function markLastBlocks(messages: WireMessage[], cache: Record<string, string>): void {
  for (const message of messages.slice(-MESSAGE_BREAKPOINTS)) {
    const block = message.content.findLast((candidate) => !UNCACHEABLE.has(String(candidate['type'])));
    if (block !== undefined) block['cache_control'] = cache;
  }
}

/** A single bare text block (no cache_control, no citations) is sent as a string, the API's shortest spelling. */
function compact(message: WireMessage): Record<string, unknown> {
  const [only] = message.content;
  const plain = message.content.length === 1 && only?.['type'] === 'text' && Object.keys(only).length === 2;
  return { role: message.role, content: plain ? only['text'] : message.content };
}

/**
 * The system prompt as sent. The Messages API has no JSON mode: the schema travels as an instruction in
 * the system prompt.
 */
export function systemPrompt(request: ModelRequest): string {
  const system = systemText(request.messages);
  if (request.schema === undefined) return system;
  const when =
    request.tools.length > 0 ? 'When you give your final answer (after any tool calls), answer' : 'Answer';
  const instruction = `${when} with only a JSON value matching this JSON Schema, without prose or code fences:\n${JSON.stringify(request.schema.jsonSchema)}`;
  return system === '' ? instruction : `${system}\n\n${instruction}`;
}
