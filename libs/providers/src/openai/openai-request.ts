/**
 * The Responses API request body for one turn: `instructions` from the system messages, `input` items
 * from the rest, function tools, structured output as `text.format`, and the fields the config fixed.
 * Nothing the config left unset is sent (the API's defaults apply).
 */
import {
  InvalidArgumentError,
  type Message,
  type ModelRequest,
  type OutputSchema,
  type ToolDefinition,
  type UserMessage,
} from '@helios/core';
import { isRecord } from '../shared/error-mapping.js';
import { base64Of } from '../shared/inline-data.js';
import { type OpenAiRequestOptions } from './openai-options.js';

type Json = Record<string, unknown>;

export function buildOpenAiBody(modelId: string, options: OpenAiRequestOptions, request: ModelRequest): Json {
  const body: Json = { model: modelId, input: request.messages.flatMap(inputItems), stream: true };
  const system = request.messages.flatMap((message) => (message.role === 'system' ? [message.content] : []));
  if (system.length > 0) body['instructions'] = system.join('\n\n');
  if (request.tools.length > 0) {
    body['tools'] = request.tools.map(functionTool);
    if (options.toolChoice !== undefined) body['tool_choice'] = options.toolChoice;
  }
  Object.assign(body, options.fields);
  if (request.schema !== undefined) body['text'] = { format: jsonSchemaFormat(request.schema) };
  return body;
}

function functionTool(tool: ToolDefinition): Json {
  return { type: 'function', name: tool.name, description: tool.description, parameters: tool.inputSchema };
}

function inputItems(message: Message): Json[] {
  switch (message.role) {
    case 'system':
      return []; // sent as `instructions`
    case 'user':
      return [{ type: 'message', role: 'user', content: userContent(message) }];
    case 'assistant': {
      const items: Json[] = [];
      if (message.content !== '' || message.toolCalls.length === 0) {
        items.push({
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: message.content }],
        });
      }
      for (const call of message.toolCalls) {
        items.push({
          type: 'function_call',
          call_id: call.id,
          name: call.name,
          arguments: JSON.stringify(call.arguments),
        });
      }
      return items;
    }
    case 'tool':
      return [{ type: 'function_call_output', call_id: message.toolCallId, output: message.content }];
  }
}

/** Plain text, or parts when files travel with it (the text last, after what it talks about). */
function userContent(message: UserMessage): string | Json[] {
  if (message.fileReferences.length > 0) {
    throw new InvalidArgumentError('openai: file references are not supported; send inline files');
  }
  if (message.inlineFiles.length === 0) return message.content;
  const parts: Json[] = message.inlineFiles.map((file) => {
    const dataUrl = `data:${file.mimeType};base64,${base64Of(file)}`;
    if (file.mimeType.startsWith('image/')) return { type: 'input_image', image_url: dataUrl };
    return { type: 'input_file', filename: file.name ?? 'attachment', file_data: dataUrl };
  });
  if (message.content !== '') parts.push({ type: 'input_text', text: message.content });
  return parts;
}

/**
 * Strict mode when the schema allows it: every object closed (`additionalProperties: false` added where
 * absent) and every property required. A schema with an open map or an optional property is sent
 * unchanged with `strict: false`, since strict mode would reject it.
 */
function jsonSchemaFormat(schema: OutputSchema<unknown>): Json {
  const strict = strictSchema(schema.jsonSchema);
  return strict === undefined
    ? { type: 'json_schema', name: schema.name, schema: schema.jsonSchema, strict: false }
    : { type: 'json_schema', name: schema.name, schema: strict, strict: true };
}

function strictSchema(node: unknown): unknown {
  if (Array.isArray(node)) {
    const items = node.map(strictSchema);
    return items.includes(undefined) ? undefined : items;
  }
  if (!isRecord(node)) return node;
  const additional = node['additionalProperties'];
  if (additional !== undefined && additional !== false) return undefined;
  const result: Json = {};
  for (const [key, value] of Object.entries(node)) {
    // Under `properties` the keys are names, not keywords; an object named like one is still a schema.
    const converted = key === 'properties' && isRecord(value) ? strictProperties(value) : strictSchema(value);
    if (converted === undefined) return undefined;
    result[key] = converted;
  }
  if (isRecord(node['properties'])) {
    const names = Object.keys(node['properties']);
    const required = Array.isArray(node['required']) ? (node['required'] as unknown[]) : [];
    if (names.some((name) => !required.includes(name))) return undefined;
  }
  if (node['type'] === 'object' && additional === undefined) result['additionalProperties'] = false;
  return result;
}

function strictProperties(properties: Json): Json | undefined {
  const result: Json = {};
  for (const [name, value] of Object.entries(properties)) {
    const converted = strictSchema(value);
    if (converted === undefined) return undefined;
    result[name] = converted;
  }
  return result;
}
