/**
 * Hooks: deployer code the loop calls at nine points. Lower `priority` runs first (default 100); in
 * every deciding phase the first outcome other than Continue wins and later hooks are not called. A
 * hook that returns nothing counts as Continue; one that throws an ordinary Error counts as Continue
 * (logged); an unexpected programming error ends the session.
 */
import {
  type Citation,
  type FinishReason,
  type Message,
  type Model,
  type ToolCall,
  type ToolResult,
  type Usage,
  type UserMessage,
} from '@helios/core';
import { type QueryEvent } from '../query-event.js';
import { type HookOutcome } from './hook-outcome.js';

export interface HookContext {
  readonly sessionId: string;
  readonly runId: string;
  readonly turnIndex: number;
  readonly signal: AbortSignal;
  readonly model: Model;
}

/** A finished model turn, as PostModelTurn and PreStop hooks see it. */
export interface TurnResponse {
  readonly content: string;
  readonly finishReason: FinishReason;
  readonly usage: Usage;
  readonly toolCalls: readonly ToolCall[];
  readonly citations: readonly Citation[];
}

/** What a compaction changed, for PostCompact hooks (called only when the history shrank). */
export interface CompactionPayload {
  readonly historyBefore: readonly Message[];
  readonly historyAfter: readonly Message[];
  readonly tokensBefore: number;
  readonly tokensAfter: number;
  readonly removedBlocks: number;
}

export type HookReturn = HookOutcome | undefined | Promise<HookOutcome | undefined>;

interface HookBase {
  /** Shown in HookFired, ToolBlocked and trace spans; default: the phase name, e.g. `PreToolUseHook`. */
  readonly name?: string;
  readonly priority?: number;
}

export type Hook =
  | (HookBase & {
      readonly type: 'OnUserMessage';
      handle(message: UserMessage, context: HookContext): HookReturn;
    })
  | (HookBase & {
      readonly type: 'PreModelTurn';
      handle(history: readonly Message[], context: HookContext): HookReturn;
    })
  | (HookBase & {
      readonly type: 'PostModelTurn';
      handle(response: TurnResponse, context: HookContext): HookReturn;
    })
  | (HookBase & { readonly type: 'PreToolUse'; handle(call: ToolCall, context: HookContext): HookReturn })
  | (HookBase & {
      readonly type: 'PostToolUse';
      handle(call: ToolCall, result: ToolResult, context: HookContext): HookReturn;
    })
  | (HookBase & {
      readonly type: 'PreStop';
      handle(response: TurnResponse, context: HookContext): HookReturn;
    })
  | (HookBase & {
      readonly type: 'PreCompact';
      handle(history: readonly Message[], context: HookContext): HookReturn;
    })
  | (HookBase & {
      readonly type: 'PostCompact';
      handle(payload: CompactionPayload, context: HookContext): HookReturn;
    })
  | (HookBase & {
      readonly type: 'OnStreamEvent';
      /** Observe only, called synchronously after every emitted event. */
      handle(event: QueryEvent, context: HookContext): void;
    });

export type HookPhase = Hook['type'];
export type HookOf<P extends HookPhase> = Extract<Hook, { readonly type: P }>;

/** The `phase` string HookFired carries: `PreToolUseHook`, … */
export function phaseName(phase: HookPhase): string {
  return `${phase}Hook`;
}

export function hookName(hook: Hook): string {
  return hook.name ?? phaseName(hook.type);
}

export const DEFAULT_HOOK_PRIORITY = 100;
