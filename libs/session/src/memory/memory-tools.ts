/**
 * MemoryRead (READ: view a file or directory, or list every file under a prefix) and MemoryWrite
 * (WRITE: create, str_replace, insert, delete) on a MemoryBackend. Refusals come back as failed results
 * the model can read and correct; permission rules match the `path` argument (`/memories` if omitted).
 */
import { defineTool, type Tool, type ToolArguments, ToolResult } from '@helios/core';
import { argumentKey, bindTool, type ToolBinding } from '../tools/tool-binding.js';
import { MEMORY_EMPTY, type MemoryBackend } from './file-system-memory-backend.js';
import { MemoryError } from './memory-error.js';
import { MEMORIES } from './memory-path.js';

export const MEMORY_READ_TOOL = 'MemoryRead';
export const MEMORY_WRITE_TOOL = 'MemoryWrite';
/** MemoryWrite's operations. */
export const MEMORY_WRITE_OPS = ['create', 'str_replace', 'insert', 'delete'] as const;
export type MemoryWriteOp = (typeof MEMORY_WRITE_OPS)[number];

const PATH_DESCRIPTION = 'A memory path: /memories or a path below it, e.g. /memories/notes/project.md.';

export function memoryReadTool(backend: MemoryBackend): Tool {
  return defineTool({
    name: MEMORY_READ_TOOL,
    description:
      'Read your memory. Without list: view a memory file as numbered lines ("%6d<TAB>line") or a ' +
      'memory directory\'s entries (directories end in "/"). With list=true: every memory file at or ' +
      `below the path, sorted ("${MEMORY_EMPTY}" when there are none).`,
    idempotent: true,
    jsonSchema: {
      type: 'object',
      properties: {
        path: { type: 'string', description: PATH_DESCRIPTION },
        list: { type: 'boolean', description: 'List every file at or below path instead of viewing it.' },
      },
      required: ['path'],
    },
    execute: (args) => memoryRead(backend, args),
  });
}

export function memoryWriteTool(backend: MemoryBackend): Tool {
  return defineTool({
    name: MEMORY_WRITE_TOOL,
    description:
      'Change your memory. op=create writes a new file from content (never overwrites); ' +
      'op=str_replace replaces oldString, which must occur exactly once, with newString; op=insert ' +
      'inserts content so it starts at 1-based lineNumber (1 to lines+1); op=delete deletes a file.',
    jsonSchema: {
      type: 'object',
      properties: {
        op: { type: 'string', enum: [...MEMORY_WRITE_OPS], description: 'The operation.' },
        path: { type: 'string', description: PATH_DESCRIPTION },
        content: { type: 'string', description: 'create: the file text; insert: the lines to insert.' },
        oldString: { type: 'string', description: 'str_replace: the exact text to replace.' },
        newString: { type: 'string', description: 'str_replace: the replacement text.' },
        lineNumber: { type: 'integer', minimum: 1, description: 'insert: the 1-based line to insert at.' },
      },
      required: ['op', 'path'],
    },
    execute: (args) => memoryWrite(backend, args),
  });
}

/** MemoryRead (READ) and MemoryWrite (WRITE) on `backend`, keyed by their `path` argument. */
export function memoryToolBindings(backend: MemoryBackend): ToolBinding[] {
  const key = { permissionKey: argumentKey('path', MEMORIES) };
  return [bindTool(memoryReadTool(backend), 'READ', key), bindTool(memoryWriteTool(backend), 'WRITE', key)];
}

async function memoryRead(backend: MemoryBackend, args: ToolArguments): Promise<ToolResult> {
  const path = args['path'] as string;
  try {
    if (args['list'] !== true) return ToolResult.success(await backend.view(path));
    const files = await backend.list(path);
    return ToolResult.success(files.length === 0 ? MEMORY_EMPTY : files.join('\n'));
  } catch (error) {
    return refused(MEMORY_READ_TOOL, error);
  }
}

async function memoryWrite(backend: MemoryBackend, args: ToolArguments): Promise<ToolResult> {
  const path = args['path'] as string;
  const op = args['op'];
  try {
    switch (op) {
      case 'create':
        await backend.create(path, stringArgument(path, args, 'content'));
        return ToolResult.success(`created ${path}`);
      case 'str_replace':
        await backend.strReplace(
          path,
          stringArgument(path, args, 'oldString'),
          stringArgument(path, args, 'newString'),
        );
        return ToolResult.success(`replaced 1 occurrence in ${path}`);
      case 'insert':
        await backend.insert(path, lineNumberArgument(path, args), stringArgument(path, args, 'content'));
        return ToolResult.success(`inserted at line ${String(args['lineNumber'])} of ${path}`);
      case 'delete':
        await backend.delete(path);
        return ToolResult.success(`deleted ${path}`);
      default:
        throw new MemoryError(
          String(path),
          'InvalidArgument',
          `op must be one of ${MEMORY_WRITE_OPS.join(', ')}, got ${JSON.stringify(op)}`,
        );
    }
  } catch (error) {
    return refused(MEMORY_WRITE_TOOL, error);
  }
}

function stringArgument(path: string, args: ToolArguments, name: string): string {
  const value = args[name];
  if (typeof value !== 'string')
    throw new MemoryError(String(path), 'InvalidArgument', `${name} must be a string`);
  return value;
}

function lineNumberArgument(path: string, args: ToolArguments): number {
  const value = args['lineNumber'];
  if (typeof value !== 'number') {
    throw new MemoryError(String(path), 'InvalidArgument', 'lineNumber must be an integer of at least 1');
  }
  return value;
}

/** The failure the model sees for a refused memory command; anything else is rethrown. */
function refused(tool: string, error: unknown): ToolResult {
  if (error instanceof MemoryError) return ToolResult.failure(`${tool} refused`, error);
  throw error;
}
