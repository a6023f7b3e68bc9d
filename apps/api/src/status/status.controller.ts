import { Controller, Get, Inject } from '@nestjs/common';
import { ApiOkResponse, ApiTags } from '@nestjs/swagger';
import { APP_CONTEXT, type AppContext } from '../app-context.js';
import { ReadinessService } from '../health/readiness.service.js';
import { readInstance } from '../persistence/instance-metadata.js';
import { StatusDto } from './status.dto.js';

@ApiTags('status')
@Controller('v1')
export class StatusController {
  constructor(
    @Inject(APP_CONTEXT) private readonly ctx: AppContext,
    @Inject(ReadinessService) private readonly readiness: ReadinessService,
  ) {}

  @Get('status')
  @ApiOkResponse({
    type: StatusDto,
    description: 'Version, database kind and readiness, installation metadata.',
  })
  async status(): Promise<StatusDto> {
    const readiness = await this.readiness.check();
    const instance = readiness.ready ? await readInstance(this.ctx.database.dataSource) : undefined;
    return {
      name: 'helios',
      version: this.ctx.version,
      database: {
        kind: this.ctx.database.kind,
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
      startedAt: this.ctx.startedAt.toISOString(),
      uptimeSeconds: Math.floor((Date.now() - this.ctx.startedAt.getTime()) / 1000),
    };
  }
}
