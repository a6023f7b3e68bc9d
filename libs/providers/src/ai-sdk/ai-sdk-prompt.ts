/**
 * Our request in the AI SDK's language-model specification (`@ai-sdk/provider`, V3): messages as its
 * prompt, tools as function tools, an output schema as a JSON response format. Nothing is dropped: a
 * message part the specification cannot carry (a file uploaded to another provider) is refused.
 */
import { InvalidArgumentError, type Message, type ModelRequest, type ToolDefinition } from '@helios/core';
import {
  type JSONSchema7,
  type LanguageModelV3CallOptions,
  type LanguageModelV3FunctionTool,
  type LanguageModelV3Message,
} from '@ai-sdk/provider';

export function callOptions(request: ModelRequest, signal: AbortSignal): LanguageModelV3CallOptions {
  return {
    prompt: request.messages.map(promptMessage),
    ...(request.tools.length === 0 ? {} : { tools: request.tools.map(functionTool) }),
    ...(request.schema === undefined
      ? {}
      : {
          responseFormat: {
            type: 'json' as const,
            schema: request.schema.jsonSchema as JSONSchema7,
            name: request.schema.name,
          },
        }),
    abortSignal: signal,
  };
}

function functionTool(tool: ToolDefinition): LanguageModelV3FunctionTool {
  return {
    type: 'function',
    name: tool.name,
    description: tool.description,
    inputSchema: tool.inputSchema as JSONSchema7,
  };
}

function promptMessage(message: Message): LanguageModelV3Message {
  switch (message.role) {
    case 'system':
      return { role: 'system', content: message.content };
    case 'user':
      if (message.fileReferences.length > 0) {
        throw new InvalidArgumentError(
          'ai-sdk: file references (files uploaded to a provider) cannot be sent through the AI SDK; send the bytes inline',
        );
      }
      return {
        role: 'user',
        content: [
          ...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]),
          ...message.inlineFiles.map((file) => ({
            type: 'file' as const,
            data: file.data,
            mediaType: file.mimeType,
            ...(file.name === undefined ? {} : { filename: file.name }),
          })),
        ],
      };
    case 'assistant':
      return {
        role: 'assistant',
        content: [
          ...(message.thinking === undefined ? [] : [{ type: 'reasoning' as const, text: message.thinking }]),
          ...(message.content === '' ? [] : [{ type: 'text' as const, text: message.content }]),
          ...message.toolCalls.map((call) => ({
            type: 'tool-call' as const,
            toolCallId: call.id,
            toolName: call.name,
            input: call.arguments,
          })),
        ],
      };
    case 'tool':
      return {
        role: 'tool',
        content: [
          {
            type: 'tool-result',
            toolCallId: message.toolCallId,
            toolName: message.toolName,
            output: { type: 'text', value: message.content },
          },
        ],
      };
  }
}
