import { Module } from '@nestjs/common';

/**
 * Authenticators and per-principal isolation for the runtime API (issue 22).
 * Registered in AppModule now so the issue that fills it adds providers and controllers here, not
 * wiring; it has none yet.
 */
@Module({})
export class AuthModule {}
