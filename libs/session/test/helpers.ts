/** Shared fixtures for the session tests: a recording logger, tools, and event collection. */
import { defineTool, ParameterType, type Tool, ToolResult, toolCall, type ToolCall } from '@helios/core';
import {
  type QueryEvent,
  type SessionLogger,
  bindTool,
  type ToolBinding,
  ToolCategory,
} from '../src/index.js';
import { type EventStream } from '../src/events/event-stream.js';

export interface RecordingLogger extends SessionLogger {
  readonly lines: { level: string; message: string; error?: unknown }[];
}

export function recordingLogger(): RecordingLogger {
  const lines: RecordingLogger['lines'] = [];
  return {
    lines,
    debug: (message, error) => void lines.push({ level: 'debug', message, error }),
    warn: (message, error) => void lines.push({ level: 'warn', message, error }),
    error: (message, error) => void lines.push({ level: 'error', message, error }),
  };
}

export const addTool: Tool = defineTool({
  name: 'add',
  description: 'adds two numbers',
  parameters: [
    { name: 'a', type: ParameterType.NUMBER, required: true },
    { name: 'b', type: ParameterType.NUMBER, required: true },
  ],
  execute: (args) => ToolResult.success(String(Number(args['a']) + Number(args['b']))),
});

export function add(id = 'c1', a = 1, b = 2): ToolCall {
  return toolCall(id, 'add', { a, b });
}

export function readBinding(tool: Tool): ToolBinding {
  return bindTool(tool, ToolCategory.READ);
}

/** A tool whose behaviour the test supplies. */
export function customTool(
  name: string,
  execute: (args: Readonly<Record<string, unknown>>, signal: AbortSignal) => ToolResult | Promise<ToolResult>,
): Tool {
  return {
    name,
    description: name,
    inputSchema: { type: 'object' },
    idempotent: false,
    execute: (args, context) => Promise.resolve().then(() => execute(args, context.signal)),
  };
}

/** Reads everything a stream holds until it ends. */
export async function drain(stream: EventStream): Promise<QueryEvent[]> {
  const events: QueryEvent[] = [];
  for await (const event of stream) events.push(event);
  return events;
}

export function types(events: readonly QueryEvent[]): string[] {
  return events.map((event) => event.type);
}

/** Lets queued microtasks and already-due promise chains run. */
export async function flush(times = 20): Promise<void> {
  for (let i = 0; i < times; i += 1) await Promise.resolve();
}
