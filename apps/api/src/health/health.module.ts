import { Module } from '@nestjs/common';
import { LifecycleModule } from '../lifecycle/lifecycle.module.js';
import { PersistenceModule } from '../persistence/persistence.module.js';
import { StatusController } from '../status/status.controller.js';
import { HealthController } from './health.controller.js';
import { ReadinessService } from './readiness.service.js';

/** Liveness, readiness and the status page's data: unauthenticated, read-only. */
@Module({
  imports: [PersistenceModule, LifecycleModule],
  controllers: [HealthController, StatusController],
  providers: [ReadinessService],
})
export class HealthModule {}
