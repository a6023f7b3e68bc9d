/**
 * The Execute tool over a CodeExecutionProvider (reference §2.10): `runtime` and `script`, and
 * optionally `args`, `workingDirectory`, `timeoutSeconds` (default the provider's, 30 s unless
 * configured; capped at its maximum), `environment` and `stdin` — checked by the tool's schema and
 * again by the provider. Bound in the EXECUTION category so permissions treat it as execution; its
 * timeout leaves the provider room to answer (the longest script time plus the provider's grace), so
 * the session never abandons a call the provider is still ending. A result with exit code 0 is a
 * success; any other is a failure the model still reads (see tool-output.ts for the text).
 */
import { defineTool, InvalidArgumentError, type Tool, type ToolContext, ToolResult } from '@helios/core';
import { bindTool, type ToolBinding, ToolCategory } from '@helios/session';
import {
  type CodeExecutionProvider,
  type ExecutionRequest,
  type ExecutionResult,
  type ExecutionRuntime,
} from './execution-types.js';
import { ENVIRONMENT_NAME, MAX_INPUT_CHARS, MAX_INPUT_ENTRIES } from './request-inputs.js';
import { outputCharsLimit, resultText } from './tool-output.js';

export const EXECUTE_TOOL = 'Execute';
/** Scripts longer than this are refused before anything runs. */
export const MAX_SCRIPT_CHARS = 1_000_000;
const ANSWER_MARGIN_MS = 5_000;

export interface ExecuteToolOptions {
  /** What the model reads of one execute, past its header line; default 5000 characters, 0: no cut. */
  readonly maxOutputCharsToModel?: number;
}

export function executeTool(provider: CodeExecutionProvider, options: ExecuteToolOptions = {}): Tool {
  const runtimes = provider.capabilities.supportedRuntimes;
  if (runtimes.length === 0) throw new InvalidArgumentError(`${provider.name} supports no runtime`);
  const maxChars = outputCharsLimit(options.maxOutputCharsToModel);
  return defineTool({
    name: EXECUTE_TOOL,
    description: provider.describe(),
    jsonSchema: inputSchema(provider),
    execute: async (args, context: ToolContext) => {
      const request = executionRequest(args);
      const result = await provider.execute(context.sessionContext, request, context.signal);
      const text = resultText(request.runtime, result, maxChars);
      return result.exitCode === 0
        ? ToolResult.success(text, { data: resultData(result) })
        : ToolResult.failure(text);
    },
  });
}

/** The Execute tool bound for a session: category EXECUTION, a timeout covering the provider's longest answer. */
export function executeToolBinding(
  provider: CodeExecutionProvider,
  options: ExecuteToolOptions = {},
): ToolBinding {
  const { maxTimeoutMs, answerGraceMs } = provider.capabilities;
  return bindTool(executeTool(provider, options), ToolCategory.EXECUTION, {
    timeoutMs: maxTimeoutMs + answerGraceMs + ANSWER_MARGIN_MS,
  });
}

function inputSchema(provider: CodeExecutionProvider): Record<string, unknown> {
  const { supportedRuntimes, defaultTimeoutMs, maxTimeoutMs } = provider.capabilities;
  return {
    type: 'object',
    properties: {
      runtime: {
        type: 'string',
        enum: [...supportedRuntimes],
        description: 'Which runtime runs the script.',
      },
      script: { type: 'string', maxLength: MAX_SCRIPT_CHARS, description: 'The script to run.' },
      args: {
        type: 'array',
        items: { type: 'string' },
        maxItems: MAX_INPUT_ENTRIES,
        description:
          'Arguments: "$1", "$2", … in BASH; the read-only global `args` in JAVASCRIPT and TYPESCRIPT.',
      },
      workingDirectory: {
        type: 'string',
        minLength: 1,
        description: 'Absolute directory to run in (BASH only, where the deployment allows it).',
      },
      timeoutSeconds: {
        type: 'number',
        exclusiveMinimum: 0,
        description: `Default ${defaultTimeoutMs / 1000}; at most ${maxTimeoutMs / 1000}.`,
      },
      environment: {
        type: 'object',
        additionalProperties: { type: 'string' },
        propertyNames: { pattern: ENVIRONMENT_NAME.source },
        maxProperties: MAX_INPUT_ENTRIES,
        description:
          'Variables for this run: the environment in BASH; the read-only global `env` in JAVASCRIPT and TYPESCRIPT.',
      },
      stdin: {
        type: 'string',
        maxLength: MAX_INPUT_CHARS,
        description:
          'Standard input in BASH (then closed); the read-only global `stdin` in JAVASCRIPT and TYPESCRIPT.',
      },
    },
    required: ['runtime', 'script'],
    additionalProperties: false,
  };
}

/** The request the schema-checked arguments describe; `timeoutSeconds` becomes whole milliseconds. */
function executionRequest(args: Readonly<Record<string, unknown>>): ExecutionRequest {
  const seconds = args['timeoutSeconds'] as number | undefined;
  return {
    runtime: args['runtime'] as ExecutionRuntime,
    script: args['script'] as string,
    ...(args['args'] === undefined ? {} : { args: args['args'] as string[] }),
    ...(args['workingDirectory'] === undefined
      ? {}
      : { workingDirectory: args['workingDirectory'] as string }),
    ...(seconds === undefined
      ? {}
      : { timeoutMs: Math.min(Math.max(1, Math.ceil(seconds * 1000)), Number.MAX_SAFE_INTEGER) }),
    ...(args['environment'] === undefined
      ? {}
      : { environment: args['environment'] as Record<string, string> }),
    ...(args['stdin'] === undefined ? {} : { stdin: args['stdin'] as string }),
  };
}

function resultData(result: ExecutionResult): Record<string, unknown> {
  return { exitCode: result.exitCode, timedOut: result.timedOut, durationMs: result.durationMs };
}
