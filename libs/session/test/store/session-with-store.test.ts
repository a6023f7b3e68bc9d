/** A session over a store: what each run writes, restored questions, and a store that fails. */
import { describe, expect, it, vi } from 'vitest';
import { Message, toolCall } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import {
  AgentSession,
  HookOutcome,
  InMemorySessionStore,
  type SessionStore,
  type StoredEntry,
} from '../../src/index.js';
import { addTool, readBinding, recordingLogger } from '../helpers.js';

const ASK = {
  question: 'Which colour?',
  header: 'Colour',
  options: [
    { label: 'Red', description: 'warm' },
    { label: 'Blue', description: 'cool' },
  ],
  multiSelect: false,
};

const kinds = (entries: readonly StoredEntry[]): string[] =>
  entries.map((entry) =>
    entry.kind === 'message' ? `${entry.message.role}:${entry.message.content}` : entry.kind,
  );

/** A store whose appends fail while `failing` is set, with the store's own error. */
function flakyStore(): SessionStore & { failing: boolean } {
  const inner = new InMemorySessionStore();
  return {
    failing: false,
    load: (id) => inner.load(id),
    append(id, version, entries) {
      if (this.failing) return Promise.reject(new Error('disk full'));
      return inner.append(id, version, entries);
    },
  };
}

describe('a session with a store', () => {
  it('writes each turn, tool rounds included, and a rewritten history whole', async () => {
    const store = new InMemorySessionStore();
    const model = new ScriptedModel().thenToolCalls([toolCall('c1', 'add', { a: 1, b: 2 })]).thenText('3');
    const session = await AgentSession.open({
      model,
      sessionId: 's1',
      tools: [readBinding(addTool)],
      store,
      hooks: [
        {
          type: 'PreModelTurn',
          handle: (history) =>
            history.length >= 3 ? HookOutcome.mutateHistory([Message.user('short')]) : HookOutcome.cont(),
        },
      ],
    });
    await session.send('add');
    expect(kinds((await store.load('s1')).entries)).toEqual(['user:add', 'assistant:', 'tool:3', 'history']);
    await session.close();
  });

  it('ends a run ErrorDuringExecution when the store fails, and writes it all with the next run', async () => {
    const store = flakyStore();
    const logger = recordingLogger();
    const model = new ScriptedModel().thenText('one').thenText('two');
    const session = await AgentSession.open({ model, sessionId: 's1', store, logger });
    store.failing = true;
    const failed = await session.send('first');
    expect(failed.type).toBe('ErrorDuringExecution');
    expect(failed.type === 'ErrorDuringExecution' && failed.error.message).toBe('disk full');
    expect(logger.lines.some((line) => line.message === 'session store write failed')).toBe(true);
    expect(session.closed).toBe(false);
    store.failing = false;
    expect((await session.send('second')).type).toBe('Success');
    expect(kinds((await store.load('s1')).entries)).toEqual([
      'user:first',
      'assistant:one',
      'user:second',
      'assistant:two',
    ]);
    await session.close();
  });

  it('answers calls a restart left open with no question "not run" at open', async () => {
    const store = new InMemorySessionStore();
    await store.append('s1', 0, [
      { kind: 'message', message: Message.user('go') },
      { kind: 'message', message: Message.assistant('', { toolCalls: [toolCall('c1', 'add', {})] }) },
    ]);
    const session = await AgentSession.open({ model: new ScriptedModel(), sessionId: 's1', store });
    expect(session.history.at(-1)?.content).toMatch(/^tool call not run: the session was restored/);
    expect(session.pendingQuestions()).toEqual([]);
    await session.close();
  });

  it('closes restored questions when the user sends a message instead of answering', async () => {
    const store = new InMemorySessionStore();
    const request = { questionId: 'q-1', header: 'h', question: '?', options: [], multiSelect: false };
    await store.append('s1', 0, [
      { kind: 'message', message: Message.user('go') },
      {
        kind: 'message',
        message: Message.assistant('', { toolCalls: [toolCall('c1', 'AskUserQuestion', ASK)] }),
      },
      { kind: 'question', request, toolCallId: 'c1' },
    ]);
    const model = new ScriptedModel().thenText('moving on');
    const session = await AgentSession.open({ model, sessionId: 's1', store, askUserQuestion: true });
    expect(session.pendingQuestions()).toEqual([request]);
    expect((await session.send('never mind')).type).toBe('Success');
    expect(session.pendingQuestions()).toEqual([]);
    expect(() => session.answer('q-1', { selectedLabels: ['Red'] })).toThrow(/no pending question/);
    const entries = (await store.load('s1')).entries;
    expect(kinds(entries).slice(3)).toEqual([
      'tool:tool call not run: the question it waited on was not answered before the session went on',
      'user:never mind',
      'assistant:moving on',
      'questionClosed',
    ]);
    await session.close();
  });

  it("resumes the model's own question with the restored answer", async () => {
    const store = new InMemorySessionStore();
    const model = new ScriptedModel().thenToolCalls([toolCall('c1', 'AskUserQuestion', ASK)]);
    const first = await AgentSession.open({ model, sessionId: 's1', store, askUserQuestion: true });
    void first.send('pick one');
    await vi.waitFor(() => expect(first.pendingQuestions()).toHaveLength(1));
    const asked = first.pendingQuestions()[0];
    const after = new ScriptedModel().thenText('red it is');
    const second = await AgentSession.open({ model: after, sessionId: 's1', store, askUserQuestion: true });
    expect(second.pendingQuestions()).toEqual([asked]);
    expect(() => second.answer(asked?.questionId ?? '', { selectedLabels: [] })).toThrow(/at least one/);
    const events = second.events();
    second.answer(asked?.questionId ?? '', { selectedLabels: ['Red'] });
    for await (const event of events) if (event.type === 'RunEnded') break;
    expect(second.history.map((message) => message.content).slice(-2)).toEqual(['Red', 'red it is']);
    expect(types(await store.load('s1'))).toContain('questionClosed');
    await second.close();
    await first.close();
  });
});

function types(stored: { entries: readonly StoredEntry[] }): string[] {
  return stored.entries.map((entry) => entry.kind);
}
