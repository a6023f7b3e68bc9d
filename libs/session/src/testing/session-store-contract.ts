/**
 * The SessionStore contract, run by every store (in memory, JSON-lines files, PostgreSQL): exact round
 * trips of every entry kind, versions, one writer per session id, and the session on top of the store —
 * a conversation reopened after a restart, open question included. Imports `vitest`: tests only.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { defineTool, fileReference, inlineFile, Message, toolCall, ToolResult } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { AgentSession } from '../agent-session.js';
import { newSessionId } from '../session-id.js';
import { type QueryEvent } from '../query-event.js';
import { entryToWire } from '../store/entry-wire.js';
import { SessionConflictError, type SessionStore, type StoredEntry } from '../store/session-store.js';
import { bindTool, ToolCategory } from '../tools/tool-binding.js';

/** One store for one case, and what releases it. Two calls in one case must reach the same data. */
export interface SessionStoreSubject {
  readonly store: SessionStore;
  /** A second handle on the same data, as another process would open it. */
  readonly reopen: () => SessionStore;
  readonly cleanup?: () => Promise<void> | void;
}

/** Every entry kind, with the content a byte-faithful store must keep as given. */
export function everyEntryKind(): readonly StoredEntry[] {
  const call = toolCall('toolu_01', 'lookup', { query: 'naïve 𝄞', nested: { z: 1, a: [true, null] } });
  return [
    {
      kind: 'message',
      message: Message.user('hello', {
        inlineFiles: [inlineFile(new Uint8Array([0, 255, 1, 128]), 'image/png', 'pixel.png')],
        fileReferences: [fileReference('https://files.example/f/1', 'application/pdf')],
      }),
    },
    {
      kind: 'message',
      message: Message.assistant('let me look', {
        toolCalls: [call],
        thinking: 'the user wants \u2028 a lookup',
        metadata: { 'anthropic.signature': 'EqQBCkYIARgCKkD+/=', zeta: '1', alpha: '{"raw":[1,2]}' },
      }),
    },
    { kind: 'message', message: Message.tool('toolu_01', 'lookup', 'found: "x"\n\ttab') },
    { kind: 'history', messages: [Message.user('summary of before'), Message.assistant('ok')] },
    {
      kind: 'question',
      request: {
        questionId: 'perm-1',
        header: 'Permission',
        question: 'Allow lookup?',
        options: [
          { label: 'Allow', description: 'run it' },
          { label: 'Deny', description: 'do not' },
        ],
        multiSelect: false,
      },
      toolCallId: 'toolu_01',
    },
    {
      kind: 'question',
      request: { questionId: 'q-2', header: 'Pick', question: '?', options: [], multiSelect: true },
    },
    { kind: 'questionClosed', questionId: 'perm-1' },
  ];
}

const wireOf = (entries: readonly StoredEntry[]): string => JSON.stringify(entries.map(entryToWire));

const writeTool = defineTool({
  name: 'write_note',
  description: 'writes a note',
  parameters: [],
  execute: () => ToolResult.success('note written'),
});

async function ended(session: AgentSession): Promise<QueryEvent & { type: 'RunEnded' }> {
  for await (const event of session.events()) if (event.type === 'RunEnded') return event;
  throw new Error('the session closed before a run ended');
}

