/**
 * The long-lived reads of `/v1/sessions/{id}`: the event stream, the result long poll, the pending
 * questions. A stream and a waiting poll count against the caller's in-flight requests while open, and
 * end (the stream) or answer 401 (the poll) when the caller's identity expires or is revoked.
 */
import { Controller, Get, Headers, Inject, Param, Query, Res, UseFilters } from '@nestjs/common';
import {
  ApiHeader,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiProduces,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import { type FastifyReply } from 'fastify';
import { Caller } from '../../auth/caller.decorator.js';
import { type Identity } from '../../auth/identity.js';
import { RuntimeRefusal } from '../../auth/refusals.js';
import { type HeliosConfig } from '../../config/config.schema.js';
import { HELIOS_CONFIG } from '../../config/config.tokens.js';
import { SessionRegistry } from '../registry/session-registry.js';
import { Refusal, RuntimeRoute } from './api-docs.js';
import { QuestionDto, RunResultDto } from './dto/session-responses.dto.js';
import { streamEvents } from './event-stream-writer.js';
import { RuntimeExceptionFilter } from './runtime-exception.filter.js';
import { pollTimeoutMs, questionOf, resultOf } from './session-views.js';

const EVENTS_DESCRIPTION =
  'text/event-stream: `Ready` first (data `{}`), then one event per QueryEvent — `event:` the variant ' +
  'name, `data:` its JSON wire form on one line, `id:` its number in the session — and a comment line ' +
  'as heartbeat. Reconnect with Last-Event-ID to get what you missed from the retained log; events no ' +
  'longer retained come as one `Gap` event (`{type, sessionId, firstMissed, lastMissed, missed}`).';

@ApiTags('sessions')
@UseFilters(RuntimeExceptionFilter)
@Controller('v1/sessions')
export class SessionReadsController {
  constructor(
    @Inject(SessionRegistry) private readonly registry: SessionRegistry,
    @Inject(HELIOS_CONFIG) private readonly config: HeliosConfig,
  ) {}

  @Get(':id/events')
  @ApiOperation({ summary: "The session's events (SSE), across runs, until it closes." })
  @ApiProduces('text/event-stream')
  @ApiOkResponse({
    description: EVENTS_DESCRIPTION,
    content: { 'text/event-stream': { schema: { type: 'string' } } },
  })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'The last event id received.' })
  @RuntimeRoute(404)
  async events(
    @Caller() caller: Identity,
    @Param('id') id: string,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Res() reply: FastifyReply,
  ): Promise<void> {
    const entry = this.registry.get(caller, id);
    const headers = Object.fromEntries(
      Object.entries(reply.getHeaders()).map(([name, value]) => [name, String(value)]),
    );
    reply.hijack();
    await streamEvents(reply.raw, {
      entry,
      caller,
      lastEventId,
      heartbeatMs: this.config.sessions.heartbeatMs,
      headers,
    });
  }

  @Get(':id/result')
  @ApiOperation({
    summary: "Long poll for the latest run's result: now if none is running, else when the running one ends.",
  })
  @ApiQuery({
    name: 'timeout',
    required: false,
    description: 'Seconds to wait: default 60, 0 to 300 (not a number: 60; clamped).',
    schema: { type: 'string', example: '30' },
  })
  @ApiOkResponse({ type: RunResultDto })
  @ApiNoContentResponse({ description: 'No result within the timeout.' })
  @RuntimeRoute(404)
  @Refusal(500, 'The run failed with an unexpected error and the session closed (SESSION_FAILED).')
  async result(
    @Caller() caller: Identity,
    @Param('id') id: string,
    @Query('timeout') timeout: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<RunResultDto | undefined> {
    const entry = this.registry.get(caller, id);
    const watch = caller.watch();
    try {
      const outcome = await entry.awaitResult(pollTimeoutMs(timeout), watch.signal);
      if (outcome === undefined || !caller.valid) throw new RuntimeRefusal('UNAUTHENTICATED');
      if (outcome.kind === 'failed') throw new RuntimeRefusal('SESSION_FAILED');
      if (outcome.kind === 'timeout') {
        void reply.code(204);
        return undefined;
      }
      const body = resultOf(outcome.result);
      if (!caller.valid) throw new RuntimeRefusal('UNAUTHENTICATED');
      return body;
    } finally {
      watch.release();
    }
  }

  @Get(':id/questions')
  @ApiOperation({ summary: 'The questions the session waits on (for a client that missed QuestionAsked).' })
  @ApiOkResponse({ type: [QuestionDto] })
  @RuntimeRoute(404)
  questions(@Caller() caller: Identity, @Param('id') id: string): QuestionDto[] {
    const entry = this.registry.get(caller, id);
    return entry.session.closed ? [] : entry.session.pendingQuestions().map(questionOf);
  }
}
