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

/**
 * Checks an answer's shape (the reference's AskUserQuestionResponse): at least one label, none blank.
 * Labels need not be among the options — a user may answer in their own words, and each asker judges
 * what it got (a permission approves only on `Allow`). Throws InvalidArgumentError naming the problem.
 */
export function checkResponse(response: QuestionResponse): QuestionResponse {
  const labels: unknown = response.selectedLabels;
  if (!Array.isArray(labels) || labels.length === 0) {
    throw new InvalidArgumentError('selectedLabels must name at least one option');
  }
  for (const label of labels) {
    if (typeof label !== 'string' || label.trim() === '') {
      throw new InvalidArgumentError(
        `selectedLabels must be non-blank strings, got ${JSON.stringify(label)}`,
      );
    }
  }
  if (response.customText !== undefined && typeof response.customText !== 'string') {
    throw new InvalidArgumentError('customText must be a string');
  }
  return Object.freeze({
    selectedLabels: Object.freeze([...(labels as string[])]),
    ...(response.customText ? { customText: response.customText } : {}),
  });
}
