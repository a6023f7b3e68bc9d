/**
 * What every provider checks when a model is created, spelled once: a non-blank model id, a key (or a
 * base URL that authenticates itself), the HTTP settings from the config, and the one wording of a
 * catalogue refusal — the model, the rejected value and the values it accepts.
 */
import { InvalidArgumentError, type ModelConfig } from '@helios/core';
import { ApiKey } from './api-key.js';
import { type HttpSettings } from './provider-http.js';

/** Builds the error for an option the model does not accept. */
export type Refuse = (option: string, value: string, accepted: readonly string[]) => InvalidArgumentError;

export function refusal(provider: string, modelId: string): Refuse {
  return (option, value, accepted) =>
    new InvalidArgumentError(
      `${provider} model '${modelId}' does not accept ${option} ${value}; accepted: ${accepted.join(', ')}`,
    );
}

/** The HTTP settings of a keyed provider's model; refuses a blank id, and no key without a base URL. */
export function keyedHttp(provider: string, modelId: string, config: ModelConfig): HttpSettings {
  if (modelId.trim() === '') throw new InvalidArgumentError(`${provider}: model id must be non-blank`);
  const apiKey = ApiKey.of(config.apiKey);
  if (apiKey === undefined && config.baseUrl === undefined) {
    throw new InvalidArgumentError(
      `${provider} model '${modelId}' needs an apiKey (or a baseUrl that authenticates itself)`,
    );
  }
  return {
    provider,
    apiKey,
    responseTimeoutMs: config.responseTimeoutMs,
    streamIdleTimeoutMs: config.streamIdleTimeoutMs,
  };
}
