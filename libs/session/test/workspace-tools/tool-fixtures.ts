/** Runs a built-in file tool the way a session does: through `Tool.execute` with a test context. */
import { SessionContext, type Tool, type ToolArguments, ToolContext, type ToolResult } from '@helios/core';
import { expect } from 'vitest';
import { SECRET } from '../workspace/fixtures.js';

export async function call(tool: Tool, args: ToolArguments): Promise<ToolResult> {
  using context = ToolContext.create(SessionContext.forTesting(), { timeoutMs: 60_000 });
  return tool.execute(args, context);
}

/** The success output, failing the test on a failure. */
export async function output(tool: Tool, args: ToolArguments): Promise<string> {
  const result = await call(tool, args);
  expect(result, result.output).toMatchObject({ type: 'Success' });
  return result.output;
}

/** The failure text, which must not leak the outside secret or a stack trace. */
export async function failure(tool: Tool, args: ToolArguments): Promise<string> {
  const result = await call(tool, args);
  expect(result.type, result.output).toBe('Failure');
  expect(result.output).not.toContain(SECRET);
  expect(result.output).not.toMatch(/\n\s+at /);
  return result.output;
}
