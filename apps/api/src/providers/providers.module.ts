import { Module } from '@nestjs/common';

/**
 * The model provider registry (Anthropic, OpenAI, Gemini, OpenAI-compatible servers) the sessions resolve models from (issue 19).
 * Registered in AppModule now so the issue that fills it adds providers and controllers here, not
 * wiring; it has none yet.
 */
@Module({})
export class ProvidersModule {}
