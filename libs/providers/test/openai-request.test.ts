import {
  inlineFile,
  Message,
  ModelConfig,
  OutputSchema,
  Reasoning,
  ReasoningDisplay,
  ReasoningLevel,
  ToolChoice,
  type ToolDefinition,
} from '@helios/core';
import { afterEach, describe, expect, it } from 'vitest';
import { createOpenAiModel } from '../src/openai/openai-model.js';
import { sseResponse, WEATHER_TOOL } from './support/fixtures.js';
import { startOpenAi, stopOpenAi } from './support/openai-server.js';

const P = 'openai';

afterEach(stopOpenAi);

async function bodyOf(
  options: Parameters<typeof startOpenAi>[1],
  messages: readonly Message[] = [Message.user('Hi')],
  tools: readonly ToolDefinition[] = [WEATHER_TOOL],
): Promise<Record<string, unknown>> {
  const { server, model } = await startOpenAi(sseResponse(P, 'plain-text'), options);
  await model.chat(messages, tools);
  return server.requests[0]?.json() as Record<string, unknown>;
}

describe('openai Responses request', () => {
  it('sends instructions, input items, function tools and the catalogue ceiling, nothing unasked', async () => {
    const body = await bodyOf({ modelId: 'gpt-5.5' }, [
      Message.system('Be brief.'),
      Message.user('Weather in Oslo?'),
      Message.assistant('Checking.', {
        toolCalls: [{ id: 'call_1', name: 'get_weather', arguments: { city: 'Oslo' } }],
      }),
      Message.tool('call_1', 'get_weather', 'sunny'),
      Message.assistant('', { toolCalls: [{ id: 'call_2', name: 'get_weather', arguments: {} }] }),
    ]);
    expect(body).toEqual({
      model: 'gpt-5.5',
      input: [
        { type: 'message', role: 'user', content: 'Weather in Oslo?' },
        { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Checking.' }] },
        { type: 'function_call', call_id: 'call_1', name: 'get_weather', arguments: '{"city":"Oslo"}' },
        { type: 'function_call_output', call_id: 'call_1', output: 'sunny' },
        { type: 'function_call', call_id: 'call_2', name: 'get_weather', arguments: '{}' },
      ],
      stream: true,
      instructions: 'Be brief.',
      tools: [
        {
          type: 'function',
          name: 'get_weather',
          description: 'Current weather for a city',
          parameters: WEATHER_TOOL.inputSchema,
        },
      ],
      max_output_tokens: 131_072,
    });
  });

  it('sends reasoning effort only when set, with a summary only for SUMMARY display', async () => {
    const summary = await bodyOf({
      reasoning: Reasoning.effort(ReasoningLevel.HIGH, ReasoningDisplay.SUMMARY),
    });
    expect(summary['reasoning']).toEqual({ effort: 'high', summary: 'auto' });
    await stopOpenAi();
    const hidden = await bodyOf({ modelId: 'o3', reasoning: Reasoning.effort(ReasoningLevel.LOW) });
    expect(hidden['reasoning']).toEqual({ effort: 'low' });
    await stopOpenAi();
    const off = await bodyOf({ reasoning: Reasoning.off(), temperature: 0.3, topP: 0.9 });
    expect(off).toMatchObject({ reasoning: { effort: 'none' }, temperature: 0.3, top_p: 0.9 });
    await stopOpenAi();
    const unset = await bodyOf({ modelId: 'gpt-4.1', temperature: 0.5 });
    expect(unset).not.toHaveProperty('reasoning');
    expect(unset['temperature']).toBe(0.5);
    await stopOpenAi();
    const notReasoningOff = await bodyOf({ modelId: 'gpt-4o', reasoning: Reasoning.off() });
    expect(notReasoningOff).not.toHaveProperty('reasoning');
  });

  it('spells tool choice, and sends it only with tools', async () => {
    const required = await bodyOf({ toolChoice: ToolChoice.required(['get_weather']) });
    expect(required['tool_choice']).toEqual({ type: 'function', name: 'get_weather' });
    await stopOpenAi();
    const several = await bodyOf({ toolChoice: ToolChoice.required(['get_weather', 'get_time']) });
    expect(several['tool_choice']).toEqual({
      type: 'allowed_tools',
      mode: 'required',
      tools: [
        { type: 'function', name: 'get_weather' },
        { type: 'function', name: 'get_time' },
      ],
    });
    await stopOpenAi();
    expect((await bodyOf({ toolChoice: ToolChoice.any() }))['tool_choice']).toBe('required');
    await stopOpenAi();
    expect((await bodyOf({ toolChoice: ToolChoice.none() }))['tool_choice']).toBe('none');
    await stopOpenAi();
    const auto = await bodyOf({ toolChoice: ToolChoice.auto() }, [Message.user('Hi')], []);
    expect(auto).not.toHaveProperty('tool_choice');
    expect(auto).not.toHaveProperty('tools');
  });

  it('sends an unknown model id as given, without max_output_tokens unless configured', async () => {
    const body = await bodyOf({ modelId: 'gpt-7-preview', reasoning: Reasoning.effort(ReasoningLevel.MAX) });
    expect(body).toMatchObject({ model: 'gpt-7-preview', reasoning: { effort: 'max' } });
    expect(body).not.toHaveProperty('max_output_tokens');
    await stopOpenAi();
    const capped = await bodyOf({ modelId: 'gpt-7-preview', maxOutputTokens: 900 });
    expect(capped['max_output_tokens']).toBe(900);
  });

  it('asks for strict JSON Schema output, closing every object', async () => {
    const { server, model } = await startOpenAi(sseResponse(P, 'plain-text'));
    const schema = OutputSchema.fromJsonSchema(
      {
        type: 'object',
        properties: {
          city: { type: 'string' },
          where: { type: 'object', properties: { lat: { type: 'number' } }, required: ['lat'] },
        },
        required: ['city', 'where'],
      },
      { name: 'place' },
    );
    await collectAll(model.chatStream([Message.user('Where?')], [], { schema }));
    const body = server.requests[0]?.json() as Record<string, unknown>;
    expect(body['text']).toEqual({
      format: {
        type: 'json_schema',
        name: 'place',
        strict: true,
        schema: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            where: {
              type: 'object',
              properties: { lat: { type: 'number' } },
              required: ['lat'],
              additionalProperties: false,
            },
          },
          required: ['city', 'where'],
          additionalProperties: false,
        },
      },
    });
  });

  it('sends a schema with optional or open-map properties unchanged and not strict', async () => {
    const { server, model } = await startOpenAi(sseResponse(P, 'plain-text'));
    const optional = OutputSchema.fromJsonSchema({
      type: 'object',
      properties: { city: { type: 'string' } },
    });
    const open = OutputSchema.fromJsonSchema({
      type: 'object',
      properties: { tags: { type: 'object', additionalProperties: { type: 'string' } } },
      required: ['tags'],
    });
    await collectAll(model.chatStream([Message.user('a')], [], { schema: optional }));
    await collectAll(model.chatStream([Message.user('b')], [], { schema: open }));
    for (const [index, schema] of [optional, open].entries()) {
      const body = server.requests[index]?.json() as { text: unknown };
      expect(body.text).toEqual({
        format: { type: 'json_schema', name: 'output', schema: schema.jsonSchema, strict: false },
      });
    }
  });

  it('sends images as input_image and other files as input_file, the text last', async () => {
    const png = inlineFile(new Uint8Array([1, 2, 3]), 'image/png');
    const pdf = inlineFile(new Uint8Array([4, 5]), 'application/pdf', 'report.pdf');
    const body = await bodyOf({}, [Message.user('Describe', { inlineFiles: [png, pdf] })], []);
    expect(body['input']).toEqual([
      {
        type: 'message',
        role: 'user',
        content: [
          { type: 'input_image', image_url: 'data:image/png;base64,AQID' },
          { type: 'input_file', filename: 'report.pdf', file_data: 'data:application/pdf;base64,BAU=' },
          { type: 'input_text', text: 'Describe' },
        ],
      },
    ]);
  });
});

