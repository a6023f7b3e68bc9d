/** What a hook decides. Continue lets the next hook speak; any other outcome wins its phase. */
import { InvalidArgumentError, type Message, type ToolArguments } from '@helios/core';

export type HookOutcome =
  | { readonly type: 'Continue' }
  | { readonly type: 'Block'; readonly reason: string }
  | { readonly type: 'Inject'; readonly message: string }
  | { readonly type: 'Stop'; readonly result: string }
  | { readonly type: 'MutateArgs'; readonly args: ToolArguments }
  | { readonly type: 'MutateHistory'; readonly messages: readonly Message[] }
  | { readonly type: 'MutateText'; readonly text: string }
  | { readonly type: 'MutateResult'; readonly output: string };

export type HookOutcomeKind = HookOutcome['type'];

function nonBlank(value: string, field: string): string {
  if (typeof value !== 'string' || value.trim() === '') {
    throw new InvalidArgumentError(`${field} must be a non-blank string`);
  }
  return value;
}

const CONTINUE: HookOutcome = Object.freeze({ type: 'Continue' });

export const HookOutcome = {
  cont: (): HookOutcome => CONTINUE,
  block: (reason: string): HookOutcome =>
    Object.freeze({ type: 'Block', reason: nonBlank(reason, 'reason') }),
  inject: (message: string): HookOutcome =>
    Object.freeze({ type: 'Inject', message: nonBlank(message, 'message') }),
  stop: (result: string): HookOutcome => Object.freeze({ type: 'Stop', result: nonBlank(result, 'result') }),
  mutateArgs: (args: ToolArguments): HookOutcome =>
    Object.freeze({ type: 'MutateArgs', args: Object.freeze({ ...args }) }),
  mutateHistory: (messages: readonly Message[]): HookOutcome =>
    Object.freeze({ type: 'MutateHistory', messages: Object.freeze([...messages]) }),
  mutateText: (text: string): HookOutcome =>
    Object.freeze({ type: 'MutateText', text: nonBlank(text, 'text') }),
  mutateResult: (output: string): HookOutcome => Object.freeze({ type: 'MutateResult', output }),
} as const;
