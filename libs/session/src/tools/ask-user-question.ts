/**
 * The model's AskUserQuestion tool (category CONTROL): asks the user a multiple-choice question with a
 * `q-…` id and answers with the chosen labels, then any custom text on its own line.
 */
import {
  defineTool,
  InvalidArgumentError,
  newId,
  type Tool,
  type ToolArguments,
  ToolResult,
} from '@helios/core';
import {
  MAX_HEADER_LENGTH,
  MAX_LABEL_LENGTH,
  MODEL_QUESTION_PREFIX,
  type QuestionOption,
  type QuestionRequest,
  type QuestionResponse,
} from '../questions/question.js';

export const ASK_USER_QUESTION = 'AskUserQuestion';

export type Asker = (request: QuestionRequest, signal: AbortSignal) => Promise<QuestionResponse>;

export function askUserQuestionTool(ask: Asker): Tool {
  return defineTool({
    name: ASK_USER_QUESTION,
    description:
      'Ask the user a multiple-choice question and wait for the answer. Use it when you need a decision only the user can make.',
    jsonSchema: {
      type: 'object',
      properties: {
        question: { type: 'string', description: 'The question, complete and specific.' },
        header: { type: 'string', description: `A short tag, at most ${MAX_HEADER_LENGTH} characters.` },
        options: {
          type: 'array',
          description: '2 to 4 choices.',
          items: {
            type: 'object',
            properties: { label: { type: 'string' }, description: { type: 'string' } },
            required: ['label'],
          },
        },
        multiSelect: { type: 'boolean', description: 'Whether several options may be chosen.' },
      },
      required: ['question', 'options'],
    },
    execute: async (args, context) => {
      let request: QuestionRequest;
      try {
        request = toRequest(args);
      } catch (error) {
        if (error instanceof InvalidArgumentError) return ToolResult.failure('invalid question', error);
        throw error;
      }
      const response = await ask(request, context.signal);
      const text = response.selectedLabels.join(', ');
      return ToolResult.success(response.customText ? `${text}\n${response.customText}` : text);
    },
  });
}

function toRequest(args: ToolArguments): QuestionRequest {
  const question = args['question'];
  if (typeof question !== 'string' || question.trim() === '')
    throw new InvalidArgumentError('question must not be blank');
  const header = typeof args['header'] === 'string' ? args['header'] : 'Question';
  if (header.length > MAX_HEADER_LENGTH) {
    throw new InvalidArgumentError(`header must have at most ${MAX_HEADER_LENGTH} characters`);
  }
  const rawOptions = args['options'];
  if (!Array.isArray(rawOptions) || rawOptions.length < 2 || rawOptions.length > 4) {
    throw new InvalidArgumentError('options must list 2 to 4 choices');
  }
  const options: QuestionOption[] = rawOptions.map((raw: unknown) => {
    const option = (raw ?? {}) as Record<string, unknown>;
    const label = option['label'];
    if (typeof label !== 'string' || label.trim() === '' || label.length > MAX_LABEL_LENGTH) {
      throw new InvalidArgumentError(`each option needs a label of 1 to ${MAX_LABEL_LENGTH} characters`);
    }
    const description = typeof option['description'] === 'string' ? option['description'] : '';
    return Object.freeze({ label, description });
  });
  return Object.freeze({
    questionId: `${MODEL_QUESTION_PREFIX}${newId()}`,
    header,
    question,
    options: Object.freeze(options),
    multiSelect: args['multiSelect'] === true,
  });
}
