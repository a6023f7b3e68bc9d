/**
 * Loads a session's stored conversation into a new session: its messages after the system prompt, its
 * open questions as dormant ones. Calls a restart left unanswered with no question waiting on them are
 * answered "not run" now: nothing is going to run them.
 */
import { type SessionCore } from '../loop/session-core.js';
import { answerOpenCalls } from '../loop/run-loop.js';
import { replay, SessionPersistence } from './session-persistence.js';
import { type SessionStore } from './session-store.js';

export async function restoreConversation(core: SessionCore, store: SessionStore): Promise<void> {
  const stored = await store.load(core.sessionId);
  const { messages, questions } = replay(stored.entries);
  for (const message of messages) if (message.role !== 'system') core.append(message);
  const persistence = new SessionPersistence(store, core.sessionId, stored.version);
  persistence.markStored(core.history.length);
  core.persistence = persistence;
  for (const question of questions) core.questions.restore(question);
  if (questions.length === 0)
    answerOpenCalls(core, 'the session was restored after the run that made it stopped');
}
