import { Controller, Get, Inject, UseFilters } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { AgentCatalog } from '../agents/agent-catalog.js';
import { listing } from '../agents/agent-definition.js';
import { RuntimeRoute } from './api-docs.js';
import { AgentDto } from './dto/session-responses.dto.js';
import { RuntimeExceptionFilter } from './runtime-exception.filter.js';

@ApiTags('sessions')
@UseFilters(RuntimeExceptionFilter)
@Controller('v1/agents')
export class AgentsController {
  constructor(@Inject(AgentCatalog) private readonly catalog: AgentCatalog) {}

  @Get()
  @ApiOperation({ summary: 'The agents a caller may start sessions of (never their keys).' })
  @ApiOkResponse({ type: [AgentDto] })
  @RuntimeRoute()
  list(): AgentDto[] {
    return this.catalog.all().map(listing);
  }
}
