import { CostCalculator, Message, Pricing, type Model, Usage } from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { add, addTool, drain, readBinding, recordingLogger } from '../test/helpers.js';
import {
  AgentSession,
  DEFAULT_SUMMARY_PROMPT,
  type QueryEvent,
  SUMMARY_HEADER,
  SummarizingCompactor,
} from './index.js';

afterEach(() => {
  vi.useRealTimers();
});

const context = (model: Model) => ({ sessionId: 's', signal: new AbortController().signal, model });

const conversation = [
  Message.system('be brief'),
  Message.user('add 1 and 2'),
  Message.assistant('', { toolCalls: [add('c1')] }),
  Message.tool('c1', 'add', '3'),
  Message.assistant('it is 3'),
  Message.user('and now?'),
  Message.user('also this'),
];

describe('SummarizingCompactor', () => {
  it('keeps the system prompt and the pending user turn; one summary replaces the rest', async () => {
    const model = new ScriptedModel().thenText('  added 1 and 2, got 3  ', { usage: Usage.of(40, 8) });
    const result = await new SummarizingCompactor().compact(conversation, context(model));
    expect(result.history).toEqual([
      Message.system('be brief'),
      Message.user(`${SUMMARY_HEADER}\nadded 1 and 2, got 3`),
      Message.user('and now?'),
      Message.user('also this'),
    ]);
    expect(result.usage).toEqual(Usage.of(40, 8));
    expect(result.modelId).toBe(model.id);
    const [request] = model.requests;
    expect(request?.messages[0]).toEqual(Message.system(DEFAULT_SUMMARY_PROMPT));
    expect(request?.messages[1]?.content).toBe(
      [
        '[user] add 1 and 2',
        '[assistant]  {tool_call add({"a":1,"b":2})}',
        '[tool add] 3',
        '[assistant] it is 3',
      ].join('\n'),
    );
    expect(request?.tools).toEqual([]);
  });

  it('uses its own model and prompt when given', async () => {
    const session = new ScriptedModel();
    const summarizer = new ScriptedModel({ id: 'cheap' }).thenText('short');
    const result = await new SummarizingCompactor({ model: summarizer, prompt: 'Summarise.' }).compact(
      conversation.slice(0, 5),
      context(session),
    );
    expect(result.history).toEqual([Message.system('be brief'), Message.user(`${SUMMARY_HEADER}\nshort`)]);
    expect(result.modelId).toBe('cheap');
    expect(summarizer.requests[0]?.messages[0]).toEqual(Message.system('Summarise.'));
    expect(session.requests).toHaveLength(0);
  });

  it('leaves the history when there is nothing to summarise, a call is unanswered, or the summary is blank', async () => {
    const model = new ScriptedModel().thenText('   ', { usage: Usage.of(5, 1) });
    const compactor = new SummarizingCompactor();
    const onlyPending = [Message.system('s'), Message.user('hi')];
    expect((await compactor.compact(onlyPending, context(model))).history).toBe(onlyPending);
    const midRound = conversation.slice(0, 3);
    expect((await compactor.compact(midRound, context(model))).history).toBe(midRound);
    expect(model.requests).toHaveLength(0);
    const blank = await compactor.compact(conversation, context(model));
    expect(blank.history).toBe(conversation);
    expect(blank.usage).toEqual(Usage.of(5, 1)); // the call was made: its tokens still count
  });

  it('gives up after its timeout, and when the run is cancelled', async () => {
    vi.useFakeTimers();
    const slow = new ScriptedModel().thenText('late', { chunkDelayMs: 120_000 });
    const pending = new SummarizingCompactor({ timeoutMs: 1_000 }).compact(conversation, context(slow));
    const outcome = expect(pending).rejects.toMatchObject({ name: 'TimeoutError' });
    await vi.advanceTimersByTimeAsync(1_000);
    await outcome;
    const cancel = new AbortController();
    const hanging = new ScriptedModel().thenText('late', { chunkDelayMs: 120_000 });
    const cancelled = new SummarizingCompactor().compact(conversation, {
      sessionId: 's',
      signal: cancel.signal,
      model: hanging,
    });
    cancel.abort(new Error('interrupted'));
    await expect(cancelled).rejects.toThrow('interrupted');
  });

  it('refuses a blank prompt and a timeout that is not positive', () => {
    expect(() => new SummarizingCompactor({ prompt: '  ' })).toThrow(/prompt/);
    expect(() => new SummarizingCompactor({ timeoutMs: 0 })).toThrow(/timeoutMs/);
    expect(() => new SummarizingCompactor({ timeoutMs: Number.NaN })).toThrow(/timeoutMs/);
  });

  it("is the session's default: the run goes on with the summary, whose tokens count against the run", async () => {
    const model = new ScriptedModel()
      .thenToolCalls([add('c1')], { usage: Usage.of(10, 5) })
      .thenText('summary of the addition', { usage: Usage.of(100, 10) })
      .thenText('done', { usage: Usage.of(10, 1) });
    const session = await AgentSession.open({
      model,
      systemPrompt: 'be brief',
      tools: [readBinding(addTool)],
      limits: { maxContextTokens: 30 },
      costCalculator: CostCalculator.staticTable({ scripted: Pricing.ofUsdPerMillion(1, 0) }),
      logger: recordingLogger(),
    });
    const events = session.events();
    const result = await session.send('please add one and two for me, thank you');
    expect(result).toMatchObject({ type: 'Success', result: 'done' });
    expect(result.usage.inputTokens).toBe(120);
    expect(result.cost.microUsd).toBe(120n);
    expect(session.history.slice(0, 2)).toEqual([
      Message.system('be brief'),
      Message.user(`${SUMMARY_HEADER}\nsummary of the addition`),
    ]);
    await session.close();
    const edited = (await drain(events)).filter(
      (event): event is Extract<QueryEvent, { type: 'ContextEdited' }> => event.type === 'ContextEdited',
    );
    expect(edited).toHaveLength(1);
    expect(edited[0]?.removedBlocks).toBeGreaterThan(0);
  });
});
