/**
 * The runtime API under `/v1/sessions`. Each route runs after the admission gate authenticated and
 * admitted the request (auth/admission-gate.ts) and acts only on the caller's own sessions; the
 * registry answers another principal's session as the same 404 as an unknown id.
 */
import { Body, Controller, Delete, Get, HttpCode, Inject, Param, Post, UseFilters } from '@nestjs/common';
import {
  ApiAcceptedResponse,
  ApiCreatedResponse,
  ApiNoContentResponse,
  ApiOkResponse,
  ApiOperation,
  ApiTags,
} from '@nestjs/swagger';
import { SessionClosedError } from '@helios/session';
import { Caller } from '../../auth/caller.decorator.js';
import { type Identity } from '../../auth/identity.js';
import { RuntimeRefusal } from '../../auth/refusals.js';
import { SessionRegistry } from '../registry/session-registry.js';
import { Refusal, RuntimeRoute } from './api-docs.js';
import { AnswerQuestionDto, CreateSessionDto, SendMessageDto } from './dto/session-requests.dto.js';
import { InterruptedDto, SessionCreatedDto, SessionSummaryDto } from './dto/session-responses.dto.js';
import { RuntimeExceptionFilter } from './runtime-exception.filter.js';
import { summaryOf } from './session-views.js';

@ApiTags('sessions')
@UseFilters(RuntimeExceptionFilter)
@Controller('v1/sessions')
export class SessionsController {
  constructor(@Inject(SessionRegistry) private readonly registry: SessionRegistry) {}

  @Post()
  @ApiOperation({ summary: 'Start a session of an agent (or reopen one of yours from its store).' })
  @ApiCreatedResponse({ type: SessionCreatedDto })
  @RuntimeRoute(400, 404, 413)
  @Refusal(
    429,
    'This caller holds its maximum of sessions, none finished (SESSION_LIMIT_REACHED, Retry-After: 5).',
  )
  @Refusal(503, 'The server holds its maximum of sessions (REGISTRY_FULL, Retry-After: 5), or is busy.')
  async create(@Caller() caller: Identity, @Body() body: CreateSessionDto): Promise<SessionCreatedDto> {
    requireValid(caller);
    const entry = await this.registry.create(caller, body.agent, body.sessionId);
    return { sessionId: entry.id, eventsUrl: `/v1/sessions/${entry.id}/events` };
  }

  @Get()
  @ApiOperation({ summary: "The caller's own sessions, newest first." })
  @ApiOkResponse({ type: [SessionSummaryDto] })
  @RuntimeRoute()
  list(@Caller() caller: Identity): SessionSummaryDto[] {
    return this.registry.list(caller).map(summaryOf);
  }

  @Post(':id/messages')
  @HttpCode(202)
  @ApiOperation({ summary: 'Send a message: steers the run in progress, or starts the next run.' })
  @ApiAcceptedResponse({ description: 'Accepted; follow the events or poll the result.' })
  @RuntimeRoute(400, 404, 409, 413)
  @Refusal(429, 'Too many requests in flight, or the steering queue is full (STEERING_QUEUE_FULL).')
  async send(
    @Caller() caller: Identity,
    @Param('id') id: string,
    @Body() body: SendMessageDto,
  ): Promise<void> {
    const entry = this.registry.get(caller, id);
    requireValid(caller);
    await entry.send(body.text);
  }

  @Post(':id/interrupt')
  @HttpCode(202)
  @ApiOperation({
    summary: 'Cancel the run in progress (it ends Cancelled "interrupted"); the session stays open.',
  })
  @ApiAcceptedResponse({ type: InterruptedDto })
  @RuntimeRoute(404, 409, 413)
  interrupt(@Caller() caller: Identity, @Param('id') id: string): InterruptedDto {
    const entry = this.registry.get(caller, id);
    requireValid(caller);
    if (entry.session.closed) throw new SessionClosedError(`session ${id} is closed`);
    return { interrupted: entry.session.interrupt() };
  }

  @Post(':id/questions/:questionId')
  @HttpCode(202)
  @ApiOperation({ summary: 'Answer a pending question (a permission approval, or the model’s own).' })
  @ApiAcceptedResponse({ description: 'Answered; the run waiting on it continues.' })
  @RuntimeRoute(400, 409, 413)
  @Refusal(404, 'Unknown session, or the question is not pending (SESSION_NOT_FOUND, QUESTION_NOT_PENDING).')
  answer(
    @Caller() caller: Identity,
    @Param('id') id: string,
    @Param('questionId') questionId: string,
    @Body() body: AnswerQuestionDto,
  ): void {
    const entry = this.registry.get(caller, id);
    requireValid(caller);
    entry.session.answer(questionId, {
      selectedLabels: body.selectedLabels,
      ...(body.customText === undefined ? {} : { customText: body.customText }),
    });
  }

  @Delete(':id')
  @HttpCode(204)
  @ApiOperation({ summary: 'Close the session (a run in progress ends Cancelled) and forget it.' })
  @ApiNoContentResponse({ description: 'Closed.' })
  @RuntimeRoute(404)
  remove(@Caller() caller: Identity, @Param('id') id: string): void {
    requireValid(caller);
    this.registry.remove(caller, id);
  }
}

/** The body may have finished arriving just as the identity was lost: then nothing is done. */
export function requireValid(caller: Identity): void {
  if (!caller.valid) throw new RuntimeRefusal('UNAUTHENTICATED');
}
