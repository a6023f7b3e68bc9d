import { Module } from '@nestjs/common';
import { GracefulShutdown } from './graceful-shutdown.service.js';
import { ShutdownState } from './shutdown-state.js';

/** Shutdown state (for readiness) and the main listener's graceful drain. */
@Module({
  providers: [ShutdownState, GracefulShutdown],
  exports: [ShutdownState],
})
export class LifecycleModule {}
