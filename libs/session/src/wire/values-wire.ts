/**
 * Wire forms of the small values events and results carry: Usage, CostEstimate (micro-USD as a decimal
 * string), SerializedError, Citation, QuestionRequest and StopReason.
 */
import { type Citation, CostEstimate, Usage } from '@helios/core';
import { type QuestionOption, type QuestionRequest } from '../questions/question.js';
import { type SerializedError } from '../serialized-error.js';
import { StopReason } from '../stop-reason.js';
import { type Wire } from './wire-type.js';
import { WireFormatError } from './wire-error.js';
import { ifPresent, readCount, readString, WireObject } from './wire-object.js';

/** The deepest cause chain accepted; SerializedError.of stops at the same depth. */
export const MAX_CAUSE_DEPTH = 16;

export function usageToWire(usage: Usage): Wire<Usage> {
  return {
    inputTokens: usage.inputTokens,
    outputTokens: usage.outputTokens,
    cacheWriteTokens: usage.cacheWriteTokens,
    cacheReadTokens: usage.cacheReadTokens,
    totalTokens: usage.totalTokens,
  };
}

export function readUsage(value: unknown, path: string): Usage {
  const wire = WireObject.at(value, path);
  const usage = Usage.of(wire.count('inputTokens'), wire.count('outputTokens'), {
    cacheWriteTokens: wire.count('cacheWriteTokens'),
    cacheReadTokens: wire.count('cacheReadTokens'),
  });
  if (wire.count('totalTokens') !== usage.totalTokens) {
    throw new WireFormatError(
      wire.pathOf('totalTokens'),
      `must be the sum of the four counts, ${usage.totalTokens}`,
    );
  }
  return usage;
}

export function costToWire(cost: CostEstimate): string {
  return cost.microUsd.toString();
}

export function readCost(wire: WireObject, key: string): CostEstimate {
  return CostEstimate.ofMicroUsd(wire.microUsd(key));
}

export function errorToWire(error: SerializedError): Wire<SerializedError> {
  return {
    kind: error.kind,
    message: error.message,
    stackTrace: [...error.stackTrace],
    ...(error.cause === undefined ? {} : { cause: errorToWire(error.cause) }),
  };
}

export function readError(value: unknown, path: string): SerializedError {
  return readErrorAt(value, path, 1);
}

function readErrorAt(value: unknown, path: string, depth: number): SerializedError {
  if (depth > MAX_CAUSE_DEPTH) {
    throw new WireFormatError(path, `cause chain deeper than ${MAX_CAUSE_DEPTH} errors`);
  }
  const wire = WireObject.at(value, path);
  const cause = wire.optional('cause', (inner, innerPath) => readErrorAt(inner, innerPath, depth + 1));
  return Object.freeze({
    kind: wire.string('kind'),
    message: wire.string('message'),
    stackTrace: wire.array('stackTrace', readString),
    ...ifPresent('cause', cause),
  });
}

export function citationToWire(citation: Citation): Wire<Citation> {
  return {
    ...ifPresent('sourceId', citation.sourceId),
    ...ifPresent('title', citation.title),
    ...ifPresent('url', citation.url),
    ...ifPresent('content', citation.content),
    ...ifPresent('startIndex', citation.startIndex),
    ...ifPresent('endIndex', citation.endIndex),
    metadata: { ...citation.metadata },
  };
}

export function readCitation(value: unknown, path: string): Citation {
  const wire = WireObject.at(value, path);
  return Object.freeze({
    ...ifPresent('sourceId', wire.optional('sourceId', readString)),
    ...ifPresent('title', wire.optional('title', readString)),
    ...ifPresent('url', wire.optional('url', readString)),
    ...ifPresent('content', wire.optional('content', readString)),
    ...ifPresent('startIndex', wire.optional('startIndex', readCount)),
    ...ifPresent('endIndex', wire.optional('endIndex', readCount)),
    metadata: wire.record('metadata', readString),
  });
}

export function questionToWire(request: QuestionRequest): Wire<QuestionRequest> {
  return {
    questionId: request.questionId,
    header: request.header,
    question: request.question,
    options: request.options.map((option) => ({ label: option.label, description: option.description })),
    multiSelect: request.multiSelect,
  };
}

function readOption(value: unknown, path: string): QuestionOption {
  const wire = WireObject.at(value, path);
  return Object.freeze({ label: wire.string('label'), description: wire.string('description') });
}

export function readQuestion(value: unknown, path: string): QuestionRequest {
  const wire = WireObject.at(value, path);
  return Object.freeze({
    questionId: wire.string('questionId'),
    header: wire.string('header'),
    question: wire.string('question'),
    options: wire.array('options', readOption),
    multiSelect: wire.boolean('multiSelect'),
  });
}

const STOP_REASONS: readonly StopReason[] = Object.values(StopReason);

export function readStopReason(wire: WireObject, key: string): StopReason {
  return wire.oneOf(key, STOP_REASONS);
}
