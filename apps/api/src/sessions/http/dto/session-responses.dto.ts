/** Response bodies of the runtime API, for the OpenAPI document (and the clients generated from it). */
import { ApiProperty } from '@nestjs/swagger';

export class SessionCreatedDto {
  @ApiProperty({ example: 'sess-0193a6c4-7f1e-7a9b-8c2d-1e2f3a4b5c6d' })
  sessionId: string;

  @ApiProperty({ example: '/v1/sessions/sess-0193a6c4-7f1e-7a9b-8c2d-1e2f3a4b5c6d/events' })
  eventsUrl: string;
}

export const SESSION_STATUSES = ['idle', 'running', 'finished', 'closed'] as const;

export class SessionSummaryDto {
  @ApiProperty()
  sessionId: string;

  @ApiProperty({ description: 'The agent it runs.' })
  agent: string;

  @ApiProperty({
    enum: SESSION_STATUSES,
    description: 'idle: never ran; running; finished: its last run ended; closed.',
  })
  status: (typeof SESSION_STATUSES)[number];

  @ApiProperty({ description: 'Model turns taken by all its runs.' })
  turns: number;

  @ApiProperty({
    description: 'Model cost of all its runs, integer micro-USD as a decimal string.',
    example: '0',
  })
  costMicroUsd: string;

  @ApiProperty({
    type: String,
    nullable: true,
    description: "The latest run's result type.",
    example: 'Success',
  })
  lastResult: string | null;

  @ApiProperty({ description: 'Questions waiting for an answer.' })
  pendingQuestions: number;

  @ApiProperty({ format: 'date-time' })
  createdAt: string;

  @ApiProperty({ format: 'date-time' })
  updatedAt: string;
}

export class QuestionOptionDto {
  @ApiProperty({ example: 'Allow' })
  label: string;

  @ApiProperty({ example: 'ask rule Write(**) matched Write(./notes.md)' })
  description: string;
}

export class QuestionDto {
  @ApiProperty({ description: 'perm-… for a permission question, q-… for the model’s own.' })
  questionId: string;

  @ApiProperty({ example: 'Permission' })
  header: string;

  @ApiProperty()
  question: string;

  @ApiProperty({ type: [QuestionOptionDto] })
  options: QuestionOptionDto[];

  @ApiProperty()
  multiSelect: boolean;
}

export class InterruptedDto {
  @ApiProperty({ description: 'Whether a run was in progress and was cancelled.' })
  interrupted: boolean;
}

export class RunResultDto {
  @ApiProperty({
    description: 'The result variant.',
    enum: [
      'Success',
      'ErrorMaxTurns',
      'ErrorMaxBudgetUsd',
      'ErrorMaxWallClock',
      'ErrorDuringExecution',
      'ErrorTransientStream',
      'Refusal',
      'Cancelled',
    ],
  })
  type: string;

  @ApiProperty({
    type: 'object',
    additionalProperties: true,
    description: "The result in the session library's wire form (type, sessionId, runId, usage, cost, …).",
  })
  result: Record<string, unknown>;
}

export class AgentDto {
  @ApiProperty({ example: 'demo' })
  name: string;

  @ApiProperty({ example: 'scripted/demo' })
  model: string;

  @ApiProperty({ enum: ['minimal', 'readOnly', 'workspace'] })
  preset: string;

  @ApiProperty({ description: 'A scripted model (the built-in demo): no provider is called.' })
  scripted: boolean;

  @ApiProperty({ enum: ['memory', 'file', 'postgres'], description: 'Where its conversations are kept.' })
  store: string;
}

export class ErrorBodyDto {
  @ApiProperty({ description: 'A stable reason code.', example: 'SESSION_NOT_FOUND' })
  error: string;

  @ApiProperty({ example: 'session not found' })
  message: string;
}
