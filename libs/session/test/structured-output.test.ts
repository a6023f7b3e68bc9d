import {
  Confidence,
  OutputSchema,
  ProvenanceValidator,
  type Provenanced,
  RawOutputCapturePolicy,
} from '@helios/core';
import { ScriptedModel } from '@helios/testing';
import { describe, expect, it } from 'vitest';
import { AgentSession } from '../src/index.js';
import { BLANK_ANSWER_CORRECTION } from '../src/loop/turn.js';
import { recordingLogger } from './helpers.js';

interface Sentiment {
  readonly label: string;
  readonly confidence: number;
}

const sentiment = OutputSchema.fromJsonSchema<Sentiment>({
  type: 'object',
  properties: { label: { type: 'string' }, confidence: { type: 'number' } },
  required: ['label', 'confidence'],
});

describe('structured output', () => {
  it('returns the parsed value and sends the schema on every turn', async () => {
    const model = new ScriptedModel().thenText('{"label":"good","confidence":0.9}');
    const session = await AgentSession.open({ model, logger: recordingLogger() });
    expect(await session.runBlocking('rate it', sentiment)).toEqual({ label: 'good', confidence: 0.9 });
    expect(model.requests[0]?.schema).toBe(sentiment);
    await session.close();
  });

  it('a parse failure injects a corrective user turn carrying the diff and re-iterates', async () => {
    const model = new ScriptedModel()
      .thenText('{"label":"good"}')
      .thenText('```json\n{"label":"good","confidence":1}\n```');
    const session = await AgentSession.open({ model, logger: recordingLogger() });
    expect(await session.runBlocking('rate it', sentiment)).toEqual({ label: 'good', confidence: 1 });
    const correction = session.history[2];
    expect(correction?.role).toBe('user');
    expect(correction?.content).toContain("field 'confidence' is required but missing");
    expect(session.history[1]).toMatchObject({ role: 'assistant', content: '{"label":"good"}' });
    await session.close();
  });

  it('the failed attempt stays in history whole, its thinking and metadata included', async () => {
    const model = new ScriptedModel()
      .thenText('{"label":"good"}', { thinking: 'let me think', metadata: { signature: 'sig-1' } })
      .thenText('{"label":"good","confidence":1}');
    const session = await AgentSession.open({ model, logger: recordingLogger() });
    await session.runBlocking('rate it', sentiment);
    expect(session.history[1]).toMatchObject({
      role: 'assistant',
      content: '{"label":"good"}',
      thinking: 'let me think',
      metadata: { signature: 'sig-1' },
    });
    await session.close();
  });

  it('non-convergence ends ErrorMaxTurns', async () => {
    const model = new ScriptedModel().thenText('nope').thenText('still no');
    const session = await AgentSession.open({ model, logger: recordingLogger(), limits: { maxTurns: 2 } });
    const outcome = await session.runBlocking('rate it', sentiment).catch((error: unknown) => error);
    expect(outcome).toMatchObject({ result: { type: 'ErrorMaxTurns', turnsUsed: 2 } });
    await session.close();
  });

  it('validates provenanced output with its validator', async () => {
    const schema = OutputSchema.provenancedOf(sentiment, ProvenanceValidator.DEFAULT);
    const unsupported = JSON.stringify({
      output: { label: 'good', confidence: 1 },
      provenance: [{ field: 'label', sources: [], reasoning: 'felt like it', confidence: 'HIGH' }],
    });
    const supported = JSON.stringify({
      output: { label: 'good', confidence: 1 },
      provenance: [
        {
          field: 'label',
          sources: [{ url: 'https://example.com/review', excerpts: [] }],
          reasoning: 'the review says so',
          confidence: 'HIGH',
        },
      ],
    });
    const model = new ScriptedModel().thenText(unsupported).thenText(supported);
    const session = await AgentSession.open({ model, logger: recordingLogger() });
    const value: Provenanced<Sentiment> = await session.runBlocking('rate with sources', schema);
    expect(value.output).toEqual({ label: 'good', confidence: 1 });
    expect(value.provenance[0]?.confidence).toBe(Confidence.HIGH);
    expect(session.history[2]?.content).toContain('requires at least one source');
    await session.close();
  });

  it('a session-wide schema is sent, validated and self-corrected on a run without its own', async () => {
    const model = new ScriptedModel()
      .thenText('')
      .thenText('{"label":"good"}')
      .thenText('{"label":"good","confidence":1}');
    const session = await AgentSession.open({ model, logger: recordingLogger(), outputSchema: sentiment });
    const result = await session.send('x');
    expect(model.requests.map((request) => request.schema)).toEqual([sentiment, sentiment, sentiment]);
    expect(result).toMatchObject({ type: 'Success', result: '{"label":"good","confidence":1}' });
    const corrections = session.history.filter((m) => m.role === 'user').slice(1);
    expect(corrections.map((m) => m.content)).toEqual([
      BLANK_ANSWER_CORRECTION,
      expect.stringContaining("field 'confidence' is required but missing"),
    ]);
    await session.close();
  });

  it('a session-wide schema that never converges ends ErrorMaxTurns, a blank answer included', async () => {
    const model = new ScriptedModel({ rawOutputCapture: RawOutputCapturePolicy.DISABLED })
      .thenText('')
      .thenText('not json');
    const session = await AgentSession.open({
      model,
      logger: recordingLogger(),
      outputSchema: sentiment,
      limits: { maxTurns: 2 },
    });
    expect(await session.send('x')).toMatchObject({ type: 'ErrorMaxTurns', turnsUsed: 2 });
    await session.close();
  });

  it("a run's own schema wins over the session's", async () => {
    const other = OutputSchema.fromJsonSchema<{ n: number }>({
      type: 'object',
      properties: { n: { type: 'number' } },
      required: ['n'],
    });
    const model = new ScriptedModel().thenText('{"n":3}');
    const session = await AgentSession.open({ model, logger: recordingLogger(), outputSchema: sentiment });
    expect(await session.runBlocking('x', other)).toEqual({ n: 3 });
    expect(model.requests[0]?.schema).toBe(other);
    await session.close();
  });
});
