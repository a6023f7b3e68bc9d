/**
 * A tool the model can call: its definition (name, description, JSON Schema of its arguments) and its
 * executor. `execute` checks the arguments, runs the executor once and turns an ordinary Error into a
 * failed result the model sees; cancellation and programming errors (`isProgrammingError`: non-Error
 * throws, ReferenceError, assertion failures, …) pass through untouched, so the caller's abort still
 * reads as an abort and a broken tool reaches whoever runs it instead of becoming model input.
 */
import { z } from 'zod';
import { isAbortError, raceAbort } from '../common/abort.js';
import { isProgrammingError } from '../common/programming-error.js';
import { requireNonBlank } from '../common/validate.js';
import { describeFieldError, type FieldError, type JsonSchema } from '../schema/json-schema.js';
import { compileJsonSchema } from '../schema/schema-validator.js';
import { zodFieldErrors } from '../schema/zod-field-errors.js';
import { ToolContext } from './tool-context.js';
import { parametersJsonSchema, type ToolParameter } from './tool-parameter.js';
import { ToolResult } from './tool-result.js';

/** What a model is told about a tool. */
export interface ToolDefinition {
  readonly name: string;
  readonly description: string;
  readonly inputSchema: JsonSchema;
}

export type ToolArguments = Readonly<Record<string, unknown>>;
export type ToolExecutor<A> = (args: A, context: ToolContext) => ToolResult | Promise<ToolResult>;

export interface Tool extends ToolDefinition {
  /** Safe to run again with the same arguments (e.g. after a crash). Default false. */
  readonly idempotent: boolean;
  execute(args: ToolArguments, context: ToolContext): Promise<ToolResult>;
}

interface BaseToolOptions {
  readonly name: string;
  readonly description: string;
  readonly idempotent?: boolean;
}

export interface ParameterToolOptions extends BaseToolOptions {
  readonly parameters: readonly ToolParameter[];
  readonly execute: ToolExecutor<ToolArguments>;
}

export interface ZodToolOptions<S extends z.ZodType> extends BaseToolOptions {
  readonly schema: S;
  readonly execute: ToolExecutor<z.output<S>>;
}

export interface JsonSchemaToolOptions extends BaseToolOptions {
  readonly jsonSchema: JsonSchema;
  readonly execute: ToolExecutor<ToolArguments>;
}

type Check = (args: ToolArguments) => { ok: true; value: unknown } | { ok: false; errors: FieldError[] };

export function defineTool(options: ParameterToolOptions): Tool;
export function defineTool<S extends z.ZodType>(options: ZodToolOptions<S>): Tool;
export function defineTool(options: JsonSchemaToolOptions): Tool;
export function defineTool(
  options: ParameterToolOptions | ZodToolOptions<z.ZodType> | JsonSchemaToolOptions,
): Tool {
  const name = requireNonBlank(options.name, 'tool name');
  let inputSchema: JsonSchema;
  let check: Check;
  if ('schema' in options) {
    const { $schema: _ignored, ...rest } = z.toJSONSchema(options.schema) as Record<string, unknown>;
    inputSchema = rest as JsonSchema;
    check = (args) => {
      const result = options.schema.safeParse(args, { reportInput: true });
      return result.success
        ? { ok: true, value: result.data }
        : { ok: false, errors: zodFieldErrors(result.error.issues) };
    };
  } else {
    inputSchema = 'parameters' in options ? parametersJsonSchema(options.parameters) : options.jsonSchema;
    // Compiled here, so a tool with a malformed schema fails at definition, not at its first call.
    const validate = compileJsonSchema(inputSchema);
    check = (args) => {
      const errors = validate(args);
      return errors.length === 0 ? { ok: true, value: args } : { ok: false, errors };
    };
  }
  const runner: ToolRunner = { name, check, executor: options.execute as ToolExecutor<unknown> };
  return Object.freeze({
    name,
    description: options.description,
    inputSchema,
    idempotent: options.idempotent ?? false,
    execute: (args: ToolArguments, context: ToolContext) => runTool(runner, args, context),
  });
}

/** What a defined tool needs at each call; built once per tool, so a call allocates nothing for it. */
interface ToolRunner {
  readonly name: string;
  readonly check: Check;
  readonly executor: ToolExecutor<unknown>;
}

async function runTool(
  { name, check, executor }: ToolRunner,
  args: ToolArguments,
  context: ToolContext,
): Promise<ToolResult> {
  ToolContext.throwIfAborted(context);
  const checked = check(args);
  if (!checked.ok) {
    return ToolResult.failure(
      `invalid arguments for tool '${name}': ${checked.errors.map(describeFieldError).join('; ')}`,
    );
  }
  try {
    const answer = executor(checked.value, context);
    // A synchronous answer needs no race with the signal (and no listener on it, which costs more
    // than a small tool's whole call).
    return answer instanceof Promise ? await raceAbort(answer, context.signal) : answer;
  } catch (error) {
    if (ToolContext.aborted(context) || isAbortError(error) || isProgrammingError(error)) throw error;
    return ToolResult.failure('Tool execution failed', error);
  }
}

/** The definition alone, as sent to a model. */
export function toolDefinition(tool: ToolDefinition): ToolDefinition {
  return Object.freeze({ name: tool.name, description: tool.description, inputSchema: tool.inputSchema });
}
