import { type Message as CoreMessage, Message, responseToMessage, toolDefinition } from '@helios/core';
import { afterEach, describe, expect, it } from 'vitest';
import { promptFingerprint } from '../src/anthropic/anthropic-prompt-binding.js';
import { startAnthropic, stopAnthropic } from './support/anthropic-server.js';
import { sseResponse, WEATHER_TOOL } from './support/fixtures.js';

const P = 'anthropic';
const FINGERPRINT = 'anthropic.promptFingerprint';
const lookup = toolDefinition({
  name: 'lookup',
  description: 'Find a fact',
  inputSchema: { type: 'object' },
});
const renamed = toolDefinition({ ...WEATHER_TOOL, description: 'Weather now, for one city' });

const SIGNATURE = 'EqQBCgIYAhIM1gbcDa9GJwZA2b3hGgxBdjrkzLoky3dl1pkiMOYds+x1GvXUQ3i2Ua/Anq+Zh8xf=';
const THINKING = '27 * 453: 27*400 = 10800, 27*53 = 1431, total 12231.';
const REDACTED =
  'EmwKAhgBEgy3va3pzix/LafPsn4aDFIT2Xlxh0L5L8rLVyIwxtE3rAFBa8cr3qpPkNRj2YfWXGmKDxH4mPnZ5sQ7vB5URj2pabZHXmrZ2uFi+3Aw';
const TOOL_SIGNATURE = 'ErUBCkYIBxgCIkBvZ3Rpb25zQXJlQm91bmRUb1RoZVByb21wdA+Wz1pbmdlcnByaW50VG9vbHM=';
const TOOL_THINKING = 'The user wants Paris weather; call get_weather.';
const CALL_ID = 'toolu_01Bound7cXn2VqkP4rS9eT3a';

afterEach(stopAnthropic);

/** The `messages` of the server's nth request. */
function sentMessages(server: { requests: readonly { json(): unknown }[] }, index: number): unknown[] {
  return (server.requests[index]?.json() as { messages: unknown[] }).messages;
}

/** Starts `modelId` with turn 1 (thinking, redacted thinking, text) already answered under `system` + tools. */
async function afterThinkingTurn(modelId: string, answers: number) {
  const plan = [sseResponse(P, 'thinking-signature')];
  for (let index = 0; index < answers; index += 1) plan.push(sseResponse(P, 'plain-text'));
  const fixture = await startAnthropic(plan, { modelId });
  const first = await fixture.model.chat(
    [Message.system('You are terse.'), Message.user('27 * 453?')],
    [lookup],
  );
  return { ...fixture, first, turn: responseToMessage(first) };
}

function history(system: string, turn: CoreMessage): CoreMessage[] {
  return [Message.system(system), Message.user('27 * 453?'), turn, Message.user('And doubled?')];
}

