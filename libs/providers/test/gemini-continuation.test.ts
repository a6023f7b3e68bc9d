import {
  Message,
  OutputSchema,
  RawOutputCapturePolicy,
  responseToMessage,
  StructuredOutputParseError,
  toolDefinition,
} from '@helios/core';
import { afterEach, describe, expect, it } from 'vitest';
import { ProviderRejectedError } from '../src/shared/provider-errors.js';
import { jsonResponse, sseResponse, WEATHER_TOOL } from './support/fixtures.js';
import { GEMINI_KEY, startGemini, stopGemini } from './support/gemini-server.js';

const P = 'gemini';
const clock = toolDefinition({
  name: 'get_time',
  description: 'Current time in a zone',
  inputSchema: { type: 'object', properties: { zone: { type: 'string' } } },
});

afterEach(stopGemini);

type Body = Record<string, unknown>;

function userStep(text: string): Body {
  return { type: 'user_input', content: [{ type: 'text', text }] };
}

describe('gemini provider continuation', () => {
  it('continues the interaction: the second turn sends its id and only the new turns', async () => {
    const plan = [sseResponse(P, 'plain-text'), sseResponse(P, 'plain-text')];
    const { server, model } = await startGemini(plan);
    const history = [Message.system('Be brief.'), Message.user('Capital of France?')];
    const first = await model.chat(history);
    expect(first.metadata['gemini.interactionId']).toBe('v1_plain01');
    await model.chat([...history, responseToMessage(first), Message.user('And of Spain?')]);
    const second = server.requests[1]?.json() as Body;
    expect(second['previous_interaction_id']).toBe('v1_plain01');
    expect(second['input']).toEqual([userStep('And of Spain?')]);
    expect(second['system_instruction']).toBe('Be brief.');
    expect(second).not.toHaveProperty('store');
  });

  it('continues after tool calls by sending only the function results', async () => {
    const plan = [sseResponse(P, 'function-call'), sseResponse(P, 'plain-text')];
    const { server, model } = await startGemini(plan);
    const history = [Message.user('Weather and time in Paris?')];
    const first = await model.chat(history, [WEATHER_TOOL, clock]);
    await model.chat(
      [
        ...history,
        responseToMessage(first),
        Message.tool('un6k8t18', 'get_weather', 'sunny'),
        Message.tool('q2w9e7r1', 'get_time', '14:05'),
      ],
      [WEATHER_TOOL, clock],
    );
    const second = server.requests[1]?.json() as Body;
    expect(second['previous_interaction_id']).toBe('v1_tools01');
    expect(second['input']).toEqual([
      { type: 'function_result', call_id: 'un6k8t18', name: 'get_weather', result: 'sunny' },
      { type: 'function_result', call_id: 'q2w9e7r1', name: 'get_time', result: '14:05' },
    ]);
  });

  it('off: resends the whole history with thought signatures, asks not to store, keeps no ids', async () => {
    const plan = [sseResponse(P, 'function-call'), sseResponse(P, 'plain-text')];
    const { server, model } = await startGemini(plan, { providerContinuation: false });
    const history = [Message.user('Weather and time in Paris?')];
    const first = await model.chat(history, [WEATHER_TOOL, clock]);
    expect(first.metadata).not.toHaveProperty('gemini.interactionId');
    expect(first.metadata).not.toHaveProperty('gemini.contextDigest');
    const second = await model.chat(
      [
        ...history,
        responseToMessage(first),
        Message.tool('un6k8t18', 'get_weather', 'sunny'),
        Message.tool('q2w9e7r1', 'get_time', '14:05'),
      ],
      [WEATHER_TOOL, clock],
    );
    expect(Object.keys(second.metadata).sort()).toEqual(['gemini.apiVersion', 'gemini.status']);
    const body = server.requests[1]?.json() as Body;
    expect(body).not.toHaveProperty('previous_interaction_id');
    expect(body['store']).toBe(false);
    expect(body['input']).toEqual([
      userStep('Weather and time in Paris?'),
      { type: 'thought', signature: 'EpoGCpcGAXLI2nxSigA==' },
      { type: 'function_call', id: 'un6k8t18', name: 'get_weather', arguments: { city: 'Paris' } },
      { type: 'function_call', id: 'q2w9e7r1', name: 'get_time', arguments: { zone: 'CET' } },
      { type: 'function_result', call_id: 'un6k8t18', name: 'get_weather', result: 'sunny' },
      { type: 'function_result', call_id: 'q2w9e7r1', name: 'get_time', result: '14:05' },
    ]);
    expect(server.requests[0]?.body).not.toContain('previous_interaction_id');
  });

  it('a changed system prompt costs one full resend, not a failed request', async () => {
    const plan = [sseResponse(P, 'plain-text'), sseResponse(P, 'plain-text')];
    const { server, model } = await startGemini(plan);
    const first = await model.chat([Message.system('Be brief.'), Message.user('Capital of France?')]);
    const again = await model.chat([
      Message.system('Answer in French.'),
      Message.user('Capital of France?'),
      responseToMessage(first),
      Message.user('And of Spain?'),
    ]);
    expect(again.content).toBe('Paris is the capital.');
    expect(server.requests).toHaveLength(2);
    const body = server.requests[1]?.json() as Body;
    expect(body).not.toHaveProperty('previous_interaction_id');
    expect(body['system_instruction']).toBe('Answer in French.');
    expect(body['input']).toEqual([
      userStep('Capital of France?'),
      { type: 'model_output', content: [{ type: 'text', text: 'Paris is the capital.' }] },
      userStep('And of Spain?'),
    ]);
  });

  it('a changed tool set costs one full resend too', async () => {
    const plan = [sseResponse(P, 'plain-text'), sseResponse(P, 'plain-text')];
    const { server, model } = await startGemini(plan);
    const history = [Message.user('Capital of France?')];
    const first = await model.chat(history, [WEATHER_TOOL]);
    await model.chat([...history, responseToMessage(first), Message.user('Time?')], [WEATHER_TOOL, clock]);
    const body = server.requests[1]?.json() as Body;
    expect(body).not.toHaveProperty('previous_interaction_id');
    expect(body['input']).toHaveLength(3);
  });

  it('an expired interaction costs one full resend, then the turn succeeds', async () => {
    const plan = [
      sseResponse(P, 'plain-text'),
      jsonResponse(P, 'interaction-not-found', 404),
      sseResponse(P, 'plain-text'),
    ];
    const { server, model } = await startGemini(plan);
    const history = [Message.user('Capital of France?')];
    const first = await model.chat(history);
    const again = await model.chat([...history, responseToMessage(first), Message.user('And of Spain?')]);
    expect(again.content).toBe('Paris is the capital.');
    expect(server.requests).toHaveLength(3);
    expect((server.requests[1]?.json() as Body)['previous_interaction_id']).toBe('v1_plain01');
    const resend = server.requests[2]?.json() as Body;
    expect(resend).not.toHaveProperty('previous_interaction_id');
    expect(resend['input']).toHaveLength(3);
  });

  it('resends only once: a full request that is rejected fails', async () => {
    const gone = jsonResponse(P, 'interaction-not-found', 404);
    const { server, model } = await startGemini([sseResponse(P, 'plain-text'), gone, gone]);
    const history = [Message.user('Capital of France?')];
    const first = await model.chat(history);
    const error = await model
      .chat([...history, responseToMessage(first), Message.user('And of Spain?')])
      .catch((failure: unknown) => failure);
    expect(error).toBeInstanceOf(ProviderRejectedError);
    expect(server.requests).toHaveLength(3);
  });
});

