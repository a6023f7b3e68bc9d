import { Module } from '@nestjs/common';

/**
 * The code-execution provider configuration the Execute tool runs on (issue 23).
 * Registered in AppModule now so the issue that fills it adds providers and controllers here, not
 * wiring; it has none yet.
 */
@Module({})
export class SandboxModule {}
