import { Module } from '@nestjs/common';
import { ModelRegistry } from './model-registry.js';

/**
 * The model provider registry (Anthropic, OpenAI, Gemini, OpenAI-compatible servers; any AI SDK model
 * through `fromLanguageModel`) the sessions resolve models from.
 */
@Module({
  providers: [ModelRegistry],
  exports: [ModelRegistry],
})
export class ProvidersModule {}
