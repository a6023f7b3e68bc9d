/**
 * Wires a provider into session options: the session starts and ends it (open and close), and the
 * model gets the Execute tool over it. `@helios/session` has no `withExecutionProvider` of its own yet;
 * this is that step, kept here until the session takes it.
 */
import { type SessionOptions } from '@helios/session';
import { type ExecuteToolOptions, executeToolBinding } from './execute-tool.js';
import { type CodeExecutionProvider } from './execution-types.js';

export function withExecutionProvider(
  options: SessionOptions,
  provider: CodeExecutionProvider,
  toolOptions: ExecuteToolOptions = {},
): SessionOptions {
  return {
    ...options,
    executionProvider: provider,
    tools: [...(options.tools ?? []), executeToolBinding(provider, toolOptions)],
  };
}
