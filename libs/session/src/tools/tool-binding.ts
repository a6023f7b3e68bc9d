/**
 * A tool as a session runs it: its category (which picks the permission default and the concurrency
 * cap), the text permission rules match against, an optional own timeout and visibility.
 */
import { InvalidArgumentError, type Tool, type ToolArguments } from '@helios/core';

export const ToolCategory = {
  READ: 'READ',
  SEARCH: 'SEARCH',
  WRITE: 'WRITE',
  EXECUTION: 'EXECUTION',
  NETWORK: 'NETWORK',
  CONTROL: 'CONTROL',
  DELEGATION: 'DELEGATION',
} as const;
export type ToolCategory = (typeof ToolCategory)[keyof typeof ToolCategory];

export interface ToolVisibilityContext {
  readonly sessionId: string;
  readonly turnIndex: number;
}

export interface ToolBinding {
  readonly tool: Tool;
  readonly category: ToolCategory;
  /** The text `Tool(glob)` rules match; default: empty, so only tool-name rules apply. */
  readonly permissionKey?: (args: ToolArguments) => string;
  /** Overrides `toolTimeoutDefaultMs` for this tool. */
  readonly timeoutMs?: number;
  /** Whether the model is offered the tool this turn; default always. */
  readonly visible?: (context: ToolVisibilityContext) => boolean;
}

export interface BindOptions {
  readonly permissionKey?: (args: ToolArguments) => string;
  readonly timeoutMs?: number;
  readonly visible?: (context: ToolVisibilityContext) => boolean;
}

export function bindTool(tool: Tool, category: ToolCategory, options: BindOptions = {}): ToolBinding {
  if (!Object.values(ToolCategory).includes(category)) {
    throw new InvalidArgumentError(`unknown tool category ${JSON.stringify(category)}`);
  }
  if (options.timeoutMs !== undefined && !(options.timeoutMs > 0)) {
    throw new InvalidArgumentError('timeoutMs must be > 0');
  }
  return Object.freeze({ tool, category, ...options });
}

/** The canonical permission key: the binding's extractor, or '' (tool-name rules only). */
export function permissionKeyOf(binding: ToolBinding, args: ToolArguments): string {
  return binding.permissionKey ? binding.permissionKey(args) : '';
}

/** A key extractor reading one string argument, e.g. `path` for file tools. */
export function argumentKey(name: string, fallback = ''): (args: ToolArguments) => string {
  return (args) => {
    const value = args[name];
    return typeof value === 'string' ? value : fallback;
  };
}
