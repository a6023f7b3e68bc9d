import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { DatabaseService } from '../persistence/database.service.js';
import { ReadinessService } from '../health/readiness.service.js';
import { readInstance } from '../persistence/instance-metadata.js';
import { StatusDto } from './status.dto.js';
import { VERSION } from '../version.js';

@ApiTags('status')
@Controller('v1')
export class StatusController {
  constructor(
    @Inject(DatabaseService) private readonly database: DatabaseService,
    @Inject(ReadinessService) private readonly readiness: ReadinessService,
  ) {}

  /** When this process started serving (module construction, a few ms before listen). */
  private readonly startedAt = new Date();

  @Get('status')
  @ApiOkResponse({
    type: StatusDto,
    description: 'Version, database kind and readiness, installation metadata.',
  })
  async status(): Promise<StatusDto> {
    const readiness = await this.readiness.check();
    const instance = readiness.ready ? await readInstance(this.database.dataSource) : undefined;
    return {
      name: 'helios',
      version: VERSION,
      database: {
        kind: this.database.database.kind,
        ready: readiness.ready,
        reason: readiness.ready ? null : readiness.reason,
      },
      instance: instance
        ? {
            id: instance.id,
            createdAt: instance.createdAt.toISOString(),
            lastStartedAt: instance.lastStartedAt.toISOString(),
            startCount: instance.startCount,
          }
        : null,
      startedAt: this.startedAt.toISOString(),
      uptimeSeconds: Math.floor((Date.now() - this.startedAt.getTime()) / 1000),
    };
  }
}
