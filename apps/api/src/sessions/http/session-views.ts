/** How the runtime API shows a session, a question and a result (the session library's wire forms). */
import { type QuestionRequest, type ResultMessage, resultToWire } from '@helios/session';
import { type RegisteredSession } from '../registry/registered-session.js';
import { type QuestionDto, type RunResultDto, type SessionSummaryDto } from './dto/session-responses.dto.js';

export function summaryOf(entry: RegisteredSession): SessionSummaryDto {
  const closed = entry.session.closed;
  return {
    sessionId: entry.id,
    agent: entry.identity.agent,
    status: entry.status,
    turns: entry.session.currentTurnIndex,
    costMicroUsd: entry.costMicroUsd.toString(),
    lastResult: entry.lastResult?.type ?? null,
    pendingQuestions: closed ? 0 : entry.session.pendingQuestions().length,
    createdAt: new Date(entry.createdAt).toISOString(),
    updatedAt: new Date(entry.updatedAt).toISOString(),
  };
}

export function questionOf(request: QuestionRequest): QuestionDto {
  return {
    questionId: request.questionId,
    header: request.header,
    question: request.question,
    options: request.options.map((option) => ({ label: option.label, description: option.description })),
    multiSelect: request.multiSelect,
  };
}

export function resultOf(result: ResultMessage): RunResultDto {
  const wire = resultToWire(result) as unknown as Record<string, unknown>;
  return { type: result.type, result: wire };
}

/** `?timeout=` of the long poll, in seconds: default 60, not a number 60, below 0 is 0, above 300 is 300. */
export function pollTimeoutMs(value: unknown): number {
  const seconds = typeof value === 'string' && value.trim() !== '' ? Number(value) : Number.NaN;
  if (!Number.isFinite(seconds)) return 60_000;
  return Math.round(Math.min(300, Math.max(0, seconds)) * 1000);
}
