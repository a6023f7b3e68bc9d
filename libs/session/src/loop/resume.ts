/**
 * What a run does with a conversation restored from a store. A restart can leave the last assistant
 * turn with calls never answered. When a restored question waits on one of them, answering it starts a
 * run that replays those calls (the answered question is handed to the call that asked it) and goes on
 * to the model; a run started by a new message instead closes the restored questions and answers the
 * calls "not run", as any ended run leaves them.
 */
import { type ToolCall, type ToolMessage } from '@helios/core';
import { type Verdict } from '../result-message.js';
import { type RunScope } from './run-scope.js';
import { type SessionCore } from './session-core.js';
import { runToolRound } from './tool-round.js';

/** The last assistant turn's calls that no tool message answers. */
export function openCalls(core: SessionCore): readonly ToolCall[] {
  const history = core.history;
  let index = history.length - 1;
  while (index >= 0 && history[index]?.role !== 'assistant') index -= 1;
  const assistant = history[index];
  if (assistant?.role !== 'assistant' || assistant.toolCalls.length === 0) return [];
  const answered = new Set(
    history
      .slice(index + 1)
      .filter((message): message is ToolMessage => message.role === 'tool')
      .map((message) => message.toolCallId),
  );
  return assistant.toolCalls.filter((call) => !answered.has(call.id));
}

/** A run that resumes: the open calls run again, the restored answer going to the one that asked. */
export async function resumeOpenCalls(scope: RunScope): Promise<Verdict | undefined> {
  const calls = openCalls(scope.core);
  const verdict = calls.length > 0 ? await runToolRound(scope, calls) : undefined;
  scope.run.resume = undefined;
  return verdict;
}

/** A run that does not resume: restored questions are closed unanswered. */
export function closeRestoredQuestions(core: SessionCore, answerOpen: (why: string) => void): void {
  if (!core.questions.hasDormant) return;
  core.questions.dropDormant();
  answerOpen('the question it waited on was not answered before the session went on');
}
