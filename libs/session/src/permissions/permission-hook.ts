/**
 * The session's permission policy as a PreToolUse hook (priority 50, before deployer hooks by default).
 * DENY blocks; ASK raises a `perm-…` question whose answer approves exactly this call; a cancelled
 * question blocks. Text that reaches the question carries the arguments, so it is redacted.
 */
import { newId, type ToolCall, isProgrammingError } from '@helios/core';
import { type Hook, type HookContext } from '../hooks/hook.js';
import { HookOutcome } from '../hooks/hook-outcome.js';
import {
  PERMISSION_QUESTION_PREFIX,
  type QuestionRequest,
  type QuestionResponse,
} from '../questions/question.js';
import { type SessionRedaction } from '../redaction.js';
import { permissionKeyOf, type ToolBinding } from '../tools/tool-binding.js';
import { type Permission } from './permission.js';
import { formatCall } from './permission-rule.js';

export const PERMISSION_HOOK_NAME = 'Permission';
export const PERMISSION_HOOK_PRIORITY = 50;

export interface PermissionHost {
  readonly options: { readonly permission: Permission };
  readonly bindings: ReadonlyMap<string, ToolBinding>;
  readonly redaction: SessionRedaction;
  ask(request: QuestionRequest, signal: AbortSignal): Promise<QuestionResponse>;
}

export function permissionHook(host: PermissionHost): Hook {
  return {
    type: 'PreToolUse',
    name: PERMISSION_HOOK_NAME,
    priority: PERMISSION_HOOK_PRIORITY,
    handle: (call, context) => judge(host, call, context),
  };
}

/** Synchronous unless it must ask: ALLOW and DENY cost no promise. */
function judge(
  host: PermissionHost,
  call: ToolCall,
  context: HookContext,
): HookOutcome | Promise<HookOutcome> {
  const binding = host.bindings.get(call.name);
  if (!binding) return HookOutcome.cont(); // dispatch answers "tool not found"
  const key = permissionKeyOf(binding, call.arguments);
  const decision = host.options.permission.evaluate(call.name, key, binding.category);
  switch (decision.effect) {
    case 'ALLOW':
      return HookOutcome.cont();
    case 'DENY':
      return HookOutcome.block(`permission: ${decision.reason}`);
    case 'ASK':
      return askUser(host, { call, key, reason: decision.reason }, context);
    default: {
      const unknown: never = decision.effect;
      return unknown;
    }
  }
}

/** A call the policy asks the user about, with its permission key and the policy's reason. */
interface PermissionAsk {
  readonly call: ToolCall;
  readonly key: string;
  readonly reason: string;
}

async function askUser(host: PermissionHost, ask: PermissionAsk, context: HookContext): Promise<HookOutcome> {
  const { call, key, reason } = ask;
  const redact = (text: string): string => host.redaction.text(text);
  const request: QuestionRequest = Object.freeze({
    questionId: `${PERMISSION_QUESTION_PREFIX}${newId()}`,
    header: 'Permission',
    question: redact(`Allow ${formatCall(call.name, key)}?\n\nArguments: ${JSON.stringify(call.arguments)}`),
    options: Object.freeze([
      { label: 'Allow', description: redact(reason) },
      { label: 'Deny', description: 'Refuse this tool call' },
    ]),
    multiSelect: false,
  });
  let response: QuestionResponse;
  try {
    response = await host.ask(request, context.signal);
  } catch (error) {
    if (isProgrammingError(error)) throw error;
    return HookOutcome.block(
      `permission: question not answered (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (response.selectedLabels[0]?.toLowerCase() === 'allow') return HookOutcome.cont();
  const note = response.customText ? `: ${response.customText}` : '';
  return HookOutcome.block(`permission: user denied ${formatCall(call.name, key)}${note}`);
}
