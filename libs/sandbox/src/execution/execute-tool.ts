/**
 * The Execute tool (`{runtime, script}`) over a CodeExecutionProvider, bound in the EXECUTION category
 * so permissions treat it as execution. Its timeout leaves the provider room to answer: the longest
 * script time plus the provider's grace, so the session never abandons a call the provider is still
 * ending. A result with exit code 0 is a success; any other is a failure the model still reads.
 */
import { defineTool, InvalidArgumentError, type Tool, type ToolContext, ToolResult } from '@helios/core';
import { bindTool, type ToolBinding, ToolCategory } from '@helios/session';
import {
  type CodeExecutionProvider,
  type ExecutionResult,
  type ExecutionRuntime,
} from './execution-types.js';

export const EXECUTE_TOOL = 'Execute';
/** Scripts longer than this are refused before anything runs. */
export const MAX_SCRIPT_CHARS = 1_000_000;
const ANSWER_MARGIN_MS = 5_000;

export function executeTool(provider: CodeExecutionProvider): Tool {
  const runtimes = provider.capabilities.supportedRuntimes;
  if (runtimes.length === 0) throw new InvalidArgumentError(`${provider.name} supports no runtime`);
  return defineTool({
    name: EXECUTE_TOOL,
    description: provider.describe(),
    jsonSchema: {
      type: 'object',
      properties: {
        runtime: { type: 'string', enum: [...runtimes], description: 'Which runtime runs the script.' },
        script: { type: 'string', maxLength: MAX_SCRIPT_CHARS, description: 'The script to run.' },
      },
      required: ['runtime', 'script'],
      additionalProperties: false,
    },
    execute: async (args, context: ToolContext) => {
      const request = { runtime: args['runtime'] as ExecutionRuntime, script: args['script'] as string };
      const result = await provider.execute(context.sessionContext, request, context.signal);
      const text = resultText(result);
      return result.exitCode === 0
        ? ToolResult.success(text, { data: resultData(result) })
        : ToolResult.failure(text);
    },
  });
}

/** The Execute tool bound for a session: category EXECUTION, a timeout covering the provider's longest answer. */
export function executeToolBinding(provider: CodeExecutionProvider): ToolBinding {
  const { maxTimeoutMs, answerGraceMs } = provider.capabilities;
  return bindTool(executeTool(provider), ToolCategory.EXECUTION, {
    timeoutMs: maxTimeoutMs + answerGraceMs + ANSWER_MARGIN_MS,
  });
}

/** What the model reads: stdout, `STDERR:` and stderr, `=> value`, `[exit code N]`, or `(no output)`. */
export function resultText(result: ExecutionResult): string {
  const parts: string[] = [];
  if (result.stdout !== '') parts.push(withNewline(result.stdout));
  if (result.stderr !== '') parts.push(`STDERR:\n${withNewline(result.stderr)}`);
  if (result.value !== undefined) parts.push(`=> ${withNewline(result.value)}`);
  if (result.exitCode !== 0) parts.push(`[exit code ${result.exitCode}]\n`);
  return parts.length === 0 ? '(no output)' : parts.join('').trimEnd();
}

function withNewline(text: string): string {
  return text.endsWith('\n') ? text : `${text}\n`;
}

function resultData(result: ExecutionResult): Record<string, unknown> {
  return { exitCode: result.exitCode, timedOut: result.timedOut, durationMs: result.durationMs };
}