describe('openai catalogue refusals at creation', () => {
  const base = { apiKey: 'sk-x' };
  const create = (modelId: string, options: Parameters<typeof ModelConfig.create>[0]) =>
    createOpenAiModel(modelId, ModelConfig.create({ ...base, ...options }));

  it.each([
    [
      'gpt-5.5',
      { reasoning: Reasoning.effort(ReasoningLevel.MAX) },
      "openai model 'gpt-5.5' does not accept reasoning Effort(MAX, HIDDEN); accepted: Effort(LOW|MEDIUM|HIGH|XHIGH, HIDDEN|SUMMARY), Off",
    ],
    [
      'gpt-5.5',
      { reasoning: Reasoning.effort(ReasoningLevel.LOW, ReasoningDisplay.PROGRESS) },
      "openai model 'gpt-5.5' does not accept reasoning Effort(LOW, PROGRESS); accepted: Effort(LOW|MEDIUM|HIGH|XHIGH, HIDDEN|SUMMARY), Off",
    ],
    [
      'gpt-6.1-sol',
      { reasoning: Reasoning.off() },
      "openai model 'gpt-6.1-sol' does not accept reasoning Off; accepted: Effort(LOW|MEDIUM|HIGH|XHIGH|MAX, HIDDEN|SUMMARY)",
    ],
    [
      'gpt-4.1',
      { reasoning: Reasoning.effort(ReasoningLevel.LOW) },
      "openai model 'gpt-4.1' does not accept reasoning Effort(LOW, HIDDEN); accepted: Off",
    ],
    [
      'o3',
      { temperature: 0.2 },
      "openai model 'o3' does not accept sampling temperature 0.2; accepted: no temperature or topP",
    ],
    [
      'gpt-5.5',
      { topP: 0.5 },
      "openai model 'gpt-5.5' does not accept sampling topP 0.5 without reasoning Off; accepted: temperature or topP with reasoning Off",
    ],
    [
      'gpt-5.4-mini',
      { temperature: 1, reasoning: Reasoning.effort(ReasoningLevel.LOW) },
      "openai model 'gpt-5.4-mini' does not accept sampling with Effort temperature 1; accepted: temperature or topP without an Effort",
    ],
    [
      'gpt-4o-2024-08-06',
      { maxOutputTokens: 20_000 },
      "openai model 'gpt-4o-2024-08-06' does not accept maxOutputTokens 20000; accepted: 1..16384",
    ],
    [
      'gpt-4o',
      { seed: 7 },
      "openai model 'gpt-4o' does not accept seed 7; accepted: none (no seed parameter)",
    ],
    [
      'gpt-4o',
      { stopSequences: ['END'] },
      'openai model \'gpt-4o\' does not accept stopSequences ["END"]; accepted: none (no stop parameter)',
    ],
    [
      'gpt-4o',
      { apiVersion: 'v2' },
      "openai model 'gpt-4o' does not accept apiVersion v2; accepted: none (the version is in the base URL)",
    ],
  ] as const)('%s refuses %o', (modelId, options, message) => {
    expect(() => create(modelId, options)).toThrow(message);
  });

  it('accepts sampling on models that take it and reports catalogue sizes', () => {
    const model = create('gpt-5.4', { temperature: 0.7 });
    expect(model).toMatchObject({ contextWindow: 1_050_000, maxOutputTokens: 131_072, provider: 'openai' });
    expect(create('gpt-9', {})).toMatchObject({ contextWindow: 0, maxOutputTokens: 0 });
    expect(() => createOpenAiModel('gpt-5.5', ModelConfig.create({}))).toThrow(
      "openai model 'gpt-5.5' needs an apiKey (or a baseUrl that authenticates itself)",
    );
    expect(() => create(' ', {})).toThrow('openai: model id must be non-blank');
  });
});

async function collectAll(stream: AsyncIterable<unknown>): Promise<void> {
  for await (const _chunk of stream) {
    // drained
  }
}
