/**
 * A question the session asks its user: a permission approval (id `perm-…`) or the model's own
 * AskUserQuestion (id `q-…`). Tell them apart by the id prefix, never the header: the model chooses its
 * own question's header and labels.
 */
import { InvalidArgumentError } from '@helios/core';

export interface QuestionOption {
  readonly label: string;
  readonly description: string;
}

export interface QuestionRequest {
  readonly questionId: string;
  readonly header: string;
  readonly question: string;
  readonly options: readonly QuestionOption[];
  readonly multiSelect: boolean;
}

export interface QuestionResponse {
  readonly selectedLabels: readonly string[];
  readonly customText?: string;
}

export const PERMISSION_QUESTION_PREFIX = 'perm-';
export const MODEL_QUESTION_PREFIX = 'q-';
export const MAX_HEADER_LENGTH = 12;
export const MAX_LABEL_LENGTH = 80;

/** Checks an answer against the question it answers; throws InvalidArgumentError naming the problem. */
export function checkResponse(request: QuestionRequest, response: QuestionResponse): QuestionResponse {
  const labels = response.selectedLabels;
  if (!Array.isArray(labels) || labels.length === 0) {
    throw new InvalidArgumentError('selectedLabels must name at least one option');
  }
  if (!request.multiSelect && labels.length > 1) {
    throw new InvalidArgumentError('this question takes exactly one label');
  }
  const known = new Set(request.options.map((option) => option.label.toLowerCase()));
  for (const label of labels) {
    if (typeof label !== 'string' || !known.has(label.toLowerCase())) {
      throw new InvalidArgumentError(`unknown option label ${JSON.stringify(label)}`);
    }
  }
  if (response.customText !== undefined && typeof response.customText !== 'string') {
    throw new InvalidArgumentError('customText must be a string');
  }
  return Object.freeze({
    selectedLabels: Object.freeze([...labels]),
    ...(response.customText ? { customText: response.customText } : {}),
  });
}
