import { ModelConfig, Reasoning, ReasoningDisplay, ReasoningLevel, ToolChoice } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { findGeminiModel } from './gemini-catalogue.js';
import { createGeminiModel } from './gemini-model.js';
import { geminiRequestOptions } from './gemini-options.js';

const KEY = 'AIzaSyTest-gemini-key-0123456789abcdef';

function create(modelId: string, options: Parameters<typeof ModelConfig.create>[0] = {}) {
  return createGeminiModel(modelId, ModelConfig.create({ apiKey: KEY, ...options }));
}

function generation(modelId: string, options: Parameters<typeof ModelConfig.create>[0]) {
  return geminiRequestOptions(modelId, findGeminiModel(modelId), ModelConfig.create(options));
}

describe('gemini catalogue rules', () => {
  it('reports the catalogue window and ceiling', () => {
    expect(create('gemini-3.8-flash')).toMatchObject({
      provider: 'gemini',
      contextWindow: 1_048_576,
      maxOutputTokens: 65_536,
    });
  });

  it('spells thinking levels and summaries exactly as asked', () => {
    const summary = Reasoning.effort(ReasoningLevel.MINIMAL, ReasoningDisplay.SUMMARY);
    expect(generation('gemini-3.5-flash', { reasoning: summary }).generation).toEqual({
      max_output_tokens: 65_536,
      thinking_level: 'minimal',
      thinking_summaries: 'auto',
    });
    const hidden = Reasoning.effort(ReasoningLevel.HIGH);
    expect(generation('gemini-3.1-pro-preview', { reasoning: hidden }).generation).toMatchObject({
      thinking_level: 'high',
      thinking_summaries: 'none',
    });
    expect(generation('gemini-3-flash-preview', {}).generation).toEqual({ max_output_tokens: 65_536 });
  });

  it('refuses what a model does not accept, naming model, value and accepted values', () => {
    expect(() =>
      create('gemini-3.1-pro-preview', { reasoning: Reasoning.effort(ReasoningLevel.MINIMAL) }),
    ).toThrow(
      "gemini model 'gemini-3.1-pro-preview' does not accept reasoning Effort(MINIMAL, HIDDEN); accepted: Effort(LOW|MEDIUM|HIGH, HIDDEN|SUMMARY)",
    );
    expect(() => create('gemini-3.8-flash', { reasoning: Reasoning.off() })).toThrow(
      "gemini model 'gemini-3.8-flash' does not accept reasoning Off; accepted: Effort(MINIMAL|LOW|MEDIUM|HIGH, HIDDEN|SUMMARY)",
    );
    expect(() => create('gemini-3.8-flash', { reasoning: Reasoning.effort(ReasoningLevel.MAX) })).toThrow(
      /does not accept reasoning Effort\(MAX, HIDDEN\)/,
    );
    expect(() =>
      create('gemini-3.8-flash', {
        reasoning: Reasoning.effort(ReasoningLevel.LOW, ReasoningDisplay.PROGRESS),
      }),
    ).toThrow(/does not accept reasoning Effort\(LOW, PROGRESS\)/);
    expect(() => create('gemini-3.8-flash', { maxOutputTokens: 70_000 })).toThrow(
      "gemini model 'gemini-3.8-flash' does not accept maxOutputTokens 70000; accepted: 1..65536",
    );
    expect(() => create('gemini-3.8-flash', { temperature: 2.5 })).toThrow(
      "gemini model 'gemini-3.8-flash' does not accept temperature 2.5; accepted: 0..2",
    );
    expect(() => create('gemini-3.8-flash', { apiVersion: 'v2' })).toThrow(
      "gemini model 'gemini-3.8-flash' does not accept apiVersion v2; accepted: v1, v1beta",
    );
  });

  it('sends an unknown id as given, with no output ceiling (never 0)', () => {
    const model = create('gemini-9-ultra', { reasoning: Reasoning.effort(ReasoningLevel.MEDIUM) });
    expect(model).toMatchObject({ id: 'gemini-9-ultra', contextWindow: 0, maxOutputTokens: 0 });
    expect(
      generation('gemini-9-ultra', { temperature: 0.2, topP: 0.9, seed: 7, stopSequences: ['END'] }),
    ).toEqual({
      generation: { temperature: 0.2, top_p: 0.9, seed: 7, stop_sequences: ['END'] },
      toolChoice: undefined,
      maxOutputTokens: undefined,
    });
  });

  it('spells every tool choice', () => {
    const choice = (toolChoice: ToolChoice) => generation('gemini-3.8-flash', { toolChoice }).toolChoice;
    expect(choice(ToolChoice.auto())).toBe('auto');
    expect(choice(ToolChoice.any())).toBe('any');
    expect(choice(ToolChoice.none())).toBe('none');
    expect(choice(ToolChoice.required(['get_weather']))).toEqual({
      allowed_tools: { mode: 'validated', tools: ['get_weather'] },
    });
  });

  it('needs a key unless a base URL authenticates itself', () => {
    expect(() => createGeminiModel('gemini-3.8-flash', ModelConfig.create({}))).toThrow(
      "gemini model 'gemini-3.8-flash' needs an apiKey (or a baseUrl that authenticates itself)",
    );
    expect(() => createGeminiModel(' ', ModelConfig.create({ apiKey: KEY }))).toThrow('non-blank');
  });
});