describe('gemini API version and privacy controls', () => {
  it('selects v1 per model instance and reports it, never the URL or key', async () => {
    const { server, model } = await startGemini(sseResponse(P, 'plain-text'), { apiVersion: 'v1' });
    const response = await model.chat([Message.user('Hi')]);
    expect(server.requests[0]?.url).toBe('/v1/interactions?alt=sse');
    expect(response.metadata['gemini.apiVersion']).toBe('v1');
    const shown = JSON.stringify(response.metadata);
    expect(shown).not.toContain('127.0.0.1');
    expect(shown).not.toContain(GEMINI_KEY);
  });

  it('a base URL is the complete endpoint prefix and wins over the version path', async () => {
    const { server: first } = await startGemini(sseResponse(P, 'plain-text'));
    const { server, model } = await startGemini(sseResponse(P, 'plain-text'), {
      baseUrl: `${first.url}/proxy/gemini/`,
      apiVersion: 'v1',
    });
    const response = await model.chat([Message.user('Hi')]);
    expect(first.requests[0]?.url).toBe('/proxy/gemini/interactions?alt=sse');
    expect(server.requests).toHaveLength(0);
    expect(response.metadata['gemini.apiVersion']).toBe('v1');
    expect(JSON.stringify(response.metadata)).not.toContain('proxy');
  });

  it('RawOutputCapturePolicy.DISABLED keeps the answer out of errors and metadata', async () => {
    const answers = [sseResponse(P, 'json-answer'), sseResponse(P, 'json-answer')];
    const { server, model } = await startGemini(answers, {
      rawOutputCapture: RawOutputCapturePolicy.DISABLED,
      providerContinuation: false,
    });
    expect(model.rawOutputCapture).toBe(RawOutputCapturePolicy.DISABLED);
    const schema = OutputSchema.fromJsonSchema<{ city: string }>(
      { type: 'object', properties: { city: { type: 'string' } }, required: ['city'] },
      { name: 'capital' },
    );
    const error = await model.chat([Message.user('Capital?')], [], { schema }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(StructuredOutputParseError);
    expect((error as StructuredOutputParseError).rawContent).toBeUndefined();
    expect(JSON.stringify(error) + String(error)).not.toContain('Paris');
    expect((error as StructuredOutputParseError).correctionMessage()).toContain("'city'");
    const plain = await model.chat([Message.user('Capital?')]);
    expect(plain.content).toBe('{"town": "Paris"}');
    expect(Object.keys(plain.metadata).sort()).toEqual(['gemini.apiVersion', 'gemini.status']);
    expect((server.requests[0]?.json() as Body)['response_format']).toEqual({
      type: 'text',
      mime_type: 'application/json',
      schema: schema.jsonSchema,
    });
  });
});
