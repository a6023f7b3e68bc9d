/**
 * A turn's tool calls, one at a time in the model's order: PreToolUse hooks (the permission policy
 * among them), dispatch, redaction of the result text (once, before anyone sees it), ToolResult,
 * PostToolUse hooks, then the tool message in the history.
 */
import { Message, toolSpanKind, type ToolCall, ToolResult, TraceDetail } from '@helios/core';
import { type HookDecision } from '../hooks/hook-runner.js';
import { type Verdict } from '../result-message.js';
import { type RunScope } from './run-scope.js';
import { type SessionCore } from './session-core.js';
import { enqueue } from './steering.js';
import { dispatchTool } from './tool-dispatch.js';

/** Runs the calls; a hook's Stop returns its verdict (later calls stay unanswered until the run ends). */
export async function runToolRound(
  scope: RunScope,
  calls: readonly ToolCall[],
): Promise<Verdict | undefined> {
  const { core, run } = scope;
  for (const call of calls) {
    if (run.signal.aborted) return undefined;
    run.activeCallId = call.id;
    let verdict: Verdict | undefined;
    try {
      verdict = await runCall(scope, call);
    } finally {
      run.activeCallId = undefined;
    }
    if (verdict) return verdict;
    const pause = core.yieldToReaders();
    if (pause) await pause;
  }
  return undefined;
}

async function runCall(scope: RunScope, original: ToolCall): Promise<Verdict | undefined> {
  const { core, run } = scope;
  let call = original;
  // Awaited only when a hook answered with a promise: a suspension per call was a cost of every turn.
  const deciding = core.decide(run, 'PreToolUse', (hook, context) => hook.handle(call, context));
  const before = deciding instanceof Promise ? await deciding : deciding;
  const outcome = before?.outcome;
  switch (outcome?.type) {
    case 'MutateArgs':
      call = Object.freeze({ id: call.id, name: call.name, arguments: outcome.args });
      core.emit(run, {
        type: 'ToolMutated',
        call: core.redaction.call(call),
        hookName: (before as HookDecision).hookName,
        inputBefore: core.redaction.args(original.arguments),
        inputAfter: core.redaction.args(call.arguments),
      });
      break;
    case 'Block': {
      const reason = core.redaction.text(outcome.reason);
      core.emit(run, {
        type: 'ToolBlocked',
        call: core.redaction.call(call),
        hookName: (before as HookDecision).hookName,
        reason,
      });
      record(scope, call, ToolResult.failure(`blocked by hook: ${outcome.reason}`));
      return undefined;
    }
    case 'Inject':
      enqueue(core, run, outcome.message);
      record(scope, call, ToolResult.failure('tool skipped: hook injected user message'));
      return undefined;
    case 'Stop':
      return { type: 'Success', result: outcome.result };
    default:
      break;
  }
  core.emit(run, { type: 'ToolUse', call: core.redaction.call(call) });
  const span = run.trace?.span(toolSpanKind(core.redaction.text(call.name))).attribute('toolCallId', call.id);
  // Only VERBOSE keeps content: rendering the arguments for a STANDARD span would be thrown away.
  if (span && core.options.traceDetail === TraceDetail.VERBOSE) {
    span.content({ input: core.redaction.text(JSON.stringify(call.arguments)) });
  }
  const raw = await dispatchTool(scope, call);
  core.throwIfFatal();
  let result = redacted(scope, call, raw);
  span?.attribute('success', String(result.type === 'Success')).content({ output: result.output });
  if (result.type === 'Success') span?.end();
  else span?.fail(result.output);
  let after: HookDecision | undefined;
  if (core.hooks.has('PostToolUse')) {
    const deciding = core.decide(run, 'PostToolUse', (hook, context) => hook.handle(call, result, context));
    after = deciding instanceof Promise ? await deciding : deciding;
  }
  switch (after?.outcome.type) {
    case 'MutateResult':
      result = redacted(scope, call, ToolResult.success(after.outcome.output));
      break;
    case 'Inject':
      enqueue(core, run, after.outcome.message);
      break;
    case 'Stop':
      appendResult(core, call, result);
      return { type: 'Success', result: after.outcome.result };
    default:
      break;
  }
  appendResult(core, call, result);
  return undefined;
}

/** Redacts the result text once and announces it. */
function redacted(scope: RunScope, call: ToolCall, raw: ToolResult): ToolResult {
  const { core, run } = scope;
  const { result, counts } = core.redaction.result(raw);
  core.emit(run, { type: 'ToolResult', call: core.redaction.call(call), result, redactions: counts });
  return result;
}

/** A result the loop substitutes for a call it did not run. */
function record(scope: RunScope, call: ToolCall, substitute: ToolResult): void {
  appendResult(scope.core, call, redacted(scope, call, substitute));
}

function appendResult(core: SessionCore, call: ToolCall, result: ToolResult): void {
  core.append(Message.tool(call.id, call.name, result.output));
  if (result.attachments.length > 0) {
    core.append(
      Message.user(
        `[tool '${call.name}' returned ${result.attachments.length} attachment(s) for inspection]`,
        {
          inlineFiles: result.attachments,
        },
      ),
    );
  }
}
