/**
 * Wire forms of what messages and tools carry: ToolCall, ToolResult, UserMessage and their files. Inline
 * bytes travel as standard base64 beside their mimeType.
 */
import { Buffer } from 'node:buffer';
import {
  type FileReference,
  fileReference,
  type InlineFile,
  inlineFile,
  Message,
  type ToolCall,
  toolCall,
  ToolResult,
  type UserMessage,
} from '@helios/core';
import { type Wire } from './wire-type.js';
import { unknownVariant } from './wire-error.js';
import { ifPresent, readNonBlank, variantNames, WireObject } from './wire-object.js';

export function inlineFileToWire(file: InlineFile): Wire<InlineFile> {
  const data = Buffer.from(file.data.buffer, file.data.byteOffset, file.data.byteLength).toString('base64');
  return { type: 'InlineFile', data, mimeType: file.mimeType, ...ifPresent('name', file.name) };
}

export function readInlineFile(value: unknown, path: string): InlineFile {
  const wire = WireObject.at(value, path);
  wire.oneOf('type', ['InlineFile']);
  const bytes = new Uint8Array(Buffer.from(wire.base64('data'), 'base64'));
  return inlineFile(bytes, wire.nonBlank('mimeType'), wire.optional('name', readNonBlank));
}

export function fileReferenceToWire(file: FileReference): Wire<FileReference> {
  return { type: 'FileReference', uri: file.uri, mimeType: file.mimeType };
}

export function readFileReference(value: unknown, path: string): FileReference {
  const wire = WireObject.at(value, path);
  wire.oneOf('type', ['FileReference']);
  return fileReference(wire.nonBlank('uri'), wire.nonBlank('mimeType'));
}

export function userMessageToWire(message: UserMessage): Wire<UserMessage> {
  return {
    role: 'user',
    content: message.content,
    inlineFiles: message.inlineFiles.map(inlineFileToWire),
    fileReferences: message.fileReferences.map(fileReferenceToWire),
  };
}

export function readUserMessage(value: unknown, path: string): UserMessage {
  const wire = WireObject.at(value, path);
  wire.oneOf('role', ['user']);
  return Message.user(wire.string('content'), {
    inlineFiles: wire.array('inlineFiles', readInlineFile),
    fileReferences: wire.array('fileReferences', readFileReference),
  });
}

export function toolCallToWire(call: ToolCall): Wire<ToolCall> {
  return { id: call.id, name: call.name, arguments: { ...call.arguments } };
}

export function readToolCall(value: unknown, path: string): ToolCall {
  const wire = WireObject.at(value, path);
  return toolCall(wire.nonBlank('id'), wire.nonBlank('name'), wire.jsonObject('arguments'));
}

export function toolResultToWire(result: ToolResult): Wire<ToolResult> {
  const attachments = result.attachments.map(inlineFileToWire);
  switch (result.type) {
    case 'Success':
      return { type: 'Success', output: result.output, ...ifPresent('data', result.data), attachments };
    case 'Failure':
      return { type: 'Failure', output: result.output, attachments };
    default: {
      const unknown: never = result;
      throw unknownVariant('ToolResult', unknown);
    }
  }
}

const TOOL_RESULT_TYPES = variantNames<ToolResult['type']>({ Success: true, Failure: true });

export function readToolResult(value: unknown, path: string): ToolResult {
  const wire = WireObject.at(value, path);
  const type = wire.oneOf('type', TOOL_RESULT_TYPES);
  const output = wire.string('output');
  const attachments = wire.array('attachments', readInlineFile);
  switch (type) {
    case 'Success':
      return ToolResult.success(output, { data: wire.get('data'), attachments });
    case 'Failure':
      // ToolResult.failure takes no attachments; a failure read back keeps the ones it was written with.
      return Object.freeze({ ...ToolResult.failure(output), attachments });
    default: {
      const unknown: never = type;
      throw unknownVariant('ToolResult', unknown);
    }
  }
}
