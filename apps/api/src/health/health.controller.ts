import { Controller, Get, Inject, Res } from '@nestjs/common';
import { ApiOkResponse, ApiServiceUnavailableResponse, ApiTags } from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { LivenessDto, ReadinessDto } from './health.dto.js';
import { ReadinessService } from './readiness.service.js';

@ApiTags('health')
@Controller()
export class HealthController {
  constructor(@Inject(ReadinessService) private readonly readiness: ReadinessService) {}

  @Get('healthz')
  @ApiOkResponse({ type: LivenessDto, description: 'The process is alive.' })
  healthz(): LivenessDto {
    return { status: 'ok' };
  }

  @Get('readyz')
  @ApiOkResponse({ type: ReadinessDto, description: 'Database reachable and all migrations applied.' })
  @ApiServiceUnavailableResponse({ type: ReadinessDto, description: 'Not ready; `reason` says why.' })
  async readyz(@Res({ passthrough: true }) reply: FastifyReply): Promise<ReadinessDto> {
    const readiness = await this.readiness.check();
    if (readiness.ready) return { status: 'ready', database: 'ok', migrations: 'ok' };
    void reply.status(503);
    return { status: 'unavailable', reason: readiness.reason };
  }
}
