import { Module } from '@nestjs/common';

/**
 * Runs agents over HTTP/SSE: agents from configuration, durable sessions, admission limits (issue 22).
 * Registered in AppModule now so the issue that fills it adds providers and controllers here, not
 * wiring; it has none yet.
 */
@Module({})
export class SessionsModule {}
