/**
 * Drains a run's steering queue at the top of each loop iteration. Each message passes the
 * OnUserMessage hooks; the accepted ones become ONE user turn (several are composed under a
 * `[messages composed: N]` header).
 */
import { Message, type UserMessage } from '@helios/core';
import { type Verdict } from '../result-message.js';
import { type RunState } from './run-state.js';
import { type SessionCore } from './session-core.js';

export function composeUserTurn(messages: readonly UserMessage[]): UserMessage {
  if (messages.length === 1) return messages[0] as UserMessage;
  return Message.user(
    [`[messages composed: ${messages.length}]`, ...messages.map((message) => message.content)].join('\n'),
    {
      inlineFiles: messages.flatMap((message) => message.inlineFiles),
      fileReferences: messages.flatMap((message) => message.fileReferences),
    },
  );
}

/** Appends the accepted messages; a hook's Stop ends the run (unprocessed messages stay queued). */
export async function drainSteering(core: SessionCore, run: RunState): Promise<Verdict | undefined> {
  if (run.queue.length === 0) return undefined;
  const pending = run.queue.splice(0);
  const accepted: UserMessage[] = [];
  let verdict: Verdict | undefined;
  for (let index = 0; index < pending.length; index += 1) {
    let message = pending[index] as UserMessage;
    const decision = await core.decide(run, 'OnUserMessage', (hook, context) =>
      hook.handle(message, context),
    );
    const outcome = decision?.outcome;
    if (decision && outcome?.type === 'Block') {
      core.emit(run, {
        type: 'MessageBlocked',
        message,
        hookName: decision.hookName,
        reason: outcome.reason,
      });
      continue;
    }
    if (outcome?.type === 'Stop') {
      run.queue.unshift(...pending.slice(index + 1));
      verdict = { type: 'Success', result: outcome.result };
      break;
    }
    // Rewritten text replaces the message; its attachments are dropped with the old text.
    if (outcome?.type === 'MutateText') message = Message.user(outcome.text);
    accepted.push(message);
    core.emit(run, { type: 'UserMessageReceived', message });
    const pause = core.yieldToReaders();
    if (pause) await pause;
  }
  if (accepted.length > 0) core.append(composeUserTurn(accepted));
  return verdict;
}

/** Queues a message for the run (hook Inject, schema correction); a full queue drops it with a warning. */
export function enqueue(core: SessionCore, run: RunState, text: string): boolean {
  if (run.queue.length >= core.options.concurrency.maxQueuedUserMessages) {
    core.options.logger.warn(`steering queue full: dropped an injected message in run ${run.id}`);
    return false;
  }
  run.queue.push(Message.user(text));
  return true;
}
