import { ModelConfig, Reasoning, ReasoningDisplay, ReasoningLevel, ToolChoice } from '@helios/core';
import { describe, expect, it } from 'vitest';
import { createAnthropicModel } from './anthropic-model.js';

const KEY = 'sk-ant-test-key-0123456789abcdef';
const create = (modelId: string, options: Parameters<typeof ModelConfig.create>[0]) =>
  createAnthropicModel(modelId, ModelConfig.create({ apiKey: KEY, ...options }));

describe('anthropic catalogue refusals', () => {
  it('refuses Off on a model that always thinks, naming model, value and accepted values', () => {
    expect(() => create('claude-opus-5-5', { reasoning: Reasoning.off() })).toThrow(
      "anthropic model 'claude-opus-5-5' does not accept reasoning Off; accepted: Effort(LOW|MEDIUM|HIGH|XHIGH|MAX, HIDDEN|SUMMARY|PROGRESS)",
    );
  });

  it('refuses PROGRESS on a model without progress notes and XHIGH where it does not exist', () => {
    expect(() =>
      create('claude-opus-5', { reasoning: Reasoning.effort(ReasoningLevel.LOW, ReasoningDisplay.PROGRESS) }),
    ).toThrow(
      "anthropic model 'claude-opus-5' does not accept reasoning Effort(LOW, PROGRESS); accepted: Effort(LOW|MEDIUM|HIGH|XHIGH|MAX, HIDDEN|SUMMARY), Off",
    );
    expect(() => create('claude-sonnet-4-6', { reasoning: Reasoning.effort(ReasoningLevel.XHIGH) })).toThrow(
      "anthropic model 'claude-sonnet-4-6' does not accept reasoning Effort(XHIGH, HIDDEN); accepted: Effort(LOW|MEDIUM|HIGH|MAX, HIDDEN|SUMMARY), Off",
    );
  });

  it('refuses temperature on Claude 4.7 and later, also for dated snapshots', () => {
    expect(() => create('claude-opus-4-7-20260101', { temperature: 0.5 })).toThrow(
      "anthropic model 'claude-opus-4-7-20260101' does not accept sampling temperature 0.5; accepted: no temperature or topP",
    );
  });

  it('accepts temperature xor topP where the model takes one of them', () => {
    expect(() => create('claude-haiku-4-5', { temperature: 0.5 })).not.toThrow();
    expect(() => create('claude-haiku-4-5', { temperature: 0.5, topP: 0.9 })).toThrow(
      "anthropic model 'claude-haiku-4-5' does not accept sampling temperature 0.5 with topP 0.9; accepted: temperature or topP, not both",
    );
    expect(() =>
      create('claude-sonnet-4-6', { temperature: 0.5, reasoning: Reasoning.effort(ReasoningLevel.LOW) }),
    ).toThrow(
      /does not accept sampling with Effort temperature 0.5; accepted: topP in \[0.95, 1\], no temperature/,
    );
  });

  it('refuses a max output above the catalogue ceiling and at or below a thinking budget', () => {
    expect(() => create('claude-haiku-4-5', { maxOutputTokens: 70_000 })).toThrow(
      "anthropic model 'claude-haiku-4-5' does not accept maxOutputTokens 70000; accepted: 1..65536",
    );
    expect(() =>
      create('claude-haiku-4-5', {
        maxOutputTokens: 4096,
        reasoning: Reasoning.effort(ReasoningLevel.LOW, ReasoningDisplay.SUMMARY),
      }),
    ).toThrow(/maxOutputTokens 4096; accepted: more than the LOW thinking budget of 4096/);
  });

  it('refuses forced tool choice on signed-thinking models and several required tools anywhere', () => {
    expect(() => create('claude-sonnet-5-5', { toolChoice: ToolChoice.any() })).toThrow(
      "anthropic model 'claude-sonnet-5-5' does not accept toolChoice Any; accepted: Auto, None",
    );
    expect(() => create('claude-opus-5', { toolChoice: ToolChoice.required(['a', 'b']) })).toThrow(
      /toolChoice Required\(a, b\); accepted: Auto, Any, None, Required\(<one tool>\)/,
    );
  });

  it('refuses options the Messages API has no field for', () => {
    expect(() => create('claude-opus-5', { seed: 7 })).toThrow(/does not accept seed 7/);
  });

  it('takes anything on an unknown id and reports catalogue limits on known ones', () => {
    const unknown = create('claude-experimental', {
      temperature: 0.3,
      reasoning: Reasoning.effort(ReasoningLevel.MINIMAL),
    });
    expect(unknown.maxOutputTokens).toBe(32_000);
    expect(unknown.contextWindow).toBe(0);
    const haiku = create('claude-haiku-4-5', {});
    expect(haiku.contextWindow).toBe(200_000);
    expect(haiku.maxOutputTokens).toBe(65_536);
  });

  it('needs a key unless a base URL is given', () => {
    expect(() => createAnthropicModel('claude-opus-5', ModelConfig.create({}))).toThrow(/needs an apiKey/);
  });
});
