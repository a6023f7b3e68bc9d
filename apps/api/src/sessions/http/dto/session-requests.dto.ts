/** Request bodies of the runtime API, checked by the global ValidationPipe (unknown fields refused). */
import { ApiProperty, ApiPropertyOptional } from '@nestjs/swagger';
import {
  ArrayMaxSize,
  ArrayMinSize,
  IsArray,
  IsOptional,
  IsString,
  Matches,
  MaxLength,
} from 'class-validator';

const NON_BLANK = /\S/;

export class CreateSessionDto {
  @ApiProperty({ description: 'The agent to run (GET /v1/agents lists them).', example: 'demo' })
  @IsString()
  @Matches(/^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/, { message: 'agent must be an agent name' })
  agent: string;

  @ApiPropertyOptional({
    description:
      'Reopen this session of yours (an agent with a file or postgres store), e.g. after a restart: ' +
      'its conversation carries on. Omit to start a new session.',
    example: 'sess-0193a6c4-7f1e-7a9b-8c2d-1e2f3a4b5c6d',
  })
  @IsOptional()
  @IsString()
  @Matches(/^[A-Za-z0-9_:-][A-Za-z0-9._:-]{0,99}$/, { message: 'sessionId must be a session id' })
  sessionId?: string;
}

export class SendMessageDto {
  @ApiProperty({ description: 'The message; steers the run in progress or starts the next run.' })
  @IsString()
  @Matches(NON_BLANK, { message: 'text must be a non-blank string' })
  text: string;
}

export class AnswerQuestionDto {
  @ApiProperty({
    type: [String],
    description: 'The chosen option labels (a permission question approves only on "Allow").',
    example: ['Allow'],
  })
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(16)
  @IsString({ each: true })
  @MaxLength(1_000, { each: true })
  @Matches(NON_BLANK, { each: true, message: 'selectedLabels must be non-blank strings' })
  selectedLabels: string[];

  @ApiPropertyOptional({ description: 'Free text alongside the labels.', example: '' })
  @IsOptional()
  @IsString()
  customText?: string;
}