export function describeSessionStoreContract(name: string, make: () => Promise<SessionStoreSubject>): void {
  describe(`SessionStore contract: ${name}`, () => {
    let subject: SessionStoreSubject | undefined;
    beforeEach(async () => {
      subject = await make();
    });
    afterEach(async () => {
      await subject?.cleanup?.();
      subject = undefined;
    });
    const store = (): SessionStore => (subject as SessionStoreSubject).store;
    const other = (): SessionStore => (subject as SessionStoreSubject).reopen();

    it('loads nothing at version 0 for an unknown session', async () => {
      expect(await store().load(newSessionId())).toEqual({ entries: [], version: 0 });
    });

    it('round-trips every entry kind exactly, in order, across appends and handles', async () => {
      const id = newSessionId();
      const entries = everyEntryKind();
      const first = await store().append(id, 0, entries.slice(0, 3));
      const second = await store().append(id, first, entries.slice(3));
      expect(second).not.toBe(first);
      const loaded = await other().load(id);
      expect(loaded.version).toBe(second);
      expect(wireOf(loaded.entries)).toBe(wireOf(entries));
      expect(loaded.entries).toEqual(entries);
    });

    it('keeps sessions apart and treats an empty append as a no-op', async () => {
      const [a, b] = [newSessionId(), newSessionId()];
      const version = await store().append(a, 0, [{ kind: 'message', message: Message.user('a') }]);
      expect(await store().append(a, version, [])).toBe(version);
      expect((await store().load(b)).entries).toEqual([]);
      expect((await store().load(a)).entries).toHaveLength(1);
    });

    it('refuses a second writer that appends from a version it no longer holds, writing nothing', async () => {
      const id = newSessionId();
      const start = await store().append(id, 0, [{ kind: 'message', message: Message.user('one') }]);
      const writerB = other();
      await store().append(id, start, [{ kind: 'message', message: Message.user('A') }]);
      await expect(
        writerB.append(id, start, [{ kind: 'message', message: Message.user('B') }]),
      ).rejects.toBeInstanceOf(SessionConflictError);
      const texts = (await store().load(id)).entries.map((entry) =>
        entry.kind === 'message' ? entry.message.content : entry.kind,
      );
      expect(texts).toEqual(['one', 'A']);
    });

    it('lets exactly one of many racing appends from one version through', async () => {
      const id = newSessionId();
      const start = await store().append(id, 0, [{ kind: 'message', message: Message.user('base') }]);
      const racers = Array.from({ length: 8 }, (_, index) =>
        (index % 2 === 0 ? store() : other()).append(id, start, [
          { kind: 'message', message: Message.user(`racer ${index}`) },
        ]),
      );
      const outcomes = await Promise.allSettled(racers);
      expect(outcomes.filter((outcome) => outcome.status === 'fulfilled')).toHaveLength(1);
      for (const outcome of outcomes) {
        if (outcome.status === 'rejected') expect(outcome.reason).toBeInstanceOf(SessionConflictError);
      }
      expect((await store().load(id)).entries).toHaveLength(2);
    });

    it('refuses an invalid session id', async () => {
      await expect(store().load('../etc/passwd')).rejects.toThrow(/session id/);
      await expect(store().append('a/b', 0, [])).rejects.toThrow(/session id/);
    });

    it('stores a session conversation without its system prompt and reopens it', async () => {
      const sessionId = newSessionId();
      const model = new ScriptedModel().thenText('first answer', { metadata: { signature: 'sig/+=' } });
      const session = await AgentSession.open({ model, sessionId, systemPrompt: 'be terse', store: store() });
      expect((await session.send('first question')).type).toBe('Success');
      await session.close();
      const stored = await other().load(sessionId);
      expect(JSON.stringify(stored.entries)).not.toContain('be terse');
      const again = new ScriptedModel().thenText('second answer');
      const reopened = await AgentSession.open({
        model: again,
        sessionId,
        systemPrompt: 'be terse',
        store: other(),
      });
      expect(reopened.history.map((message) => message.content)).toEqual([
        'be terse',
        'first question',
        'first answer',
      ]);
      await reopened.send('second question');
      expect(again.calls[0]?.[2]).toEqual(session.history[2]);
      await reopened.close();
    });

    it('ends a second concurrent writer with SessionConflict and closes it', async () => {
      const sessionId = newSessionId();
      const a = await AgentSession.open({
        model: new ScriptedModel().thenText('A'),
        sessionId,
        store: store(),
      });
      const b = await AgentSession.open({
        model: new ScriptedModel().thenText('B'),
        sessionId,
        store: other(),
      });
      expect((await a.send('from a')).type).toBe('Success');
      const result = await b.send('from b');
      expect(result.type).toBe('ErrorDuringExecution');
      expect(result.type === 'ErrorDuringExecution' && result.error.kind).toBe('SessionConflict');
      await expect.poll(() => b.closed).toBe(true);
      const texts = (await store().load(sessionId)).entries.map((entry) =>
        entry.kind === 'message' ? entry.message.content : entry.kind,
      );
      expect(texts).toEqual(['from a', 'A']);
      await a.close();
    });

    it('reopens after a restart with the same open question, and its answer resumes the call', async () => {
      const sessionId = newSessionId();
      const binding = bindTool(writeTool, ToolCategory.WRITE);
      const model = new ScriptedModel().thenToolCalls([toolCall('call-1', 'write_note', {})]);
      const crashed = await AgentSession.open({ model, sessionId, tools: [binding], store: store() });
      const asked = (async () => {
        for await (const event of crashed.events()) if (event.type === 'QuestionAsked') return event.request;
        throw new Error('no question');
      })();
      void crashed.send('write a note');
      const question = await asked;
      // The process "dies" here: nothing more of the first session reaches the store.
      const after = new ScriptedModel().thenText('the note is written');
      const restarted = await AgentSession.open({
        model: after,
        sessionId,
        tools: [binding],
        store: other(),
      });
      expect(restarted.pendingQuestions()).toEqual([question]);
      const end = ended(restarted);
      restarted.answer(question.questionId, { selectedLabels: ['Allow'] });
      const { result } = await end;
      expect(result.type).toBe('Success');
      expect(restarted.history.map((message) => message.content)).toEqual([
        'write a note',
        '',
        'note written',
        'the note is written',
      ]);
      expect(restarted.pendingQuestions()).toEqual([]);
      await restarted.close();
      await crashed.close();
    });
  });
}