describe('anthropic thinking bound to its prompt', () => {
  it('records the prompt fingerprint on a turn that thought, and none on a turn that did not', async () => {
    const { model, first } = await afterThinkingTurn('claude-opus-5-5', 1);
    expect(first.metadata[FINGERPRINT]).toBe(promptFingerprint('You are terse.', [lookup]));
    expect(first.metadata[FINGERPRINT]).toMatch(/^[0-9a-f]{64}$/);
    const plain = await model.chat([Message.user('Capital of France?')]);
    expect(plain.metadata).toEqual({ 'anthropic.stopReason': 'end_turn' });
  });

  it('fingerprints the system prompt and every part of each tool, not the order of schema keys', () => {
    const base = promptFingerprint('You are terse.', [WEATHER_TOOL]);
    const reordered = toolDefinition({
      name: 'get_weather',
      description: 'Current weather for a city',
      inputSchema: { required: ['city'], properties: { city: { type: 'string' } }, type: 'object' },
    });
    expect(promptFingerprint('You are terse.', [reordered])).toBe(base);
    expect(promptFingerprint('You are terse!', [WEATHER_TOOL])).not.toBe(base);
    expect(promptFingerprint('You are terse.', [renamed])).not.toBe(base);
    expect(
      promptFingerprint('You are terse.', [{ ...WEATHER_TOOL, inputSchema: { type: 'object' } }]),
    ).not.toBe(base);
    expect(promptFingerprint('You are terse.', [WEATHER_TOOL, lookup])).not.toBe(base);
    expect(promptFingerprint('You are terse.', [])).not.toBe(base);
  });

  it('sends thinking back byte for byte while the system prompt and tools are unchanged', async () => {
    const { server, model, first, turn } = await afterThinkingTurn('claude-opus-5-5', 1);
    await model.chat(history('You are terse.', turn), [lookup]);
    expect(JSON.stringify(sentMessages(server, 1)[1])).toBe(
      `{"role":"assistant","content":${first.metadata['anthropic.rawContent']}}`,
    );
    expect(first.metadata['anthropic.rawContent']).toBe(
      JSON.stringify([
        { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
        { type: 'redacted_thinking', data: REDACTED },
        { type: 'text', text: '12,231' },
      ]),
    );
  });

  it('drops the earlier thinking, signed and redacted, once the system prompt changes', async () => {
    const { server, model, turn } = await afterThinkingTurn('claude-opus-5-5', 1);
    await model.chat(history('You are verbose.', turn), [lookup]);
    expect(server.requests[1]?.json()).toEqual({
      model: 'claude-opus-5-5',
      max_tokens: 131_072,
      system: 'You are verbose.',
      messages: [
        { role: 'user', content: '27 * 453?' },
        { role: 'assistant', content: '12,231' },
        { role: 'user', content: 'And doubled?' },
      ],
      tools: [{ name: 'lookup', description: 'Find a fact', input_schema: { type: 'object' } }],
      stream: true,
    });
  });

  it('drops the earlier thinking when the tool set changes, a description or an added tool alike', async () => {
    const { server, model, turn } = await afterThinkingTurn('claude-sonnet-5-5', 3);
    const described = toolDefinition({ ...lookup, description: 'Find one fact' });
    await model.chat(history('You are terse.', turn), [described]);
    await model.chat(history('You are terse.', turn), [lookup, WEATHER_TOOL]);
    await model.chat(history('You are terse.', turn));
    for (const index of [1, 2, 3]) {
      expect(sentMessages(server, index)).toEqual([
        { role: 'user', content: '27 * 453?' },
        { role: 'assistant', content: '12,231' },
        { role: 'user', content: 'And doubled?' },
      ]);
    }
  });

  it('keeps text, tool calls and results of the earlier turn, and the thinking of turns under the new prompt', async () => {
    const { server, model } = await startAnthropic(
      [
        sseResponse(P, 'thinking-tool-use'),
        sseResponse(P, 'thinking-signature'),
        sseResponse(P, 'plain-text'),
      ],
      { modelId: 'claude-fable-5-1-20261115' },
    );
    const question = [Message.system('Old prompt.'), Message.user('Weather in Paris?')];
    const calling = responseToMessage(await model.chat(question, [WEATHER_TOOL]));
    expect(calling.metadata[FINGERPRINT]).toBe(promptFingerprint('Old prompt.', [WEATHER_TOOL]));
    const underNewPrompt = [
      Message.system('New prompt.'),
      Message.user('Weather in Paris?'),
      calling,
      Message.tool(CALL_ID, 'get_weather', '18°C, clear'),
    ];
    const answered = responseToMessage(await model.chat(underNewPrompt, [WEATHER_TOOL]));
    const withoutThinking = {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking.' },
        { type: 'tool_use', id: CALL_ID, name: 'get_weather', input: { city: 'Paris' } },
      ],
    };
    const result = {
      role: 'user',
      content: [{ type: 'tool_result', tool_use_id: CALL_ID, content: '18°C, clear' }],
    };
    expect(sentMessages(server, 1)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      withoutThinking,
      result,
    ]);

    await model.chat([...underNewPrompt, answered, Message.user('And tomorrow?')], [WEATHER_TOOL]);
    expect(sentMessages(server, 2)).toEqual([
      { role: 'user', content: 'Weather in Paris?' },
      withoutThinking,
      result,
      {
        role: 'assistant',
        content: [
          { type: 'thinking', thinking: THINKING, signature: SIGNATURE },
          { type: 'redacted_thinking', data: REDACTED },
          { type: 'text', text: '12,231' },
        ],
      },
      { role: 'user', content: 'And tomorrow?' },
    ]);
  });

  it('replays thinking after a prompt change on a model that does not bind it', async () => {
    for (const modelId of ['claude-opus-5', 'claude-sonnet-4-6', 'claude-mythos-5-1']) {
      const { server, model, first, turn } = await afterThinkingTurn(modelId, 1);
      await model.chat(history('You are verbose.', turn), [WEATHER_TOOL]);
      expect(JSON.stringify(sentMessages(server, 1)[1])).toBe(
        `{"role":"assistant","content":${first.metadata['anthropic.rawContent']}}`,
      );
    }
  });

  it('drops thinking of a turn stored without a fingerprint only on a model that binds it', async () => {
    const older = Message.assistant('', {
      toolCalls: [{ id: 'toolu_1', name: 'lookup', arguments: { q: 'x' } }],
      metadata: {
        'anthropic.thinkingBlocks': JSON.stringify([{ text: TOOL_THINKING, signature: TOOL_SIGNATURE }]),
      },
    });
    const conversation = [Message.user('Look it up'), older, Message.tool('toolu_1', 'lookup', '42')];
    const toolUse = { type: 'tool_use', id: 'toolu_1', name: 'lookup', input: { q: 'x' } };
    const thinking = { type: 'thinking', thinking: TOOL_THINKING, signature: TOOL_SIGNATURE };

    const bound = await startAnthropic(sseResponse(P, 'plain-text'), { modelId: 'claude-opus-5-5' });
    await bound.model.chat(conversation, [lookup]);
    expect(sentMessages(bound.server, 0)[1]).toEqual({ role: 'assistant', content: [toolUse] });

    const unbound = await startAnthropic(sseResponse(P, 'plain-text'), { modelId: 'claude-opus-5' });
    await unbound.model.chat(conversation, [lookup]);
    expect(sentMessages(unbound.server, 0)[1]).toEqual({ role: 'assistant', content: [thinking, toolUse] });
  });

  it('sends an empty text block for a turn that was only thinking, once its thinking is dropped', async () => {
    const thoughtOnly = Message.assistant('', {
      metadata: {
        [FINGERPRINT]: promptFingerprint('Old prompt.', []),
        'anthropic.rawContent': JSON.stringify([{ type: 'redacted_thinking', data: REDACTED }]),
      },
    });
    const { server, model } = await startAnthropic(sseResponse(P, 'plain-text'), {
      modelId: 'claude-opus-5-5',
    });
    await model.chat([
      Message.system('New prompt.'),
      Message.user('Go on'),
      thoughtOnly,
      Message.user('Well?'),
    ]);
    expect(sentMessages(server, 0)[1]).toEqual({ role: 'assistant', content: '' });
  });
});
