/**
 * The Chat Completions request body for one turn: messages, tools and the sampling options the config
 * set, and nothing the config left unset (the server's defaults apply).
 */
import {
  InvalidArgumentError,
  type Message,
  type ModelConfig,
  type ModelRequest,
  type ToolDefinition,
  type UserMessage,
} from '@helios/core';
import { base64Of } from '../shared/inline-data.js';
import { chatReasoningEffort, chatToolChoice } from './chat-options.js';

type Json = Record<string, unknown>;

export function buildChatRequest(modelId: string, config: ModelConfig, request: ModelRequest): Json {
  const body: Json = {
    model: modelId,
    messages: request.messages.map(chatMessage),
    stream: true,
    stream_options: { include_usage: true },
  };
  if (request.tools.length > 0) body['tools'] = request.tools.map(chatTool);
  const toolChoice = config.toolChoice && chatToolChoice(config.toolChoice);
  if (toolChoice !== undefined && request.tools.length > 0) body['tool_choice'] = toolChoice;
  if (config.maxOutputTokens !== undefined) body['max_tokens'] = config.maxOutputTokens;
  if (config.temperature !== undefined) body['temperature'] = config.temperature;
  if (config.topP !== undefined) body['top_p'] = config.topP;
  if (config.stopSequences !== undefined) body['stop'] = config.stopSequences;
  if (config.seed !== undefined) body['seed'] = config.seed;
  if (config.reasoning !== undefined) body['reasoning_effort'] = chatReasoningEffort(config.reasoning);
  if (request.schema !== undefined) {
    body['response_format'] = {
      type: 'json_schema',
      json_schema: { name: request.schema.name, schema: request.schema.jsonSchema },
    };
  }
  return body;
}

function chatTool(tool: ToolDefinition): Json {
  return {
    type: 'function',
    function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
  };
}

function chatMessage(message: Message): Json {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      return { role: 'user', content: userContent(message) };
    case 'assistant': {
      const json: Json = { role: 'assistant', content: message.content === '' ? null : message.content };
      if (message.toolCalls.length > 0) {
        json['tool_calls'] = message.toolCalls.map((call) => ({
          id: call.id,
          type: 'function',
          function: { name: call.name, arguments: JSON.stringify(call.arguments) },
        }));
      }
      return json;
    }
    case 'tool':
      return { role: 'tool', tool_call_id: message.toolCallId, content: message.content };
  }
}

/** Plain text, or parts when images travel with it (the text last, after what it talks about). */
function userContent(message: UserMessage): string | Json[] {
  if (message.fileReferences.length > 0) {
    throw new InvalidArgumentError('openai-compatible: file references are not supported; send inline files');
  }
  if (message.inlineFiles.length === 0) return message.content;
  const parts: Json[] = message.inlineFiles.map((file) => {
    if (!file.mimeType.startsWith('image/')) {
      throw new InvalidArgumentError(
        `openai-compatible: inline files must be images, got '${file.mimeType}'`,
      );
    }
    return { type: 'image_url', image_url: { url: `data:${file.mimeType};base64,${base64Of(file)}` } };
  });
  if (message.content !== '') parts.push({ type: 'text', text: message.content });
  return parts;
}
